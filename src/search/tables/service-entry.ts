import type { SortKey } from "../../catalogue/service-queries";
import type { Grade } from "../../trust/grade";
import type { Health } from "../../trust/health";
import type { Warning } from "../../trust/warnings";
import type { Amount } from "./amounts";

/**
 * What the in-memory services list keeps of one catalogue entry (its primary row): what its filters
 * and sorts read. The list item itself is read from Postgres per page (catalogue-items.ts).
 */

/** One payment option of the entry, its text fields lower-cased for case-insensitive filters. */
export interface PaymentFacet {
  network: string | null;
  networkName: string | null;
  asset: string | null;
  assetSymbol: string | null;
  price: Amount | null;
  payTo: string | null;
}

export interface ServiceEntry {
  /** The id the API shows (ties in every sort are broken by it). */
  id: string;
  /** The primary row's id: what SQL reads the entry's row by (the CSV export). */
  rowId: string;
  status: "listed" | "delisted";
  /** Lower-cased. */
  category: string | null;
  domain: string | null;
  uptime30d: number | null;
  avgResponseMs30d: number | null;
  volume: Amount | null;
  txCount30d: number | null;
  payerCount30d: number | null;
  /** Epoch milliseconds. */
  infoUpdatedAt: number | null;
  /** Of every row of the entry, like the rest below; distinct. */
  tags: readonly string[];
  methods: readonly string[];
  sourceKinds: readonly string[];
  /** Base URLs without their trailing slash. */
  sourceUrls: readonly string[];
  paymentOptions: readonly PaymentFacet[];
  /** Latest valid challenge of any endpoint, epoch milliseconds. */
  lastVerifiedAt: number | null;
  /** Some endpoint's latest live challenge differed from its listing. */
  drift: boolean;
  /** How many of its listed endpoints a standard x402 client can pay (src/payability/). */
  payableEndpoints: number;
  /** Trust verdicts of the entry's primary row (src/trust). */
  health: Health;
  grade: Grade | null;
  score: number | null;
  warnings: readonly Warning[];
  /** An origin of its endpoints has a verified owner (src/ownership). */
  ownerVerified: boolean;
  /** What the chain shows its pay_tos received over 30 days (raw); null when no chain reads them. */
  observedVolume: Amount | null;
  observedUniquePayers: number | null;
  /** Dense rank of the entry's value for each sort, ascending; 0 when it has no value. */
  sortRanks: Readonly<Record<SortKey, number>>;
}
