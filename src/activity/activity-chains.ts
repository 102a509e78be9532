import { z } from "zod";
import { chainEndpointFields, uniqueChains } from "../billing/settlement-chains";
import type { RpcLimits } from "../chain/transfer-logs";

/** One chain whose watched pay_tos are read (an element of ACTIVITY_CHAINS). */
export interface ActivityChain {
  /** CAIP-2, as payment options name their network: eip155:8453. */
  chain: string;
  rpcUrl: string;
  usdcContract: `0x${string}`;
  /** A block is read once it has this many confirmations (the block itself is one). */
  confirmations: number;
  /** A pay_to seen for the first time is read from this many days back… */
  backfillDays: number;
  /** …or from this block, when set. */
  startBlock?: bigint;
  limits: RpcLimits;
}

const chainEntry = z
  .strictObject({
    chain: z.string().regex(/^eip155:[0-9]{1,12}$/, "chain must be a CAIP-2 EVM chain such as eip155:8453"),
    ...chainEndpointFields,
    backfill_days: z.number().int().min(1).max(3650).default(30),
    max_block_range: z.number().int().min(1).max(1_000_000).default(2000),
    addresses_per_request: z.number().int().min(1).max(10_000).default(100),
    requests_per_second: z.number().int().min(1).max(1000).default(10),
  })
  .transform(
    (entry): ActivityChain => ({
      chain: entry.chain,
      rpcUrl: entry.rpc_url,
      usdcContract: entry.usdc_contract.toLowerCase() as `0x${string}`,
      confirmations: entry.confirmations,
      backfillDays: entry.backfill_days,
      startBlock: entry.start_block === undefined ? undefined : BigInt(entry.start_block),
      limits: {
        maxBlockRange: entry.max_block_range,
        addressesPerRequest: entry.addresses_per_request,
        requestsPerSecond: entry.requests_per_second,
        maxAttempts: 6,
        backoffMs: 500,
        timeoutMs: 30_000,
      },
    }),
  );

/** ACTIVITY_CHAINS: chains are unique. */
export const activityChainsSchema = z.array(chainEntry).refine(uniqueChains, "chains must be unique");
