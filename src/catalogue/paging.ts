/** Offset paging, as the merchant API pages its lists. */
export interface Paging {
  offset: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  total: number;
}

/**
 * A page with its total. A short page already tells the total (offset + its length), so the
 * count query runs only for a full page or one past the end; counting apart from the page query
 * (rather than with count(*) OVER ()) also lets an index give the page without reading every row.
 */
export async function completePage<T>(
  items: T[],
  paging: Paging,
  countAll: () => Promise<number>,
  /** The total when the page query counted it already (count(*) OVER () on a non-empty page). */
  counted?: number,
): Promise<Page<T>> {
  const totalKnown = items.length < paging.limit && (items.length > 0 || paging.offset === 0);
  const total = counted ?? (totalKnown ? paging.offset + items.length : await countAll());
  return { items, total, hasMore: paging.offset + items.length < total };
}
