import type { IncomingMessage } from "node:http";
import { text } from "node:stream/consumers";
import { CheerioCrawler, type CheerioCrawlingContext, cheerioCrawlerEnqueueLinks } from "@crawlee/cheerio";
import * as cheerio from "cheerio";

/**
 * A CheerioCrawler whose `$` and `dom` are parsed when a handler first uses them. Crawlee 3.18
 * parses every page twice on the crawler's thread (an htmlparser2 DOM, then cheerio) before the
 * handler runs; our handlers send the body to the extraction workers, which parse it there, and
 * never touch `$`: the eager parsing was about a quarter of a full crawl's time. Everything else
 * (enqueueLinks, robots.txt, the context's shape) is CheerioCrawler's own.
 */
export class OnDemandCheerioCrawler extends CheerioCrawler {
  protected override async _parseHTML(
    response: IncomingMessage,
    isXml: boolean,
    context: CheerioCrawlingContext,
  ) {
    const body = await text(response);
    let parsed: cheerio.CheerioAPI | undefined;
    const load = (): cheerio.CheerioAPI => {
      // _useHtmlParser2: as CheerioCrawler parses (parse5 is stricter and worse for scraping).
      parsed ??= cheerio.load(body, { xmlMode: isXml, _useHtmlParser2: true } as cheerio.CheerioOptions);
      return parsed;
    };
    const originalEnqueueLinks = context.enqueueLinks;
    return {
      body,
      $: onDemand<cheerio.CheerioAPI>(load),
      dom: onDemand<cheerio.Document>(() => load().root()[0] as cheerio.Document),
      enqueueLinks: async (options?: Parameters<CheerioCrawlingContext["enqueueLinks"]>[0]) =>
        cheerioCrawlerEnqueueLinks({
          options,
          $: load(),
          requestQueue: await this.getRequestQueue(),
          robotsTxtFile: await this.getRobotsTxtFileForUrl(context.request.url),
          onSkippedRequest: this.handleSkippedRequest,
          originalRequestUrl: context.request.url,
          finalRequestUrl: context.request.loadedUrl,
          enqueueLinks: originalEnqueueLinks,
        }),
    };
  }
}

/**
 * Stands for the value `make` returns, made on first use: calling it (`$("h1")`) or reading any
 * property (`$.root`, `dom.children`) makes it. A function target, so that calls can be trapped.
 */
function onDemand<T extends object>(make: () => T): T {
  let value: T | undefined;
  const target = () => {
    value ??= make();
    return value;
  };
  return new Proxy(function onDemandValue() {}, {
    apply: (_fn, thisArg, args) =>
      Reflect.apply(target() as unknown as (...a: unknown[]) => unknown, thisArg, args),
    get: (_fn, key) => Reflect.get(target(), key),
    has: (_fn, key) => Reflect.has(target(), key),
  }) as unknown as T;
}
