import type { ListingEntry } from "../../extract/types";

/** Route labels: one request handler per kind of page. */
export const LISTING = "LISTING";
export const DETAIL = "DETAIL";

export interface DetailUserData {
  /** Canonical detail URL: the service's identity within its source. */
  detailUrl: string;
  entry: ListingEntry;
}
