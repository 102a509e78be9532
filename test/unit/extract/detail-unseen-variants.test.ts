import { describe, expect, it } from "vitest";
import { parseDurationMs, parsePercent } from "../../../src/normalise/numbers";
import { detailOf, page } from "./support";

/**
 * Detail pages written the way real directories render them and not covered elsewhere:
 * server-rendered React cards in utility-class soup, row-headed tables, code blocks, badges,
 * meta-only descriptions, entities and no-break spaces.
 */

describe("extractDetail on server-rendered card markup", () => {
  it("when stats are utility-class cards with the label above the figure, then each card gives its value", () => {
    const card = (label: string, value: string): string =>
      `<div class="rounded-xl border p-4"><div class="flex items-center gap-2"><p class="text-xs uppercase text-muted-foreground">${label}</p></div><div class="mt-1"><span class="text-2xl font-semibold tabular-nums">${value}</span></div></div>`;
    const html = page(`<main><div class="container mx-auto"><div class="flex flex-col gap-2">
      <h1 class="text-3xl font-bold tracking-tight">Quotely</h1>
      <p class="text-muted-foreground">Real-time FX quotes for autonomous agents.</p></div>
      <div class="grid grid-cols-2 gap-4 md:grid-cols-4">${card("Uptime", "99.95%")}${card("Avg latency", "120&nbsp;ms")}
      ${card("Txns (30d)", "12,408")}${card("Volume (30d)", "$1,234.56")}</div></div></main>`);
    const detail = detailOf(html);
    expect(detail.name).toBe("Quotely");
    expect(detail.description).toBe("Real-time FX quotes for autonomous agents.");
    expect(detail.stats).toEqual({
      uptime30d: "99.95%",
      avgResponse30d: "120 ms",
      txCount30d: "12,408",
      volume30d: "$1,234.56",
    });
  });

  it("when a method badge and a URL sit in separate elements of an endpoint card, then they pair up and the price stays out of the description", () => {
    const endpoint = (method: string, url: string, what: string, price: string): string =>
      `<div class="rounded-lg border p-3"><div class="flex items-center gap-2"><span class="rounded bg-green-100 px-2 text-xs font-bold">${method}</span><span class="font-mono text-sm">${url}</span></div><p class="text-sm">${what}</p><div class="text-xs"><span>${price}</span></div></div>`;
    const html = page(`<main><h1>Geocodr</h1><p>Addresses to coordinates and back.</p>
      <h2>Endpoints</h2><div class="space-y-2">
      ${endpoint("GET", "https://api.geocodr.example/v1/forward", "Forward geocoding", "$0.001 / request")}
      ${endpoint("POST", "https://api.geocodr.example/v1/batch", "Batch geocoding", "0.01 USDC per call")}</div></main>`);
    expect(detailOf(html).endpoints).toEqual([
      { method: "GET", url: "https://api.geocodr.example/v1/forward", description: "Forward geocoding" },
      { method: "POST", url: "https://api.geocodr.example/v1/batch", description: "Batch geocoding" },
    ]);
  });

  it("when an endpoint line ends with its price, then the price is cut from the description", () => {
    const html = page(`<main><h1>Geocodr</h1><h2>Endpoints</h2><ul>
      <li>GET /v1/forward — Forward geocoding · $0.001 per call</li>
      <li>POST /v1/batch — Batch geocoding (Price: 0.05)</li>
      <li>GET /v1/limits — Free tier of 1,000 lookups a day</li></ul></main>`);
    expect(detailOf(html).endpoints).toEqual([
      { method: "GET", url: "/v1/forward", description: "Forward geocoding" },
      { method: "POST", url: "/v1/batch", description: "Batch geocoding" },
      { method: "GET", url: "/v1/limits", description: "Free tier of 1,000 lookups a day" },
    ]);
  });

  it("when an endpoint table has a price column but no description header, then the price is not the endpoint's description", () => {
    const html = page(`<main><h1>Pricefeed</h1><p>Token prices from many exchanges.</p><table>
      <tr><th>Method</th><th>Path</th><th>Price</th></tr>
      <tr><td>GET</td><td><code>/v1/price</code></td><td>$0.0005</td></tr>
      <tr><td>GET</td><td><code>/v1/ohlc</code></td><td>0.002&nbsp;USDC</td></tr></table></main>`);
    expect(detailOf(html).endpoints).toEqual([
      { method: "GET", url: "/v1/price", description: null },
      { method: "GET", url: "/v1/ohlc", description: null },
    ]);
  });
});

