import { Configuration } from "@crawlee/cheerio";
import { MemoryStorage } from "@crawlee/memory-storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OnDemandCheerioCrawler } from "../../../src/sources/html-directory/on-demand-cheerio-crawler";
import { FixtureSite } from "../../support/fixture-site";

describe("OnDemandCheerioCrawler", () => {
  const site = new FixtureSite();
  beforeAll(async () => {
    site.set(
      "/",
      '<html><body><h1>Start</h1><a href="/next">next</a><p class="x">one</p><p class="x">two</p></body></html>',
    );
    site.set("/next", "<html><body><h1>Next page</h1></body></html>");
    await site.start();
  });
  afterAll(() => site.stop());

  const crawler = (handler: ConstructorParameters<typeof OnDemandCheerioCrawler>[0]) =>
    new OnDemandCheerioCrawler(
      { ...handler, useSessionPool: false, maxRequestRetries: 0 },
      new Configuration({
        storageClient: new MemoryStorage({ persistStorage: false }),
        persistStorage: false,
      }),
    );

  it("when a handler uses $, dom or enqueueLinks, then they work as CheerioCrawler's do", async () => {
    const seen: Array<{ url: string; h1: string; paragraphs: string[]; rootName: string; body: string }> = [];
    await crawler({
      async requestHandler({ $, dom, request, body, enqueueLinks }) {
        seen.push({
          url: new URL(request.loadedUrl ?? request.url).pathname,
          h1: $("h1").text(),
          paragraphs: $("p.x")
            .map((_i, el) => $(el).text())
            .get(),
          rootName: String((dom as { type?: string }).type),
          body: String(body),
        });
        await enqueueLinks({ selector: "a" });
      },
    }).run([site.url("/")]);
    expect(seen.map(({ url, h1, paragraphs, rootName }) => ({ url, h1, paragraphs, rootName }))).toEqual([
      { url: "/", h1: "Start", paragraphs: ["one", "two"], rootName: "root" },
      { url: "/next", h1: "Next page", paragraphs: [], rootName: "root" },
    ]);
    expect(seen[0]?.body).toContain("<h1>Start</h1>");
  });
});
