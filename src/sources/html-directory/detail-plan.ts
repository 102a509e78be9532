/**
 * Which detail pages one run visits. Every run reads the whole listing (that alone decides what
 * is listed and delisted); detail pages share what is left of the run's request budget: pages
 * never read first (new services, and services known only from a listing), then known pages by
 * how long ago they were last checked, oldest first. The rest wait for a later run, so at a
 * catalogue too large for one interval every page is still revisited in turn.
 */

export interface DetailCandidate {
  detailUrl: string;
  /** We hold validators from an earlier read: a conditional GET revalidates it. */
  revalidatable: boolean;
  /** When the page was last fetched or revalidated (ms); null when never. */
  checkedAt: number | null;
}

export interface DetailPlan {
  /** Pages to fetch in full (never read, or no validators). */
  fetch: string[];
  /** Known pages to revalidate with a conditional GET, oldest check first. */
  revalidate: string[];
  /** Pages left for a later run. */
  deferred: string[];
}

export function planDetailPages(candidates: DetailCandidate[], budget: number): DetailPlan {
  const neverChecked = (c: DetailCandidate) => !c.revalidatable || c.checkedAt === null;
  // Array.prototype.sort is stable: equal ages keep the listing's order.
  const ordered = [
    ...candidates.filter(neverChecked),
    ...candidates.filter((c) => !neverChecked(c)).sort((a, b) => (a.checkedAt ?? 0) - (b.checkedAt ?? 0)),
  ];
  const taken = ordered.slice(0, Math.max(0, budget));
  return {
    fetch: taken.filter((c) => !c.revalidatable).map((c) => c.detailUrl),
    revalidate: taken.filter((c) => c.revalidatable).map((c) => c.detailUrl),
    deferred: ordered.slice(taken.length).map((c) => c.detailUrl),
  };
}

/**
 * Detail requests a run may send: its time budget at the request-rate ceiling, less the listing
 * pages it already requested (retries and robots.txt are not counted: the budget is a plan).
 */
export function detailBudget(runMinutes: number, requestsPerMinute: number, listingPages: number): number {
  return Math.max(0, Math.floor(runMinutes * requestsPerMinute) - listingPages);
}
