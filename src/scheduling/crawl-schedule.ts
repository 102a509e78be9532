import { Cron } from "croner";
import type { Logger } from "../logging/logger";

export interface ScheduledJob {
  /** Stops future runs, aborts the one in flight and waits for it to end. */
  stop(): Promise<void>;
  nextRun(): Date | null;
}

/**
 * Runs `work` on a cron schedule (UTC). Overlapping runs in this process are skipped by croner's
 * protection; across processes, each crawl takes its source's advisory lock.
 */
export function scheduleJob(
  name: string,
  expression: string,
  work: (signal: AbortSignal) => Promise<void>,
  logger: Logger,
): ScheduledJob {
  const controller = new AbortController();
  let running: Promise<void> | null = null;
  const job = new Cron(
    expression,
    {
      timezone: "UTC",
      protect: () => logger.warn({ job: name }, "previous run still going; skipping this tick"),
    },
    () => {
      running = work(controller.signal)
        .catch((err: unknown) => logger.error({ err, job: name }, "scheduled job failed"))
        .finally(() => {
          running = null;
        });
      return running;
    },
  );
  logger.info({ job: name, schedule: expression, nextRun: job.nextRun()?.toISOString() }, "job scheduled");
  return {
    nextRun: () => job.nextRun(),
    async stop() {
      job.stop();
      controller.abort();
      await running;
    },
  };
}
