// The audit of unused indexes: run the tests and benchmarks with INDEX_USAGE_LOG set, then
// `node --import tsx bench/index-usage.ts <that file>` lists every index and how often queries
// used it, summed over every database the run created. An index no query used, which enforces no
// constraint, only costs every write that maintains it.
import { readFile } from "node:fs/promises";
import type { IndexUsage } from "../src/db/index-usage";
import { markdownTable } from "./support";

const file = process.argv[2] ?? process.env.INDEX_USAGE_LOG;
if (!file) throw new Error("usage: bench/index-usage.ts <file written with INDEX_USAGE_LOG>");
const totals = new Map<string, IndexUsage & { databases: number }>();
for (const line of (await readFile(file, "utf8")).split("\n")) {
  if (!line.trim()) continue;
  const row = JSON.parse(line) as IndexUsage;
  const seen = totals.get(row.index) ?? { ...row, scans: 0, databases: 0 };
  seen.scans += row.scans;
  seen.databases += 1;
  totals.set(row.index, seen);
}
const rows = [...totals.values()].sort((a, b) => a.scans - b.scans || a.index.localeCompare(b.index));
console.log(
  markdownTable(
    ["table", "index", "scans", "databases", "enforces a constraint"],
    rows.map((row) => [
      row.table,
      row.index,
      row.scans,
      row.databases,
      row.enforcesConstraint ? "yes" : "no",
    ]),
  ),
);
