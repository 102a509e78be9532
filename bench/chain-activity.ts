// Chain activity: a backfill of every watched pay_to's USDC Transfer logs from a local chain,
// the figures and flags of every service, then one incremental round over 1,000 new blocks,
// measured in a process on the heap `npm run worker` gives the readers (package.json).
// Standalone: `node --import tsx bench/chain-activity.ts [addresses] [transfers per address]`.
import { ActivityWatcher } from "../src/activity/activity-watcher";
import { refreshActivity } from "../src/activity/refresh-activity";
import { TransferLogReader } from "../src/chain/transfer-logs";
import { activityChain, BASE } from "../test/support/activity";
import { watchedAddress } from "./chain-activity-addresses";
import {
  benchDatabase,
  benchLogger,
  heapFlags,
  MEASURING_HERE,
  markdownTable,
  measureWithHeapOf,
  peakMemoryGrowthMb,
  startHelperProcess,
} from "./support";

const ENDPOINTS_PER_SERVICE = 10;
const INCREMENTAL_BLOCKS = 1_000;

/** Mines `blocks` empty blocks on the local chain (ganache's evm_mine). */
async function mineBlocks(rpcUrl: string, blocks: number): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [{ blocks }] }),
  });
  if (!response.ok) throw new Error(`evm_mine answered ${response.status}`);
}

/** The benchmark, run in this process on the heap it has. */
async function measureChainActivity(addresses: number, rounds: number): Promise<string> {
  const started = Date.now();
  const { info, child } = await startHelperProcess<{ rpcUrl: string; usdc: string; head: string }>(
    "bench/activity-chain.ts",
    [String(addresses), String(rounds)],
  );
  const chainSeconds = (Date.now() - started) / 1000;
  const database = await benchDatabase();
  try {
    const { db } = database;
    // One source, addresses / 10 services of 10 endpoints, one pay_to per endpoint.
    await db.$executeRaw`INSERT INTO sources (id, kind, base_url, updated_at)
      VALUES ('00000000-0000-4000-8000-000000000001', 'html_directory', 'https://bench.test/', now())`;
    const services = Math.ceil(addresses / ENDPOINTS_PER_SERVICE);
    await db.$executeRaw`INSERT INTO services (id, source_id, detail_url, name, first_seen_at, last_seen_at, updated_at)
      SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001', 'https://bench.test/s/' || i, 'S' || i,
        now(), now(), now() FROM generate_series(0, ${services - 1}) i`;
    await db.$executeRaw`INSERT INTO endpoints (id, service_id, position, method, url, updated_at)
      SELECT gen_random_uuid(), s.id, p, 'GET', s.detail_url || '/' || p, now()
      FROM services s, generate_series(0, ${ENDPOINTS_PER_SERVICE - 1}) p`;
    const all = Array.from({ length: addresses }, (_, i) => watchedAddress(i));
    await db.$executeRaw`INSERT INTO payment_options (id, endpoint_id, origin, position, network, pay_to, warnings,
        observed_at, updated_at)
      SELECT gen_random_uuid(), e.id, 'listing', 0, ${BASE}, a.address, '{}', now(), now()
      FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM endpoints) e
      JOIN unnest(${all}::text[]) WITH ORDINALITY AS a(address, n) ON a.n - 1 = e.n`;

    const settings = activityChain(info.rpcUrl, info.usdc, { confirmations: 1 });
    settings.limits = {
      ...settings.limits,
      maxBlockRange: 2_000,
      addressesPerRequest: 500,
      requestsPerSecond: 1_000,
      timeoutMs: 300_000,
    };
    const reader = new TransferLogReader(settings.rpcUrl, settings.usdcContract, settings.limits);
    const watcher = new ActivityWatcher(db, settings, reader, benchLogger);
    const backfillStart = Date.now();
    const backfill = await peakMemoryGrowthMb(() => watcher.catchUp());
    const backfillSeconds = (Date.now() - backfillStart) / 1000;
    const stored = await db.activityTransfer.count();
    const figuresStart = Date.now();
    const figures = await peakMemoryGrowthMb(() => refreshActivity(db, [BASE]));
    const figuresSeconds = (Date.now() - figuresStart) / 1000;
    await mineBlocks(info.rpcUrl, INCREMENTAL_BLOCKS);
    const backfillRequests = reader.requests;
    const incrementalStart = Date.now();
    const incremental = await peakMemoryGrowthMb(async () => {
      await watcher.catchUp();
      return refreshActivity(db, [BASE]);
    });
    const incrementalSeconds = (Date.now() - incrementalStart) / 1000;
    // The process's own peak (the chain and Postgres run in other processes); maxRSS is in KiB.
    const peakRss = process.resourceUsage().maxRSS / 1024;
    return [
      `## Chain activity`,
      "",
      `\`node --import tsx bench/chain-activity.ts ${addresses} ${rounds}\`: ${addresses.toLocaleString("en")} watched pay_tos,`,
      `${rounds} transfers each (${(addresses * rounds).toLocaleString("en")} Transfer logs in ${info.head} blocks, ganache in its own process,`,
      `${chainSeconds.toFixed(0)} s to build); topic lists of ${settings.limits.addressesPerRequest}, ranges of up to ${settings.limits.maxBlockRange} blocks.`,
      "",
      markdownTable(
        ["step", "time", "RPC requests", "rows", "peak RSS growth", "peak heap growth"],
        [
          [
            "backfill (read + store)",
            `${backfillSeconds.toFixed(1)} s`,
            backfillRequests,
            stored,
            `${backfill.rssMb.toFixed(0)} MB`,
            `${backfill.heapMb.toFixed(0)} MB`,
          ],
          [
            "figures and flags of every service",
            `${figuresSeconds.toFixed(1)} s`,
            0,
            await db.serviceActivity.count(),
            `${figures.rssMb.toFixed(0)} MB`,
            `${figures.heapMb.toFixed(0)} MB`,
          ],
          [
            `incremental round: ${INCREMENTAL_BLOCKS.toLocaleString("en")} new blocks, then figures`,
            `${incrementalSeconds.toFixed(1)} s`,
            reader.requests - backfillRequests,
            await db.activityTransfer.count(),
            `${incremental.rssMb.toFixed(0)} MB`,
            `${incremental.heapMb.toFixed(0)} MB`,
          ],
        ],
      ),
      "",
      `Peak RSS of the reading process (\`node ${heapFlags(process.execArgv).join(" ")}\`, all steps, absolute): ${peakRss.toFixed(0)} MB.`,
    ].join("\n");
  } finally {
    child.kill();
    await database.close();
  }
}

/** The benchmark in a process of its own, started with `npm run worker`'s heap flags; resolves with its table. */
export function runChainActivityBenchmark(addresses = 10_000, rounds = 10): Promise<string> {
  return measureWithHeapOf("worker", "bench/chain-activity.ts", [String(addresses), String(rounds)]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [addresses, rounds] = process.argv.slice(2).map(Number);
  console.log(
    MEASURING_HERE
      ? await measureChainActivity(addresses || 10_000, rounds || 10)
      : await runChainActivityBenchmark(addresses || undefined, rounds || undefined),
  );
}
