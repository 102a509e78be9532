import type { Response } from "express";
import type { Paging } from "../catalogue/paging";
import type { CatalogueSerialisers, Listing, QueryReading } from "../search/catalogue-search";
import { sendJsonParts } from "./responses";
import { endpointHitJsonParts, queryReadingJson, serviceJson } from "./serialisers";

/** How the in-memory catalogue serialises its items: the API's own serialisers. */
export const catalogueSerialisers: CatalogueSerialisers = {
  service: (record) => JSON.stringify(serviceJson(record)),
  endpoint: endpointHitJsonParts,
};

/**
 * Sends a page of the loaded catalogue as the list body `{ items, has_more, total }` (plus `query`, how q
 * was read, for a search), assembled from the items' UTF-8 JSON (copying bytes: no text is joined
 * or encoded per request). The body is a function of the loaded catalogue (its snapshot), the page's
 * fingerprint and the reading, so the ETag hashes those few bytes rather than the ~70 KB body.
 */
export function sendListing(
  res: Response,
  snapshot: string,
  listing: Listing,
  paging: Paging,
  reading?: QueryReading,
  hint?: string,
): void {
  const hasMore = paging.offset + listing.items.length < listing.total;
  const parts: Buffer[] = [ITEMS_OPEN];
  listing.items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(...item);
  });
  const query = reading === undefined ? "" : `,"query":${JSON.stringify(queryReadingJson(reading))}`;
  const hinted = hint === undefined ? "" : `,"hint":${JSON.stringify(hint)}`;
  parts.push(Buffer.from(`],"has_more":${hasMore},"total":${listing.total}${query}${hinted}}`));
  sendJsonParts(
    res,
    parts,
    `${snapshot}|${listing.total}|${hasMore}|${listing.fingerprint}${query}${hinted}`,
  );
}

/**
 * A hint for an answer with nothing in it that a filter's default emptied: max_price drops entries
 * with no known price (an HTML directory's services until a probe reads their challenge) unless
 * include_unpriced=true. Undefined when the answer has entries or no such default applied.
 */
export function emptyAnswerHint(
  filters: { maxPrice?: string; includeUnpriced?: boolean },
  total: number,
): string | undefined {
  if (total > 0 || filters.maxPrice === undefined || filters.includeUnpriced === true) return undefined;
  return "max_price hides entries with no known price: add include_unpriced=true to see them";
}

const ITEMS_OPEN = Buffer.from('{"items":[');
const COMMA = Buffer.from(",");
