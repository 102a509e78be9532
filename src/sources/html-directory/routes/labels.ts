/** Route labels: one request handler per kind of page. */
export const LISTING = "LISTING";
export const DETAIL = "DETAIL";
/** A batch of known detail pages to revalidate with conditional GETs (no navigation of its own). */
export const REVALIDATE = "REVALIDATE";

export interface DetailUserData {
  /**
   * Canonical detail URL: the service's identity within its source. What the listing said about
   * it is in the session (`listed`), not here: Crawlee's in-memory queue keeps every request.
   */
  detailUrl: string;
}

export interface RevalidateUserData {
  pages: DetailUserData[];
}
