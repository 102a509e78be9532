import { nextOffsets } from "./pagination";
import type { BazaarPagination } from "./types";

/**
 * The offsets still to fetch after the first page, and every reason the walk cannot count as
 * complete. A walk is complete only when it read everything the feed said it holds, in one
 * consistent state: only then may missing items be delisted.
 *
 * Offset paging over a live list shifts items when the list changes mid-walk (an item can slip
 * between two pages), so a changed total makes the walk incomplete; the plan still grows with
 * the total so new items are stored.
 */
export class PagePlan {
  private readonly pending: number[];
  private readonly step: number;
  private plannedTotal: number;
  private lastPlanned: number;
  private taken = 0;
  /**
   * Most pages this walk reads: the guard, or as many as the first page's stated total needs. A
   * feed's own count is followed to its end; the guard stops only a total that keeps growing.
   */
  private readonly allowedPages: number;
  private emptyAt: number | null = null;
  private changed = false;
  /** The first offset the guard refused to plan, or null while nothing was cut. */
  firstUnplanned: number | null = null;
  /** A set: a feed that keeps changing should not repeat the same reason per page. */
  private readonly problems = new Set<string>();

  constructor(
    first: BazaarPagination,
    received: number,
    private readonly maxPages: number,
  ) {
    const offsets = nextOffsets(first, received);
    this.step = received > 0 ? Math.min(first.limit, received) : first.limit;
    this.plannedTotal = first.total;
    this.lastPlanned = first.offset;
    this.pending = [];
    this.allowedPages = Math.max(maxPages, 1 + offsets.length);
    this.add(offsets);
  }

  /** Pages the walk will have read when the plan is done, first page included. */
  get pageCount(): number {
    return 1 + this.taken + this.pending.length;
  }

  /** The next offset to fetch, or null when the walk is over. */
  take(): number | null {
    const offset = this.pending[0];
    if (offset === undefined || (this.emptyAt !== null && offset > this.emptyAt)) return null;
    this.pending.shift();
    this.taken += 1;
    return offset;
  }

  /** What a later page said about itself. */
  observe(requestedOffset: number, received: number, pagination: BazaarPagination | null): void {
    if (pagination !== null && pagination.offset !== requestedOffset) {
      this.problems.add(`the feed answered offset ${pagination.offset} when asked for ${requestedOffset}`);
    }
    if (pagination !== null && pagination.total !== this.plannedTotal) {
      if (!this.changed)
        this.problems.add(
          `the feed changed during the walk (total ${this.plannedTotal} → ${pagination.total})`,
        );
      this.changed = true;
      const grew = pagination.total > this.plannedTotal;
      this.plannedTotal = pagination.total;
      if (grew)
        this.add(nextOffsets({ limit: this.step, offset: this.lastPlanned, total: this.plannedTotal }));
    }
    if (received === 0 && requestedOffset < this.plannedTotal) {
      // Later offsets would be empty too; asking for them only costs the feed requests.
      this.emptyAt = Math.min(this.emptyAt ?? requestedOffset, requestedOffset);
      this.problems.add(
        `the page at offset ${requestedOffset} was empty, though the feed states ${this.plannedTotal} items`,
      );
    }
  }

  /** Why the walk is not complete (beyond pages that failed, which the walker counts). */
  incompleteReasons(): string[] {
    return [...this.problems];
  }

  private add(offsets: number[]): void {
    const room = this.allowedPages - this.pageCount;
    if (offsets.length > room) {
      this.problems.add(
        `the feed's total grew to ${this.plannedTotal} items during the walk, more than ${this.allowedPages} pages of ${this.step} ` +
          `(the first page's count, or CRAWL_MAX_LISTING_PAGES=${this.maxPages} if larger)`,
      );
    }
    const kept = offsets.slice(0, Math.max(0, room));
    if (offsets.length > kept.length) this.firstUnplanned ??= offsets[kept.length] ?? null;
    this.pending.push(...kept);
    const last = kept.at(-1);
    if (last !== undefined) this.lastPlanned = last;
  }
}
