/** The pure extraction layer: HTML in (as a cheerio document), raw text fields out. */
export { extractDetail } from "./detail";
export {
  classifyLabel,
  type ExtractOptions,
  type LabelAliases,
  type LabelField,
  STAT_FIELDS,
} from "./labels";
export { extractListing } from "./listing";
export { parsePage } from "./parse";
export type { ListingEntry, ListingPage, RawEndpoint, RawServiceDetail, StatField } from "./types";
