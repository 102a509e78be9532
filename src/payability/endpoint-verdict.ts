/**
 * The payability verdict of one endpoint, from the verdicts of every payment option published for
 * it. What a client meets when it calls decides: the endpoint's own live 402 challenge, when our
 * latest probe saw one; otherwise what a feed, the origin's manifest or a directory claims. A claim
 * is weaker evidence than the challenge, so a live challenge overrides every listing, also when it
 * is worse.
 */
import type { SourceKind } from "../generated/prisma/enums";

/** Where the deciding payment requirements were published. */
export type PayabilitySource = "live_challenge" | "feed" | "manifest" | "directory";

export interface JudgedOption {
  origin: "listing" | "probe";
  /** The listing source's kind; null for probe options. */
  sourceKind: SourceKind | null;
  network: string | null;
  networkName: string | null;
  /** Null for an option stored before verdicts existed: not judged until its source is read again. */
  payable: boolean | null;
  unpayableReasons: string[];
}

export interface EndpointPayability {
  payable: boolean;
  decidedBy: PayabilitySource | null;
  /** Why not: per unpayable option of the deciding source ("base: asset …"); empty when payable. */
  reasons: string[];
}

const SOURCE_OF_KIND = {
  bazaar: "feed",
  origin_manifest: "manifest",
  // What a seller registered is its own publication, like its manifest.
  registered: "manifest",
  html_directory: "directory",
} as const satisfies Record<SourceKind, PayabilitySource>;

function sourceOf(option: JudgedOption): PayabilitySource | null {
  if (option.origin === "probe") return "live_challenge";
  return option.sourceKind === null ? null : SOURCE_OF_KIND[option.sourceKind];
}

/**
 * Listings in order of how directly they come from what a client meets: a feed carries the
 * accepts the seller's server produced (recorded by its facilitator); a manifest is the seller's
 * own document, but written by hand and often incomplete; a directory is a third party's copy.
 */
const PRECEDENCE: readonly PayabilitySource[] = ["live_challenge", "feed", "manifest", "directory"];

function verdictOf(source: PayabilitySource, options: JudgedOption[]): EndpointPayability {
  if (options.some((o) => o.payable === true)) return { payable: true, decidedBy: source, reasons: [] };
  const reasons = options.flatMap((o) => {
    const where = o.networkName ?? o.network ?? "unknown network";
    const own =
      o.payable === null ? ["not judged yet (stored before payability verdicts)"] : o.unpayableReasons;
    return own.map((reason) => `${where}: ${reason}`);
  });
  return { payable: false, decidedBy: source, reasons: [...new Set(reasons)] };
}

/**
 * `lastProbeStatus` is the HTTP status of the endpoint's latest probe: a 402 whose challenge left
 * no payment options (an empty body without header, an HTML paywall) decides "not payable".
 */
export function judgeEndpoint(options: JudgedOption[], lastProbeStatus: number | null): EndpointPayability {
  const bySource = new Map<PayabilitySource, JudgedOption[]>();
  for (const option of options) {
    const source = sourceOf(option);
    if (source === null) continue;
    const list = bySource.get(source);
    if (list) list.push(option);
    else bySource.set(source, [option]);
  }
  if (!bySource.has("live_challenge") && lastProbeStatus === 402) {
    return {
      payable: false,
      decidedBy: "live_challenge",
      reasons: ["the live 402 answer carries no payment requirements an x402 client can read"],
    };
  }
  for (const source of PRECEDENCE) {
    const published = bySource.get(source);
    if (published) return verdictOf(source, published);
  }
  return { payable: false, decidedBy: null, reasons: ["no payment requirements are published for it"] };
}
