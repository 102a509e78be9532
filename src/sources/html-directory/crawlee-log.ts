import { Log, Logger, LogLevel } from "@crawlee/http";
import type { Logger as Pino } from "../../logging/logger";

const LEVELS: Record<number, "error" | "warn" | "info" | "debug"> = {
  [LogLevel.ERROR]: "error",
  [LogLevel.SOFT_FAIL]: "warn",
  [LogLevel.WARNING]: "warn",
  [LogLevel.INFO]: "debug", // Crawlee's own info chatter; our progress lines are the info level
  [LogLevel.DEBUG]: "debug",
  [LogLevel.PERF]: "debug",
};

/** Routes Crawlee's logging into our structured pino log instead of its own text format. */
class PinoBridge extends Logger {
  constructor(private readonly pino: Pino) {
    super({});
  }

  override _log(level: LogLevel, message: string, data?: Record<string, unknown>, exception?: unknown): void {
    const method = LEVELS[level] ?? "debug";
    this.pino[method]({ ...data, ...(exception ? { err: exception } : {}) }, message);
  }
}

export function crawleeLog(pino: Pino): Log {
  return new Log({ level: LogLevel.INFO, logger: new PinoBridge(pino.child({ component: "crawlee" })) });
}
