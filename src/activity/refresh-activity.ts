import { formatUsdcUnits } from "../billing/usdc-amount";
import type { Database } from "../db/prisma-client";
import { queryRows } from "../db/read-pool";
import { inTransaction } from "../db/transaction";
import { emitEvents, type NewEvent } from "../events/emit";
import { Prisma } from "../generated/prisma/client";
import {
  endpointFeedClaims,
  recordFlags,
  type ServiceClaims,
  type ServiceFigures,
  serviceClaims,
  writeFigures,
} from "./activity-figures-store";
import { transfersSince, type WatchedPayTo, watchedPayTos } from "./activity-store";
import { dailyOf, type ObservedJson, observedOf } from "./figures";
import {
  FUNDING_MS,
  flagTransfers,
  isPayment,
  type ObservedTransfer,
  type TransferFlag,
  transferKey,
} from "./wash-rules";

const DAY_MS = 86_400_000;
/** The daily rows rewritten each round: the 30-day window and the day it starts in. */
const DAILY_DAYS = 31;
const ROUND_TIMEOUT_MS = 120_000;
/** One process refreshes at a time (a transaction advisory lock). */
const REFRESH_LOCK = "x402-catalogue:activity-figures";
/** Flagged transfers one service.activity_flagged event lists (it counts them all). */
const EVENT_TRANSFERS = 20;

interface PayToRef {
  chain: string;
  address: string;
}

const refKey = (ref: PayToRef) => `${ref.chain}:${ref.address}`;

function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Recomputes the observed figures and flags of every watched entry and endpoint from the stored
 * transfers of `chains`, writes them, stores the flags, and emits service.activity_flagged for
 * each entry with a flag that appears for the first time. Returns how many flags are new, or
 * null when another process is refreshing.
 */
