// Crawl benchmark: a generated 10,000-service directory on 127.0.0.1; a bare Crawlee
// fetch-and-parse of the same pages (the limit), our full crawl, and our unchanged re-crawl.
// Standalone: `node --import tsx bench/crawl.ts [services] [concurrency]`.
import { CheerioCrawler, Configuration } from "@crawlee/cheerio";
import { MemoryStorage } from "@crawlee/memory-storage";
import { crawlDirectory } from "../src/sources/html-directory/crawl-directory";
import { identifyCrawler } from "../src/sources/html-directory/http-hooks";
import { benchCrawlSettings } from "./crawl-settings";
import { benchDatabase, benchLogger, markdownTable, startHelperProcess } from "./support";

interface Row {
  run: string;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  note: string;
}

/**
 * The limit: Crawlee fetching and cheerio-parsing the same pages, doing nothing else. It sends
 * requests exactly as our crawler does (same hook: own User-Agent, no generated browser headers),
 * so the comparison measures what extraction, normalisation and storage add.
 */
async function bareCrawl(origin: string, listingPath: string, concurrency: number): Promise<number> {
  let pages = 0;
  const crawler = new CheerioCrawler(
    {
      preNavigationHooks: [identifyCrawler(benchCrawlSettings(concurrency))],
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      useSessionPool: false,
      persistCookiesPerSession: false,
      statusMessageLoggingInterval: 3600,
      async requestHandler({ $, enqueueLinks, request }) {
        pages += 1;
        if (request.label === "DETAIL") {
          $("h1").text();
          return;
        }
        await enqueueLinks({ selector: 'a[href^="/services/"]', label: "DETAIL" });
        await enqueueLinks({ selector: 'a[rel="next"]', label: "LISTING" });
      },
    },
    new Configuration({ storageClient: new MemoryStorage({ persistStorage: false }), persistStorage: false }),
  );
  crawler.log.setLevel(crawler.log.LEVELS.WARNING);
  await crawler.run([{ url: `${origin}${listingPath}`, label: "LISTING" }]);
  return pages;
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - started) / 1000 };
}

export async function runCrawlBenchmark(services = 10_000, concurrency = 16): Promise<string> {
  const { info, child } = await startHelperProcess<{ port: number; listing: string }>(
    "bench/directory-server.ts",
    [String(services), "dl"],
  );
  const origin = `http://127.0.0.1:${info.port}`;
  const database = await benchDatabase();
  try {
    const rows: Row[] = [];
    // Warm the server's page cache so every measured run sees the same server.
    await bareCrawl(origin, info.listing, concurrency);

    const bare = await timed(() => bareCrawl(origin, info.listing, concurrency));
    rows.push({
      run: "bare Crawlee fetch + parse (limit)",
      pages: bare.result,
      seconds: bare.seconds,
      pagesPerSecond: 0,
      note: "",
    });

    const deps = {
      db: database.db,
      databaseUrl: database.url,
      logger: benchLogger,
      settings: benchCrawlSettings(concurrency),
    };
    const crawlOf = async (label: string) => {
      const run = await timed(() =>
        crawlDirectory(deps, { url: `${origin}${info.listing}`, trigger: "manual" }),
      );
      if (run.result.status !== "completed") throw new Error(`${label} ended ${run.result.status}`);
      const c = run.result.counts;
      rows.push({
        run: label,
        pages: c.pagesFetched + c.pagesUnchanged + c.pagesFailed,
        seconds: run.seconds,
        pagesPerSecond: 0,
        note: `${c.servicesNew} new, ${c.servicesUpdated} updated, ${c.servicesUnchanged} unchanged; ${c.pagesUnchanged} pages unchanged`,
      });
    };
    await crawlOf("full crawl (extract, normalise, store)");
    await crawlOf("unchanged re-crawl");

    for (const row of rows) row.pagesPerSecond = row.pages / row.seconds;
    const [limit, full, again] = rows as [Row, Row, Row];
    const table = markdownTable(
      ["run", "pages", "seconds", "pages/s", "notes"],
      rows.map((r) => [r.run, r.pages, r.seconds.toFixed(1), r.pagesPerSecond.toFixed(0), r.note]),
    );
    const verdict = [
      `full crawl rate = ${((full.pagesPerSecond / limit.pagesPerSecond) * 100).toFixed(0)}% of bare (target ≥ 80%), ${full.seconds.toFixed(1)} s (target ≤ 60 s)`,
      `unchanged re-crawl time = ${((again.seconds / full.seconds) * 100).toFixed(0)}% of full crawl (target ≤ 30%)`,
    ].join("\n");
    return `### Crawl: ${services} services, concurrency ${concurrency}\n\n${table}\n\n${verdict}\n`;
  } finally {
    child.kill();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runCrawlBenchmark(Number(process.argv[2] ?? 10_000), Number(process.argv[3] ?? 16));
  console.log(report);
}
