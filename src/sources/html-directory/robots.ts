import { RobotsTxtFile } from "@crawlee/utils";
import type { CrawlSettings } from "../../crawl-run/settings";

/**
 * robots.txt rules for requests sent outside Crawlee's queue (revalidation batches); Crawlee checks
 * the ones it enqueues. Same rules as Crawlee's: one robots.txt per origin, read once per crawl,
 * matched against our User-Agent, and an unreadable robots.txt allows everything.
 */
export function robotsRules(settings: CrawlSettings): (url: string) => Promise<boolean> {
  if (!settings.respectRobotsTxt) return async () => true;
  const files = new Map<string, Promise<RobotsTxtFile | null>>();
  return async (url) => {
    const origin = new URL(url).origin;
    let file = files.get(origin);
    if (!file) {
      file = RobotsTxtFile.find(url).catch(() => null);
      files.set(origin, file);
    }
    return (await file)?.isAllowed(url, settings.userAgent) ?? true;
  };
}