export async function refreshActivity(
  db: Database,
  chains: readonly string[],
  asOf: Date = new Date(),
): Promise<number | null> {
  const sinceDay = new Date(asOf.getTime() - DAILY_DAYS * DAY_MS).toISOString().slice(0, 10);
  // Payments of the daily window, with the funding and round trips that may flag them.
  const transfers = await transfersSince(db, chains, new Date(Date.parse(sinceDay) - FUNDING_MS - DAY_MS));
  const watched = new Map<string, WatchedPayTo[]>();
  for (const chain of chains) watched.set(chain, await watchedPayTos(db, chain));

  const flags = new Map<string, TransferFlag[]>();
  const paymentsTo = new Map<string, ObservedTransfer[]>();
  for (const chain of chains) {
    const servicesOf = new Map<string, string[]>();
    for (const row of watched.get(chain) ?? []) addTo(servicesOf, row.address, row.serviceId);
    const onChain = transfers.filter((transfer) => transfer.chain === chain);
    for (const [key, list] of flagTransfers(onChain, servicesOf, asOf)) flags.set(key, list);
    for (const transfer of onChain) {
      if (isPayment(transfer, servicesOf))
        addTo(paymentsTo, refKey({ chain, address: transfer.to }), transfer);
    }
  }

  const payTosOfService = new Map<string, PayToRef[]>();
  const payTosOfEndpoint = new Map<string, PayToRef[]>();
  const servicesOfPayTo = new Map<string, Set<string>>();
  for (const [chain, rows] of watched) {
    for (const row of rows) {
      const ref = { chain, address: row.address };
      addTo(payTosOfService, row.serviceId, ref);
      addTo(payTosOfEndpoint, row.endpointId, ref);
      const services = servicesOfPayTo.get(refKey(ref)) ?? new Set<string>();
      servicesOfPayTo.set(refKey(ref), services.add(row.serviceId));
    }
  }
  const claims = new Map((await serviceClaims(db, [...payTosOfService.keys()])).map((c) => [c.serviceId, c]));
  const feedClaims = await endpointFeedClaims(db, [...payTosOfEndpoint.keys()]);
  const shownId = (serviceId: string) => claims.get(serviceId)?.shownId ?? serviceId;

  const groupOf = (refs: readonly PayToRef[], ownService: string) => {
    const unique = [...new Map(refs.map((ref) => [refKey(ref), ref])).values()];
    const payments = unique
      .flatMap((ref) => paymentsTo.get(refKey(ref)) ?? [])
      .sort((a, b) => a.blockTime.getTime() - b.blockTime.getTime());
    const others = new Set(unique.flatMap((ref) => [...(servicesOfPayTo.get(refKey(ref)) ?? [])]));
    others.delete(ownService);
    return { payTo: unique, payments, sharedWith: [...others].map(shownId).sort() };
  };

  const services: ServiceFigures[] = [];
  for (const [serviceId, refs] of payTosOfService) {
    const group = groupOf(refs, serviceId);
    const claim = claims.get(serviceId);
    const observed = observedOf({
      ...group,
      flags,
      asOf,
      claimed: {
        directory: {
          volumeUsdc30d: claim?.volumeUsdc30d ?? null,
          txCount30d: claim?.txCount30d ?? null,
          uniquePayers30d: claim?.payerCount30d ?? null,
        },
        feed: { txCount30d: claim?.feedCalls30d ?? null, uniquePayers30d: claim?.feedPayers30d ?? null },
      },
    });
    const recent = group.payments.filter(
      (payment) => payment.blockTime.toISOString().slice(0, 10) >= sinceDay,
    );
    services.push({ serviceId, observed, daily: dailyOf(recent, flags) });
  }
  const endpoints = new Map<string, ObservedJson>();
  const serviceOfEndpoint = new Map<string, string>();
  for (const rows of watched.values())
    for (const row of rows) serviceOfEndpoint.set(row.endpointId, row.serviceId);
  for (const [endpointId, refs] of payTosOfEndpoint) {
    const feed = feedClaims.get(endpointId);
    endpoints.set(
      endpointId,
      observedOf({
        ...groupOf(refs, serviceOfEndpoint.get(endpointId) ?? ""),
        flags,
        asOf,
        claimed: {
          directory: { volumeUsdc30d: null, txCount30d: null, uniquePayers30d: null },
          feed: { txCount30d: feed?.calls ?? null, uniquePayers30d: feed?.payers ?? null },
        },
      }),
    );
  }

  return inTransaction(
    db,
    async (tx) => {
      const [lock] = await queryRows<{ locked: boolean }>(
        tx,
        Prisma.sql`SELECT pg_try_advisory_xact_lock(hashtext(${REFRESH_LOCK})) AS locked`,
      );
      if (!lock?.locked) return null;
      await writeFigures(tx, services, endpoints, sinceDay, asOf);
      const stored = [...paymentsTo.values()]
        .flat()
        .flatMap((payment) => (flags.get(transferKey(payment)) ?? []).map((flag) => ({ ...payment, flag })));
      const fresh = await recordFlags(tx, stored);
      const events = flaggedEvents(
        stored.filter((item) => fresh.has(`${transferKey(item)}|${item.flag.rule}`)),
        servicesOfPayTo,
        claims,
      );
      await emitEvents(tx, events);
      return fresh.size;
    },
    { timeoutMs: ROUND_TIMEOUT_MS },
  );
}

/** One service.activity_flagged per entry whose pay_tos received a newly flagged transfer. */
function flaggedEvents(
  fresh: ReadonlyArray<ObservedTransfer & { flag: TransferFlag }>,
  servicesOfPayTo: ReadonlyMap<string, ReadonlySet<string>>,
  claims: ReadonlyMap<string, ServiceClaims>,
): NewEvent[] {
  const byService = new Map<string, Array<ObservedTransfer & { flag: TransferFlag }>>();
  for (const item of fresh) {
    for (const serviceId of servicesOfPayTo.get(refKey({ chain: item.chain, address: item.to })) ?? []) {
      addTo(byService, serviceId, item);
    }
  }
  const events: NewEvent[] = [];
  for (const [serviceId, items] of byService) {
    const claim = claims.get(serviceId);
    if (!claim) continue;
    events.push({
      type: "service.activity_flagged",
      serviceId,
      data: {
        service: { id: claim.shownId, name: claim.name, source: claim.source, detail_url: claim.detailUrl },
        flagged_transfers: items.length,
        rules: [...new Set(items.map((item) => item.flag.rule))].sort(),
        transfers: items.slice(0, EVENT_TRANSFERS).map((item) => ({
          rule: item.flag.rule,
          chain: item.chain,
          tx_hash: item.txHash,
          log_index: item.logIndex,
          payer: item.from,
          pay_to: item.to,
          value_usdc: formatUsdcUnits(item.value),
          at: item.blockTime.toISOString(),
          evidence: item.flag.transactions,
        })),
      },
    });
  }
  return events;
}
