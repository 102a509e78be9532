import type { CrawlOutcome } from "./outcome";

/**
 * Exit codes of `npm run crawl`, for cron and Kubernetes CronJobs:
 * 0 completed (some detail pages may have failed) or skipped because another crawl runs;
 * 1 the listing could not be read; 3 partial (some listing pages failed, nothing delisted);
 * 130 aborted by a signal.
 */
export function crawlExitCode(outcome: CrawlOutcome): number {
  switch (outcome.status) {
    case "completed":
    case "skipped":
      return 0;
    case "partial":
      return 3;
    case "aborted":
      return 130;
    default:
      return 1;
  }
}

/** Several crawls in one command: the most serious outcome decides (aborted, failed, partial, fine). */
export function combinedExitCode(codes: number[]): number {
  for (const serious of [130, 1, 3]) if (codes.includes(serious)) return serious;
  return codes.find((code) => code !== 0) ?? 0;
}
