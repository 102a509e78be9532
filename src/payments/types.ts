import type { CallDescription } from "./call-description";
import type { ChallengeTraits } from "./challenge-traits";

/**
 * One way to pay for a resource, normalised from an x402 "accepts" entry of protocol v1 or v2.
 * Every field is nullable because entries seen in the wild omit or mangle fields; what was odd
 * about an entry is said in `warnings` instead of dropping the entry.
 */
export interface PaymentOption {
  scheme: string | null;
  /** CAIP-2 chain id, e.g. "eip155:8453". Null when the entry names a network we cannot map. */
  network: string | null;
  /** Short name, e.g. "base"; for an unknown v1 name this is the name as written (lower-cased). */
  network_name: string | null;
  /** Token address as written (EVM addresses keep their checksum case). */
  asset: string | null;
  /** "USDC" when the asset is a known USDC contract on the entry's network. */
  asset_symbol: string | null;
  /** Integer string in the asset's smallest unit. */
  amount_atomic: string | null;
  /** Exact decimal string, only when the asset is USDC (6 decimals). */
  price_usdc: string | null;
  pay_to: string | null;
  max_timeout_seconds: number | null;
  warnings: string[];
  /** Whether a standard x402 client could pay this entry as published (src/payability/). */
  payable: boolean;
  /** Why it could not; empty when payable. */
  unpayable_reasons: string[];
}

/** What a 402 response tells us, see parsePaymentChallenge. */
export interface PaymentChallenge {
  /** Status 402 and at least one option that is well-formed (spec schema passes, atomic amount). */
  valid: boolean;
  x402Version: number | null;
  options: PaymentOption[];
  /** Why the challenge is not valid; null when it is. */
  error: string | null;
  /** Challenge-level oddities (option-level ones are on each option). */
  warnings: string[];
  /** How to call the resource, when the challenge says (v2 bazaar extension, v1 outputSchema). */
  call: CallDescription | null;
  /** Authentication-only, idempotency and the seller's self-reported name, tags and icon. */
  traits: ChallengeTraits;
}

/** One difference between what a listing claims and what a live challenge says. */
export interface PaymentDrift {
  kind: "price" | "network" | "asset" | "pay_to";
  /** Network (CAIP-2, else name) the difference is about. */
  network: string;
  claimed: string | null;
  observed: string | null;
  message: string;
}
