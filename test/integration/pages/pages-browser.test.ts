import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Replica, startReplica } from "../../support/accounts";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { HOSTILE, seedPagesCatalogue } from "../../support/pages";

/** Debian's chromium; CI installs it (.ci/run), so under CI the test always runs. */
const CHROMIUM = "/usr/bin/chromium";
const underCi = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false";
const runs = existsSync(CHROMIUM) || underCi;
if (!runs) {
  console.warn(
    `pages in a browser: skipped, ${CHROMIUM} is absent (apt-get install chromium) and CI is not set`,
  );
}
/** PAGES_SCREENSHOTS=1 writes the screenshots into docs/ (for docs/pages.md); else a temporary folder. */
const SCREENSHOTS_TO_DOCS = process.env.PAGES_SCREENSHOTS === "1";

interface Visit {
  consoleErrors: string[];
  failed: string[];
  foreign: string[];
}

describe.skipIf(!runs)("the pages in a real browser", () => {
  let database: TestDatabase;
  let server: Replica;
  let browser: BrowserContext;
  let profile: string;
  let shots: string;
  let ids: Awaited<ReturnType<typeof seedPagesCatalogue>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startReplica(database);
    ids = await seedPagesCatalogue(database.db);
    profile = mkdtempSync(path.join(tmpdir(), "pages-chromium-"));
    shots = SCREENSHOTS_TO_DOCS ? path.resolve("docs") : mkdtempSync(path.join(tmpdir(), "pages-shots-"));
    // A fresh profile (user data directory) per run: nothing carried over between runs.
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      viewport: { width: 1000, height: 800 },
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await database?.drop();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (shots && !SCREENSHOTS_TO_DOCS) rmSync(shots, { recursive: true, force: true });
  });

  /** A fresh page that records console errors, failed requests and requests to other origins. */
  async function open(): Promise<{ page: Page; visit: Visit }> {
    const page = await browser.newPage();
    const visit: Visit = { consoleErrors: [], failed: [], foreign: [] };
    page.on("console", (message) => {
      if (message.type() === "error") visit.consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => visit.consoleErrors.push(error.message));
    page.on("requestfailed", (req) => visit.failed.push(req.url()));
    page.on("request", (req) => {
      if (!req.url().startsWith(server.url)) visit.foreign.push(req.url());
    });
    return { page, visit };
  }

  const clean: Visit = { consoleErrors: [], failed: [], foreign: [] };

  it("when each page loads, then no console error, no failed request and nothing from another origin", async () => {
    const paths = [
      "/",
      "/services",
      `/services/${ids.quotesId}`,
      `/services/${ids.hostileId}`,
      "/endpoints?q=quote",
      "/stats",
    ];
    for (const where of paths) {
      const { page, visit } = await open();
      const response = await page.goto(`${server.url}${where}`);
      expect(response?.status(), where).toBe(200);
      await page.waitForLoadState("load");
      expect(visit, where).toEqual(clean);
      expect(await page.evaluate(() => (window as { hacked?: number }).hacked), where).toBeUndefined();
      await page.close();
    }
  });

  it("when a search is typed on the overview, then the services page lists the match under a shareable URL", async () => {
    const { page, visit } = await open();
    await page.goto(`${server.url}/`);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.getByLabel("Search pay-per-call APIs").fill("weather");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/services\?q=weather$/);
    expect(await page.locator("tbody tr th a").allTextContents()).toEqual(["Weather Now"]);
    expect(visit).toEqual(clean);
    await page.close();
  });

  it("when filters are chosen in the form, then the URL carries only them and the rows match the API", async () => {
    const { page, visit } = await open();
    await page.goto(`${server.url}/services`);
    await page.getByLabel("Category").selectOption("Finance");
    await page.getByLabel("Sort by").selectOption("name");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/\/services\?category=Finance&sort=name$/);
    const shown = await page.locator("tbody tr th a").allTextContents();
    const answer = (await (await fetch(`${server.url}/v1/services?category=Finance&sort=name`)).json()) as {
      items: Array<{ name: string }>;
    };
    expect(shown).toEqual(answer.items.map((s) => s.name));
    expect(visit).toEqual(clean);
    await page.close();
  });

  it("when a detail page is shown, then each chart has as many points as the history APIs have values", async () => {
    const { page, visit } = await open();
    await page.goto(`${server.url}/services/${ids.quotesId}`);
    const api = async <T>(path: string) =>
      ((await (await fetch(`${server.url}${path}`)).json()) as { items: T[] }).items;
    const history = await api<Record<string, unknown>>(`/v1/services/${ids.quotesId}/history?limit=200`);
    const daily = await api<Record<string, unknown> & { probes: Record<string, unknown> }>(
      `/v1/services/${ids.quotesId}/history/daily`,
    );
    expect(history.length).toBe(3);
    expect(daily.length).toBe(30);
    const known = (values: unknown[]) => values.filter((v) => v !== null && v !== undefined).length;
    const series: Array<[string, number, unknown[]]> = [
      ["#chart-uptime", 0, history.map((h) => h.uptime_30d)],
      ["#chart-probe-uptime", 0, daily.map((d) => d.probes.uptime_pct)],
      ["#chart-probe-latency", 0, daily.map((d) => d.probes.p50_ms)],
      ["#chart-probe-latency", 1, daily.map((d) => d.probes.p99_ms)],
      ["#chart-volume", 0, daily.map((d) => d.claimed_volume_usdc_30d)],
      ["#chart-volume", 1, daily.map((d) => d.observed_volume_usdc_30d)],
      ["#chart-price", 0, daily.map((d) => d.price_min_usdc)],
    ];
    for (const [chart, k, values] of series) {
      const drawn = page.locator(`${chart} .series-${k} circle.point`);
      expect(await drawn.count(), `${chart} series ${k}`).toBe(known(values));
      expect(await page.locator(`${chart} svg`).getAttribute("data-points"), chart).toBe(
        String(values.length),
      );
    }
    // Points that exist are visible on the page (inside the drawn chart), not just in the markup.
    expect(await page.locator("#chart-probe-uptime circle.point").first().isVisible()).toBe(true);
    expect(known(daily.map((d) => d.probes.uptime_pct))).toBeGreaterThanOrEqual(4);
    expect(visit).toEqual(clean);
    await page.close();
  });

  it("when crawled text is hostile, then the browser shows it as text and links no script URL", async () => {
    const { page } = await open();
    await page.goto(`${server.url}/services/${ids.hostileId}`);
    expect(await page.locator("h1").textContent()).toBe(HOSTILE.name);
    expect(await page.locator("a[href^='javascript']").count()).toBe(0);
    expect(await page.locator(".endpoint h3").textContent()).toContain(HOSTILE.url);
    expect(await page.locator("script").count()).toBe(1);
    await page.close();
  });

  it("when the main pages are captured, then the screenshots are written and no page scrolls sideways on a phone", async () => {
    const captures: Array<[string, string]> = [
      ["pages-home.png", "/"],
      ["pages-services.png", "/services?sort=volume"],
      ["pages-service.png", `/services/${ids.quotesId}`],
      ["pages-endpoints.png", "/endpoints?q=quote"],
      ["pages-stats.png", "/stats"],
    ];
    for (const [file, where] of captures) {
      const { page } = await open();
      await page.goto(`${server.url}${where}`);
      await page.screenshot({ path: path.join(shots, file), fullPage: false });
      expect(existsSync(path.join(shots, file))).toBe(true);
      await page.close();
    }
    const charts = await open();
    await charts.page.goto(`${server.url}/services/${ids.quotesId}#h-probes`);
    await charts.page.screenshot({ path: path.join(shots, "pages-service-charts.png") });
    await charts.page.close();
    const { page } = await open();
    await page.setViewportSize({ width: 390, height: 800 });
    for (const where of ["/", "/services", `/services/${ids.hostileId}`, "/endpoints?q=quote", "/stats"]) {
      await page.goto(`${server.url}${where}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, where).toBeLessThanOrEqual(0);
    }
    await page.goto(`${server.url}/services/${ids.quotesId}`);
    await page.screenshot({ path: path.join(shots, "pages-service-phone.png") });
    await page.close();
  });
});
