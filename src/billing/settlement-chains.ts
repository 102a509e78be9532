import { z } from "zod";
import { isExtendedPublicKey } from "../chain/deposit-address";

/** One chain payments settle on (an element of SETTLEMENT_CHAINS). */
export interface SettlementChain {
  /** The merchant API's chain name, as orders name it in accepted_assets: "base", "ethereum" … */
  chain: string;
  rpcUrl: string;
  usdcContract: `0x${string}`;
  /** A transfer counts once its block has this many confirmations (the block itself is one). */
  confirmations: number;
  xpub: string;
  /** First block to read when no cursor is stored yet; default: the first safe block at start. */
  startBlock?: bigint;
  /** How long a released deposit address rests before another order gets it. */
  addressRestSeconds: number;
}

/** A day: a payer who pays a closed order late pays an address no other order holds yet. */
export const DEFAULT_ADDRESS_REST_SECONDS = 86_400;

/** The fields every chain setting shares (SETTLEMENT_CHAINS, ACTIVITY_CHAINS). */
export const chainEndpointFields = {
  rpc_url: z.url({ protocol: /^(https?|wss?)$/, error: "rpc_url must be an http(s) or ws(s) URL" }),
  usdc_contract: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "usdc_contract must be a 0x-prefixed 20-byte address"),
  confirmations: z.number().int().min(1, "confirmations must be at least 1").max(1000),
  start_block: z.number().int().min(0).optional(),
};

/** Chain names are unique within one setting. */
export function uniqueChains<T extends { chain: string }>(chains: readonly T[]): boolean {
  return new Set(chains.map((c) => c.chain)).size === chains.length;
}

const chainEntry = z
  .strictObject({
    chain: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, "chain must be a lower-case name such as base"),
    ...chainEndpointFields,
    xpub: z.string().refine(isExtendedPublicKey, "xpub must be an extended public key (never a private one)"),
    address_rest_seconds: z
      .number()
      .int()
      .min(0, "address_rest_seconds must be 0 or more")
      .max(2_592_000, "address_rest_seconds must be at most 30 days")
      .default(DEFAULT_ADDRESS_REST_SECONDS),
  })
  .transform(
    (entry): SettlementChain => ({
      chain: entry.chain,
      rpcUrl: entry.rpc_url,
      usdcContract: entry.usdc_contract.toLowerCase() as `0x${string}`,
      confirmations: entry.confirmations,
      xpub: entry.xpub,
      startBlock: entry.start_block === undefined ? undefined : BigInt(entry.start_block),
      addressRestSeconds: entry.address_rest_seconds,
    }),
  );

/** SETTLEMENT_CHAINS: chain names are unique. */
export const settlementChainsSchema = z.array(chainEntry).refine(uniqueChains, "chain names must be unique");

/**
 * Why an order naming `unknown` chains is refused, and what would be accepted. The accepted chains
 * are the operator's SETTLEMENT_CHAINS, so the message names the setting: with none configured, no
 * order can be paid until it is set.
 */
export function chainsNotAcceptedMessage(unknown: readonly string[], accepted: readonly string[]): string {
  const refused = `accepted_assets: chain ${unknown.join(", ")} is not accepted here`;
  return accepted.length === 0
    ? `${refused}; accepted: none (no chain is configured: the operator sets SETTLEMENT_CHAINS, see docs/billing.md)`
    : `${refused}; accepted: ${accepted.join(", ")} (the operator's SETTLEMENT_CHAINS)`;
}
