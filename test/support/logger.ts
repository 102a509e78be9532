import { Writable } from "node:stream";
import { createLogger, type Logger } from "../../src/logging/logger";

/** Quiet logs in tests; set TEST_LOG_LEVEL=debug to watch them. */
export const testLogger = createLogger(process.env.TEST_LOG_LEVEL ?? "silent", false);

/** A logger at debug level whose lines (level, message) the test reads. */
export function recordingLogger(): { lines: Array<{ level: number; msg: string }>; logger: Logger } {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = createLogger(
    "debug",
    false,
    new Writable({
      write(line: Buffer, _encoding, done) {
        lines.push(JSON.parse(line.toString()) as { level: number; msg: string });
        done();
      },
    }),
  );
  return { lines, logger };
}
