// CPU time of other processes, from /proc (Linux); null elsewhere.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** pid → [ppid, utime + stime + cutime + cstime in ticks]. */
function processTable(): Map<number, [number, number]> {
  const table = new Map<number, [number, number]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
      table.set(Number(entry), [Number(fields[1]), ticks]);
    } catch {
      // the process ended while we looked
    }
  }
  return table;
}

/** CPU seconds of `root`'s descendants (the embedded Postgres and its backends), minus the trees of `skip`. */
export function descendantCpuSeconds(root: number, skip: readonly number[]): number | null {
  if (!process.platform.startsWith("linux")) return null;
  const table = processTable();
  let ticks = 0;
  const under = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = table.get(p)?.[0] ?? 0, hops++) {
      if (skip.includes(p)) return false;
      if (p === root) return true;
    }
    return false;
  };
  for (const [pid, [, t]] of table) if (pid !== root && under(pid)) ticks += t;
  return ticks / ticksPerSecond;
}

export function processCpuSeconds(pid: number): number | null {
  if (!process.platform.startsWith("linux")) return null;
  const entry = processTable().get(pid);
  return entry === undefined ? null : entry[1] / ticksPerSecond;
}
