import { formatUsdcUnits } from "../billing/usdc-amount";
import type { Database } from "../db/prisma-client";
import { queryRows } from "../db/read-pool";
import { inTransaction, type Transaction } from "../db/transaction";
import { emitEvents, type NewEvent } from "../events/emit";
import { Prisma } from "../generated/prisma/client";
import {
  clearFigures,
  endpointFeedClaims,
  recordFlags,
  type ServiceClaims,
  type ServiceFigures,
  serviceClaims,
  shownIds,
  writeFigures,
} from "./activity-figures-store";
import { transfersOfPayTos, type WatchedPayTo, watchedPayTos } from "./activity-store";
import { dailyOf, type ObservedJson, observedOf } from "./figures";
import {
  type FlagRule,
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
/**
 * Entries whose transfers are read and figured together: memory holds one batch's transfers,
 * whatever the number of watched entries.
 */
const SERVICE_BATCH = 100;

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

/** Who publishes each watched pay_to, for every chain: the whole map is small (one row per endpoint). */
interface Watch {
  /** A chain's watched pay_to → the entries that publish it (wash-rules' `watched`). */
  servicesOn: Map<string, Map<string, string[]>>;
  payTosOfService: Map<string, PayToRef[]>;
  payTosOfEndpoint: Map<string, PayToRef[]>;
  serviceOfEndpoint: Map<string, string>;
  endpointsOfService: Map<string, string[]>;
  servicesOfPayTo: Map<string, Set<string>>;
}

async function watchOf(db: Database, chains: readonly string[]): Promise<Watch> {
  const watch: Watch = {
    servicesOn: new Map(),
    payTosOfService: new Map(),
    payTosOfEndpoint: new Map(),
    serviceOfEndpoint: new Map(),
    endpointsOfService: new Map(),
    servicesOfPayTo: new Map(),
  };
  for (const chain of chains) {
    const servicesOf = new Map<string, string[]>();
    const rows: WatchedPayTo[] = await watchedPayTos(db, chain);
    for (const row of rows) {
      const ref = { chain, address: row.address };
      addTo(servicesOf, row.address, row.serviceId);
      addTo(watch.payTosOfService, row.serviceId, ref);
      addTo(watch.payTosOfEndpoint, row.endpointId, ref);
      if (!watch.serviceOfEndpoint.has(row.endpointId))
        addTo(watch.endpointsOfService, row.serviceId, row.endpointId);
      watch.serviceOfEndpoint.set(row.endpointId, row.serviceId);
      const services = watch.servicesOfPayTo.get(refKey(ref)) ?? new Set<string>();
      watch.servicesOfPayTo.set(refKey(ref), services.add(row.serviceId));
    }
    watch.servicesOn.set(chain, servicesOf);
  }
  return watch;
}

/** What one refresh gathers for service.activity_flagged: per entry, bounded. */
interface FlaggedSummary {
  count: number;
  rules: Set<FlagRule>;
  transfers: Array<ObservedTransfer & { flag: TransferFlag }>;
}

/**
 * Recomputes the observed figures and flags of every watched entry and endpoint from the stored
 * transfers of `chains`, writes them, stores the flags, and emits service.activity_flagged for
 * each entry with a flag that appears for the first time. Entries are figured SERVICE_BATCH at a
 * time, each batch reading only its own pay_tos' transfers. Returns how many flags are new, or
 * null when another process is refreshing.
 */
export async function refreshActivity(
  db: Database,
  chains: readonly string[],
  asOf: Date = new Date(),
): Promise<number | null> {
  const sinceDay = new Date(asOf.getTime() - DAILY_DAYS * DAY_MS).toISOString().slice(0, 10);
  // Payments of the daily window, with the funding and round trips that may flag them.
  const since = new Date(Date.parse(sinceDay) - FUNDING_MS - DAY_MS);
  const watch = await watchOf(db, chains);
  const serviceIds = [...watch.payTosOfService.keys()];

  return inTransaction(
    db,
    async (tx) => {
      const [lock] = await queryRows<{ locked: boolean }>(
        tx,
        Prisma.sql`SELECT pg_try_advisory_xact_lock(hashtext(${REFRESH_LOCK})) AS locked`,
      );
      if (!lock?.locked) return null;
      await clearFigures(tx, serviceIds, [...watch.payTosOfEndpoint.keys()], sinceDay);
      const flagged = new Map<string, FlaggedSummary>();
      let fresh = 0;
      for (let index = 0; index < serviceIds.length; index += SERVICE_BATCH) {
        fresh += await refreshBatch(tx, watch, serviceIds.slice(index, index + SERVICE_BATCH), {
          since,
          sinceDay,
          asOf,
          flagged,
        });
      }
      const claims = new Map(
        (await serviceClaims(tx, [...flagged.keys()])).map((claim) => [claim.serviceId, claim]),
      );
      await emitEvents(tx, flaggedEvents(flagged, claims));
      return fresh;
    },
    { timeoutMs: ROUND_TIMEOUT_MS },
  );
}

/** The figures and flags of a batch of entries and their endpoints, written; returns how many flags are new. */
async function refreshBatch(
  tx: Transaction,
  watch: Watch,
  batch: readonly string[],
  round: { since: Date; sinceDay: string; asOf: Date; flagged: Map<string, FlaggedSummary> },
): Promise<number> {
  const { asOf } = round;
  const refs = [
    ...new Map(
      batch.flatMap((id) => watch.payTosOfService.get(id) ?? []).map((ref) => [refKey(ref), ref]),
    ).values(),
  ];
  const flags = new Map<string, TransferFlag[]>();
  const paymentsTo = new Map<string, ObservedTransfer[]>();
  for (const [chain, servicesOf] of watch.servicesOn) {
    const addresses = refs.filter((ref) => ref.chain === chain).map((ref) => ref.address);
    if (addresses.length === 0) continue;
    const batchAddresses = new Set(addresses);
    // Every transfer to or from the batch's pay_tos: their payments and the outflows that may flag them.
    const transfers = await transfersOfPayTos(tx, chain, addresses, round.since);
    for (const [key, list] of flagTransfers(transfers, servicesOf, asOf)) flags.set(key, list);
    for (const transfer of transfers) {
      if (batchAddresses.has(transfer.to) && isPayment(transfer, servicesOf))
        addTo(paymentsTo, refKey({ chain, address: transfer.to }), transfer);
    }
  }
  const claims = new Map((await serviceClaims(tx, batch)).map((claim) => [claim.serviceId, claim]));
  const endpointIds = batch.flatMap((id) => watch.endpointsOfService.get(id) ?? []);
  const feedClaims = await endpointFeedClaims(tx, endpointIds);
  const sharedIds = new Set(refs.flatMap((ref) => [...(watch.servicesOfPayTo.get(refKey(ref)) ?? [])]));
  const shown = new Map(
    (await shownIds(tx, [...sharedIds])).map((row) => [row.serviceId, row.shownId] as const),
  );

  const groupOf = (groupRefs: readonly PayToRef[], ownService: string) => {
    const unique = [...new Map(groupRefs.map((ref) => [refKey(ref), ref])).values()];
    const payments = unique
      .flatMap((ref) => paymentsTo.get(refKey(ref)) ?? [])
      .sort((a, b) => a.blockTime.getTime() - b.blockTime.getTime());
    const others = new Set(unique.flatMap((ref) => [...(watch.servicesOfPayTo.get(refKey(ref)) ?? [])]));
    others.delete(ownService);
    return { payTo: unique, payments, sharedWith: [...others].map((id) => shown.get(id) ?? id).sort() };
  };

  const services: ServiceFigures[] = [];
  for (const serviceId of batch) {
    const group = groupOf(watch.payTosOfService.get(serviceId) ?? [], serviceId);
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
      (payment) => payment.blockTime.toISOString().slice(0, 10) >= round.sinceDay,
    );
    services.push({ serviceId, observed, daily: dailyOf(recent, flags) });
  }
  const endpoints = new Map<string, ObservedJson>();
  for (const endpointId of endpointIds) {
    const feed = feedClaims.get(endpointId);
    endpoints.set(
      endpointId,
      observedOf({
        ...groupOf(
          watch.payTosOfEndpoint.get(endpointId) ?? [],
          watch.serviceOfEndpoint.get(endpointId) ?? "",
        ),
        flags,
        asOf,
        claimed: {
          directory: { volumeUsdc30d: null, txCount30d: null, uniquePayers30d: null },
          feed: { txCount30d: feed?.calls ?? null, uniquePayers30d: feed?.payers ?? null },
        },
      }),
    );
  }
  await writeFigures(tx, services, endpoints, asOf);

  const stored = [...paymentsTo.values()]
    .flat()
    .flatMap((payment) => (flags.get(transferKey(payment)) ?? []).map((flag) => ({ ...payment, flag })));
  const fresh = await recordFlags(tx, stored);
  for (const item of stored) {
    if (!fresh.has(`${transferKey(item)}|${item.flag.rule}`)) continue;
    for (const serviceId of watch.servicesOfPayTo.get(refKey({ chain: item.chain, address: item.to })) ??
      []) {
      const summary = round.flagged.get(serviceId) ?? { count: 0, rules: new Set<FlagRule>(), transfers: [] };
      summary.count += 1;
      summary.rules.add(item.flag.rule);
      if (summary.transfers.length < EVENT_TRANSFERS) summary.transfers.push(item);
      round.flagged.set(serviceId, summary);
    }
  }
  return fresh.size;
}

/** One service.activity_flagged per entry whose pay_tos received a newly flagged transfer. */
function flaggedEvents(
  flagged: ReadonlyMap<string, FlaggedSummary>,
  claims: ReadonlyMap<string, ServiceClaims>,
): NewEvent[] {
  const events: NewEvent[] = [];
  for (const [serviceId, summary] of flagged) {
    const claim = claims.get(serviceId);
    if (!claim) continue;
    events.push({
      type: "service.activity_flagged",
      serviceId,
      data: {
        service: { id: claim.shownId, name: claim.name, source: claim.source, detail_url: claim.detailUrl },
        flagged_transfers: summary.count,
        rules: [...summary.rules].sort(),
        transfers: summary.transfers.map((item) => ({
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
