import type { Health } from "./health";
import type { Check } from "./types";

/**
 * Warnings an agent should see before paying, each from one fact:
 * dead, down: the health; zombie: listed as paid but answering 404/405/410, or 2xx without a
 * challenge, for HEALTH_ZOMBIE_AFTER; decoy_price: price_sane failed; drift: matches_listing
 * failed; unpayable: a live challenge no official client can pay (not a sign-in challenge);
 * slow: responsive found a p99 over its threshold; new_provider: the service was first seen
 * less than 7 days ago; pay_to_changed: the live pay_to replaced another less than 7 days ago;
 * auth_only: the 402 asks for a sign-in, not a payment; claims_exceed_observed: claims_observed
 * warned (claimed figures over CLAIM_FACTOR × what the chain shows); self_dealing: self_dealing
 * found flagged payments (src/activity/wash-rules.ts).
 */
export const WARNINGS = [
  "dead",
  "down",
  "zombie",
  "decoy_price",
  "drift",
  "unpayable",
  "slow",
  "new_provider",
  "pay_to_changed",
  "auth_only",
  "claims_exceed_observed",
  "self_dealing",
] as const;

export type Warning = (typeof WARNINGS)[number];

export interface WarningFacts {
  health: Health;
  checks: readonly Check[];
  /** Start of the current run of zombie answers; null when the latest answer is not one. */
  zombieSince: Date | null;
  /** The latest challenge: whether an official client can pay it; null without a challenge. */
  livePayable: boolean | null;
  authOnly: boolean;
  slowP99: boolean;
  serviceFirstSeenAt: Date;
  /** When the live pay_to last replaced a different one; null when it never changed. */
  payToChangedAt: Date | null;
  zombieAfterMs: number;
  now: Date;
}

const RECENT_MS = 7 * 24 * 60 * 60 * 1000;

export function warningsOf(f: WarningFacts): Warning[] {
  const failed = (id: Check["id"]) => f.checks.some((c) => c.id === id && c.result === "fail");
  const flagged = (id: Check["id"]) =>
    f.checks.some((c) => c.id === id && (c.result === "warn" || c.result === "fail"));
  const within = (at: Date | null, ms: number) => at !== null && f.now.getTime() - at.getTime() < ms;
  const flags: Record<Warning, boolean> = {
    dead: f.health === "dead",
    down: f.health === "down",
    zombie: f.zombieSince !== null && !within(f.zombieSince, f.zombieAfterMs),
    decoy_price: failed("price_sane"),
    drift: failed("matches_listing"),
    unpayable: f.livePayable === false && !f.authOnly,
    slow: f.slowP99,
    new_provider: within(f.serviceFirstSeenAt, RECENT_MS),
    pay_to_changed: within(f.payToChangedAt, RECENT_MS),
    auth_only: f.authOnly,
    claims_exceed_observed: flagged("claims_observed"),
    self_dealing: flagged("self_dealing"),
  };
  return WARNINGS.filter((w) => flags[w]);
}
