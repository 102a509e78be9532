import { Log, Logger, LogLevel } from "@crawlee/http";
import type { Logger as Pino } from "../../logging/logger";
import { describeFetchFailure } from "./fetch-failure";

type Level = "error" | "warn" | "info" | "debug";

const LEVELS: Record<number, Level> = {
  [LogLevel.ERROR]: "error",
  [LogLevel.SOFT_FAIL]: "warn",
  [LogLevel.WARNING]: "warn",
  [LogLevel.INFO]: "debug", // Crawlee's own info chatter; our progress lines are the info level
  [LogLevel.DEBUG]: "debug",
  [LogLevel.PERF]: "debug",
};

/**
 * What an operator should read instead of Crawlee's own wording, or null to drop a line that only
 * misleads. Every page's failure and retry is already counted and recorded by the crawl (its run,
 * GET /v1/crawls, the summary line), so Crawlee's per-request warnings go to debug.
 */
export function translateCrawleeLine(
  level: Level,
  message: string,
): { level: Level; message: string } | null {
  // Crawlee's own Ctrl-C handler: there is no resume, and our shutdown logs the stop.
  if (message.startsWith("Pausing... Press CTRL+C again")) return null;
  const retry = /^Reclaiming failed request back to the list or queue\.\s*([\s\S]*)/.exec(message);
  if (retry) return { level: "debug", message: `retrying a page: ${describeFetchFailure(retry[1] ?? "")}` };
  const failed = /^Request failed and reached maximum retries\.\s*([\s\S]*)/.exec(message);
  if (failed)
    return {
      level: "debug",
      message: `a page failed after its retries: ${describeFetchFailure(failed[1] ?? "")}`,
    };
  if (message.startsWith("Failed to fetch robots.txt"))
    return { level: "debug", message: "robots.txt could not be read: every page is allowed" };
  return { level, message: /^\d{3} - /.test(message) ? describeFetchFailure(message) : message };
}

/** Routes Crawlee's logging into our structured pino log instead of its own text format. */
class PinoBridge extends Logger {
  constructor(private readonly pino: Pino) {
    super({});
  }

  override _log(level: LogLevel, message: string, data?: Record<string, unknown>, exception?: unknown): void {
    const line = translateCrawleeLine(LEVELS[level] ?? "debug", message);
    if (line) this.pino[line.level]({ ...data, ...(exception ? { err: exception } : {}) }, line.message);
  }
}

export function crawleeLog(pino: Pino): Log {
  return new Log({ level: LogLevel.INFO, logger: new PinoBridge(pino.child({ component: "crawlee" })) });
}
