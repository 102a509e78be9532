import type { BazaarPagination } from "./types";

/**
 * Offsets of every page after the given one, up to `total`, so a crawler can walk the whole
 * feed instead of stopping at the first page.
 *
 * `received` is how many items the page actually held (parsed items plus problems). A server
 * that caps the page size below the requested `limit` may still echo the requested limit;
 * stepping by that would silently skip items, so the smaller of the two is used.
 */
export function nextOffsets(pagination: BazaarPagination, received?: number): number[] {
  const { limit, offset, total } = pagination;
  const step = received !== undefined && received > 0 ? Math.min(limit, received) : limit;
  if (!Number.isInteger(step) || step <= 0) return [];
  const offsets: number[] = [];
  for (let next = offset + step; next < total; next += step) offsets.push(next);
  return offsets;
}
