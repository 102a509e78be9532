// `npm run bench`: every benchmark in one run, on loopback, printed as markdown tables (and
// written to bench/results/). Timing goals live here, never in tests.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runAnswerSigningBenchmark } from "./answer-signing";
import { runApiBenchmark } from "./api";
import { runCatalogueMemoryBenchmark } from "./catalogue-memory";
import { runChainActivityBenchmark } from "./chain-activity";
import { runCrawlBenchmark } from "./crawl";
import { runEventsBenchmark } from "./events";
import { runFreshnessBenchmark } from "./freshness";
import { runPagesBenchmark } from "./pages";
import { runPreflightBenchmark } from "./preflight";
import { runProbeBenchmark } from "./probe";
import { runRegistrationsBenchmark } from "./registrations";
import { runScaleBenchmark } from "./scale";
import { runTrustRefreshBenchmark } from "./trust-refresh";
import { runPaidCallsBenchmark } from "./x402-paid";

const sections: string[] = [];
sections.push(await runCrawlBenchmark());
console.log(sections.at(-1));
sections.push((await runApiBenchmark()).markdown);
console.log(sections.at(-1));
sections.push(await runPagesBenchmark());
console.log(sections.at(-1));
sections.push(await runProbeBenchmark());
console.log(sections.at(-1));
sections.push(await runRegistrationsBenchmark());
console.log(sections.at(-1));
sections.push(await runTrustRefreshBenchmark());
console.log(sections.at(-1));
sections.push(await runPreflightBenchmark());
console.log(sections.at(-1));
sections.push(await runEventsBenchmark());
console.log(sections.at(-1));
sections.push(await runAnswerSigningBenchmark());
console.log(sections.at(-1));
sections.push(await runPaidCallsBenchmark());
console.log(sections.at(-1));
// 100,000 logs only standalone (`node --import tsx bench/chain-activity.ts`): see docs/benchmarks.md.
sections.push(await runChainActivityBenchmark(1_000, 10));
console.log(sections.at(-1));
sections.push(await runFreshnessBenchmark());
console.log(sections.at(-1));
sections.push(await runCatalogueMemoryBenchmark());
console.log(sections.at(-1));
// 100,000 services only standalone (`node --import tsx bench/scale.ts`): see docs/benchmarks.md.
sections.push(await runScaleBenchmark([10_000, 30_000]));
console.log(sections.at(-1));

const results = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
await mkdir(results, { recursive: true });
await writeFile(path.join(results, "all.md"), `${sections.join("\n\n")}\n`);
