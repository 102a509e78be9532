import { extractDetail } from "../../../extract/detail";
import type { LabelAliases } from "../../../extract/labels";
import { extractListing } from "../../../extract/listing";
import { parsePage } from "../../../extract/parse";
import type { ListingPage } from "../../../extract/types";
import {
  type ListingSummary,
  type NormalisedServiceResult,
  normaliseServiceDetail,
} from "../../../normalise/service";

/** One page to read: plain data, so it can cross a worker-thread boundary. */
export type ExtractionTask =
  | { kind: "listing"; html: string; pageUrl: string; aliases: LabelAliases | undefined }
  | {
      kind: "detail";
      html: string;
      pageUrl: string;
      aliases: LabelAliases | undefined;
      listing: ListingSummary;
      /** When the page was read (epoch ms): "updated 3 hours ago" is relative to it. */
      readAt: number;
    };

export type ExtractionResult =
  | { kind: "listing"; page: ListingPage }
  | { kind: "detail"; detail: NormalisedServiceResult };

/** HTML in, extracted listing or normalised service out: pure, the same in a worker or in-process. */
export function runExtraction(task: ExtractionTask): ExtractionResult {
  const $ = parsePage(task.html);
  if (task.kind === "listing") {
    return { kind: "listing", page: extractListing($, task.pageUrl, { aliases: task.aliases }) };
  }
  const raw = extractDetail($, task.pageUrl, { aliases: task.aliases });
  return {
    kind: "detail",
    detail: normaliseServiceDetail(raw, task.pageUrl, task.listing, { now: new Date(task.readAt) }),
  };
}
