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
}

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
  })
  .transform(
    (entry): SettlementChain => ({
      chain: entry.chain,
      rpcUrl: entry.rpc_url,
      usdcContract: entry.usdc_contract.toLowerCase() as `0x${string}`,
      confirmations: entry.confirmations,
      xpub: entry.xpub,
      startBlock: entry.start_block === undefined ? undefined : BigInt(entry.start_block),
    }),
  );

/** SETTLEMENT_CHAINS: chain names are unique. */
export const settlementChainsSchema = z.array(chainEntry).refine(uniqueChains, "chain names must be unique");