describe("extractDetail on tables and code blocks", () => {
  it('when stats are a table with <th scope="row"> labels in other wordings, then each row is read', () => {
    const html = page(`<main><h1>Ledgerly</h1><table class="w-full"><tbody>
      <tr><th scope="row">Availability (30 days)</th><td>99.2&nbsp;%</td></tr>
      <tr><th scope="row">Median response time</th><td>1.2 s</td></tr>
      <tr><th scope="row">Unique buyers</th><td>1,024</td></tr>
      <tr><th scope="row">Paid calls</th><td>48.1K</td></tr>
      <tr><th scope="row">Last refreshed</th><td>2026-11-20</td></tr></tbody></table></main>`);
    expect(detailOf(html).stats).toEqual({
      uptime30d: "99.2 %",
      avgResponse30d: "1.2 s",
      payerCount30d: "1,024",
      txCount30d: "48.1K",
      infoUpdated: "2026-11-20",
    });
  });

  it("when each endpoint is its own <pre><code> block reading 'POST https://…', then each block is one endpoint", () => {
    const html = page(`<main><h1>Mailcannon</h1><p>Transactional e-mail for agents.</p>
      <h2>Usage</h2><pre><code>POST https://api.mailcannon.example/v1/send</code></pre>
      <pre><code>GET https://api.mailcannon.example/v1/status/{id}</code></pre></main>`);
    const detail = detailOf(html);
    expect(detail.endpoints).toEqual([
      { method: "POST", url: "https://api.mailcannon.example/v1/send", description: null },
      { method: "GET", url: "https://api.mailcannon.example/v1/status/{id}", description: null },
    ]);
    expect(detail.description).toBe("Transactional e-mail for agents.");
  });
});

describe("extractDetail on latency percentiles", () => {
  it("when the latency label says p50, then it is read as the median response time", () => {
    const html = page(`<main><h1>Vectorly</h1><dl><dt>Latency (p50)</dt><dd>120 ms</dd></dl></main>`);
    expect(detailOf(html).stats).toEqual({ avgResponse30d: "120 ms" });
  });

  it("when only a p95 or p99 latency is shown, then it is not taken for the average", () => {
    // A tail percentile is several times the typical response; storing it as the average would
    // make the service look slower than it is, so it is left out rather than guessed.
    const html = page(`<main><h1>Vectorly</h1><dl><dt>Latency (p95)</dt><dd>480 ms</dd>
      <dt>p99 latency</dt><dd>900 ms</dd></dl></main>`);
    expect(detailOf(html).stats).toEqual({});
  });

  it("when a label's only other words are a qualifier in brackets, then the qualifier is not taken for its value", () => {
    const html = page(`<main><h1>Vectorly</h1><dl><dt>Uptime (7d)</dt><dd>100%</dd></dl></main>`);
    expect(detailOf(html).stats).toEqual({});
  });

  it("when the percentile is printed inside the value ('p50 120 ms'), then the value reads as a duration", () => {
    const html = page(`<main><h1>Vectorly</h1><div><span>Latency</span><span>p50 120 ms</span></div>
      <div><span>Uptime</span><span>99.95% uptime</span></div></main>`);
    const stats = detailOf(html).stats;
    expect(stats).toEqual({ avgResponse30d: "p50 120 ms", uptime30d: "99.95%" });
    expect(parseDurationMs(stats.avgResponse30d)).toEqual({ kind: "value", value: 120 });
    expect(parsePercent(stats.uptime30d)).toEqual({ kind: "value", value: 99.95 });
  });

  it("when the value names a tail percentile ('p95 480 ms'), then it is reported, not read as the average", () => {
    const html = page(`<main><h1>Vectorly</h1><div><span>Latency</span><span>p95 480 ms</span></div></main>`);
    const stats = detailOf(html).stats;
    expect(stats).toEqual({ avgResponse30d: "p95 480 ms" });
    expect(parseDurationMs(stats.avgResponse30d)).toMatchObject({ kind: "invalid", raw: "p95 480 ms" });
  });
});

describe("extractDetail on meta, entities and unlabelled lists", () => {
  it("when the description is only in og:description, then that is the description", () => {
    const html = page(
      `<main><h1>Snapmeta</h1><div><span>Uptime</span><span>99%</span></div></main>`,
      `<meta property="og:title" content="Snapmeta"><meta property="og:description" content="Open Graph previews &amp; metadata for any URL.">`,
    );
    expect(detailOf(html).description).toBe("Open Graph previews & metadata for any URL.");
  });

  it("when names and descriptions carry entities and no-break spaces, then they read as shown", () => {
    const html = page(`<main><h1>Fast&nbsp;&amp;&nbsp;Furious&#8482; API</h1>
      <p>Quotes for &lt;any&gt; ticker&nbsp;&mdash; updated every second.</p>
      <dl><dt>UPTIME&nbsp;·&nbsp;30D</dt><dd>99.9&#x25;</dd></dl></main>`);
    const detail = detailOf(html);
    expect(detail.name).toBe("Fast & Furious™ API");
    expect(detail.description).toBe("Quotes for <any> ticker — updated every second.");
    expect(detail.stats).toEqual({ uptime30d: "99.9%" });
  });

  it("when tags are a list named 'Tags' by aria-label, then each item is a tag", () => {
    const html = page(`<main><h1>Lingo</h1><p>Translate text between languages.</p>
      <ul class="tags" aria-label="Tags"><li>translation</li><li>nlp</li></ul></main>`);
    expect(detailOf(html).tags).toEqual(["translation", "nlp"]);
  });

  it("when a list of chips has only a class name and no visible label, then no tags are guessed", () => {
    // Nothing a reader sees says these are tags (they could be networks, features or badges);
    // extraction keys on meaning, not class names, so they are left out.
    const html = page(`<main><h1>Lingo</h1><p>Translate text between languages.</p>
      <ul class="tags"><li>translation</li><li>nlp</li></ul></main>`);
    expect(detailOf(html).tags).toEqual([]);
  });
});
