// Crawl memory: peak resident memory of the crawl process at catalogue scale. A
// generated directory (dl markup, 50 services a listing page) on 127.0.0.1 in its own process,
// an embedded Postgres, and each crawl in a fresh process of its own (as `npm run crawl` runs),
// which reports its peak RSS (getrusage maxrss: threads and native memory included).
// Standalone: `node --import tsx bench/crawl-memory.ts [services] [concurrency]`.
import { spawn } from "node:child_process";
import { benchDatabase, markdownTable, npmScriptHeapFlags, startHelperProcess } from "./support";

interface CrawlReport {
  status: string;
  seconds: number;
  peakRssMb: number;
  peakHeapMb: number;
  note: string;
}

function crawlInChild(databaseUrl: string, listingUrl: string, concurrency: number): Promise<CrawlReport> {
  const child = spawn(
    process.execPath,
    [
      ...npmScriptHeapFlags("crawl"),
      "--import",
      "tsx",
      "bench/crawl-memory-child.ts",
      databaseUrl,
      listingUrl,
      String(concurrency),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0) reject(new Error(`crawl child exited with ${code}: ${out}`));
      else resolve(JSON.parse(line) as CrawlReport);
    });
  });
}

export async function runCrawlMemoryBenchmark(services = 10_000, concurrency = 16): Promise<string> {
  const { info, child } = await startHelperProcess<{ port: number; listing: string }>(
    "bench/directory-server.ts",
    [String(services), "dl"],
  );
  const listingUrl = `http://127.0.0.1:${info.port}${info.listing}`;
  const database = await benchDatabase();
  try {
    const full = await crawlInChild(database.url, listingUrl, concurrency);
    const again = await crawlInChild(database.url, listingUrl, concurrency);
    const table = markdownTable(
      ["run", "status", "seconds", "peak RSS (MB)", "peak main heap (MB)", "notes"],
      (
        [
          ["full crawl", full],
          ["unchanged re-crawl", again],
        ] as const
      ).map(([run, report]) => [
        run,
        report.status,
        report.seconds.toFixed(1),
        report.peakRssMb.toFixed(0),
        report.peakHeapMb.toFixed(0),
        report.note,
      ]),
    );
    return `### Crawl memory: ${services} services, concurrency ${concurrency}\n\n${table}\n`;
  } finally {
    child.kill();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await runCrawlMemoryBenchmark(Number(process.argv[2] ?? 10_000), Number(process.argv[3] ?? 16)),
  );
}
