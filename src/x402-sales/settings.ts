import { ensureOrganisation } from "../accounts/organisations";
import type { Config } from "../config/config";
import type { PriceGroup } from "../config/x402-settings";
import type { Database } from "../db/prisma-client";
import type { EventOwner } from "../events/emit";

/** Selling the API over x402, as configured (X402_*); absent when X402_PAY_TO names no network. */
export interface SalesSettings {
  /** Accepted networks (CAIP-2) and where each one's payments go. */
  payTo: ReadonlyMap<string, string>;
  /** USDC per call of each group (csv: per 1,000 rows), exact decimal text. */
  prices: ReadonlyMap<PriceGroup, string>;
  /** Groups a caller without a key pays for even within the anonymous allowance. */
  paidGroups: ReadonlySet<PriceGroup>;
  /** USDC contracts x402 does not know (test chains), with their EIP-712 domain. */
  assets: ReadonlyMap<string, string>;
  assetDomain: { name: string; version: string };
  facilitatorUrl?: string;
  facilitatorKey?: `0x${string}`;
  rpcUrls: ReadonlyMap<string, string>;
  freeCallsPerWallet: number;
  /** The organisation whose webhooks and events receive the payment events. */
  operatorOrganisation: string;
  /** How long a ready paid answer waits for its settlement before it is sent without it. */
  settleWaitMs: number;
  /** The first pause before a failed settlement is retried (then doubling). */
  settleRetryMs: number;
}

export function salesSettingsFromConfig(config: Config): SalesSettings | undefined {
  if (config.X402_PAY_TO.size === 0) return undefined;
  return {
    payTo: config.X402_PAY_TO,
    prices: config.X402_PRICES,
    paidGroups: new Set(config.X402_PAID_ROUTES),
    assets: config.X402_ASSETS,
    assetDomain: config.X402_ASSET_DOMAIN,
    facilitatorUrl: config.X402_FACILITATOR_URL,
    facilitatorKey: config.X402_FACILITATOR_KEY as `0x${string}` | undefined,
    rpcUrls: config.X402_RPC_URLS,
    freeCallsPerWallet: config.X402_FREE_CALLS_PER_WALLET,
    operatorOrganisation: config.X402_OPERATOR_ORG,
    settleWaitMs: config.X402_SETTLE_WAIT_SECONDS * 1000,
    settleRetryMs: config.X402_SETTLE_RETRY_SECONDS * 1000,
  };
}

/** The operator's organisation in the live environment: created at the first start if missing. */
export async function operatorOwner(db: Database, settings: SalesSettings): Promise<EventOwner> {
  const { id } = await ensureOrganisation(db, settings.operatorOrganisation);
  return { organisationId: id, environment: "live" };
}
