import type { DailyFigures, ObservedJson } from "../activity/figures";
import { fixedStatement, type Queryable, queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import type { SourceKind } from "../generated/prisma/enums";
import type { SelfReported } from "../normalise/self-reported";
import { type EndpointPayability, judgeEndpoint } from "../payability/endpoint-verdict";
import { type CallDescription, chooseCall, type PublishedCall } from "../payments/call-description";
import type { Grade } from "../trust/grade";
import type { Health } from "../trust/health";
import type { Check } from "../trust/types";
import type { Warning } from "../trust/warnings";
import { isEntryMember } from "./catalogue-entries";
import { type EndpointEvidence, endpointEvidence, payToSharedWith } from "./endpoint-evidence";
import {
  driftOf,
  type EndpointDrift,
  endpointProbeJson,
  entryProbeJson,
  latestDriftJson,
  type ProbeJson,
  type ProbeSummary,
  probeSummaryOf,
} from "./probe-stats";
import { fromEntryOfRow, SERVICE_COLUMNS, type ServiceRecord } from "./service-queries";
import { decimalText } from "./sql";

/**
 * The detail of one catalogue entry: the endpoints of all its rows with their payment options and
 * probe statistics, the entry's own probe statistics, and which source listed it when. One
 * statement answers it all, the nested parts as JSON: one round trip and one plan per request
 * (six statements over three round trips made detail the slowest read of the API).
 */

export interface PaymentOptionRecord {
  origin: "listing" | "probe";
  /** The base URL of the source that claimed it; null for what a probe saw. */
  source: string | null;
  /** That source's page of the service (the listing row's detail URL); null for what a probe saw. */
  sourceUrl: string | null;
  sourceKind: SourceKind | null;
  scheme: string | null;
  network: string | null;
  networkName: string | null;
  asset: string | null;
  assetSymbol: string | null;
  amountAtomic: string | null;
  priceUsdc: string | null;
  payTo: string | null;
  maxTimeoutSeconds: number | null;
  warnings: string[];
  /** Null for an option stored before payability verdicts existed. */
  payable: boolean | null;
  unpayableReasons: string[];
  observedAt: Date;
}

export interface EndpointDetail {
  method: string;
  url: string;
  description: string | null;
  paymentOptions: PaymentOptionRecord[];
  probe: ProbeSummary;
  payability: EndpointPayability;
  /** How to call it, where published; null otherwise. */
  call: PublishedCall | null;
  /** What a feed says about it on its seller's behalf; null when none did. */
  selfReported: SelfReported | null;
  evidence: EndpointEvidence;
  drift: EndpointDrift | null;
  /** What the chain shows its pay_tos were paid (src/activity); null when no chain is read for them. */
  observed: ObservedJson | null;
  trust: TrustRecord;
}

/** The stored trust verdicts of an endpoint or service (src/trust/refresh.ts); checks only for endpoints. */
export interface TrustRecord {
  health: Health;
  healthReason: string | null;
  healthChangedAt: Date | null;
  checks: Check[] | null;
  grade: Grade | null;
  score: number | null;
  warnings: Warning[];
}

export interface SourceListing {
  kind: SourceKind;
  /** The source's base URL. */
  source: string;
  /** The source's page of the service: its row's detail URL, as a service's sourceUrl. */
  sourceUrl: string;
  status: "listed" | "delisted";
  firstSeenAt: Date;
  lastSeenAt: Date;
}

export interface ServiceDetail {
  service: ServiceRecord;
  endpoints: EndpointDetail[];
  sources: SourceListing[];
  probe: ProbeSummary;
  trust: TrustRecord;
  /** The entry's observed payments with their daily series over 30 days; null when none is read. */
  observed: (ObservedJson & { daily: DailyFigures[] }) | null;
}

/** A payment option `po` (with its source `src`) field by field: one list for rows and for JSON. */
const OPTION_FIELDS: Array<[keyof PaymentOptionRecord, Prisma.Sql]> = [
  ["origin", Prisma.sql`po.origin::text`],
  ["source", Prisma.sql`src.base_url`],
  [
    "sourceUrl",
    Prisma.sql`CASE WHEN po.origin = 'listing' THEN (SELECT os.detail_url FROM endpoints oe
      JOIN services os ON os.id = oe.service_id WHERE oe.id = po.endpoint_id) END`,
  ],
  ["sourceKind", Prisma.sql`src.kind::text`],
  ["scheme", Prisma.sql`po.scheme`],
  ["network", Prisma.sql`po.network`],
  ["networkName", Prisma.sql`po.network_name`],
  ["asset", Prisma.sql`po.asset`],
  ["assetSymbol", Prisma.sql`po.asset_symbol`],
  ["amountAtomic", Prisma.sql`po.amount_atomic::text`],
  ["priceUsdc", decimalText(Prisma.sql`po.price_usdc`)],
  ["payTo", Prisma.sql`po.pay_to`],
  ["maxTimeoutSeconds", Prisma.sql`po.max_timeout_seconds`],
  ["warnings", Prisma.sql`po.warnings`],
  ["payable", Prisma.sql`po.payable`],
  ["unpayableReasons", Prisma.sql`po.unpayable_reasons`],
  ["observedAt", Prisma.sql`po.observed_at`],
];

/** An endpoint's options in their stored order, listings first. */
export const OPTION_ORDER = Prisma.sql`po.origin, po.position, po.id`;

/** The select list of a payment option `po` with its source `src`, as PaymentOptionRecord's fields. */
export const PAYMENT_OPTION_COLUMNS = Prisma.join(
  OPTION_FIELDS.map(([name, value]) => Prisma.sql`${value} AS ${Prisma.raw(`"${name}"`)}`),
);

/** Every endpoint's payment options by endpoint id, listings first, in their stored order. */
export async function allPaymentOptions(
  pool: Queryable,
  /** Only these endpoints' options (an in-place refresh); every endpoint's when absent. */
  endpointIds?: readonly string[],
): Promise<Map<string, PaymentOptionRecord[]>> {
  const scope =
    endpointIds === undefined ? Prisma.empty : Prisma.sql`WHERE po.endpoint_id = ANY(${endpointIds}::uuid[])`;
  const rows = await queryRows<PaymentOptionRecord & { endpointId: string }>(
    pool,
    Prisma.sql`
      SELECT po.endpoint_id AS "endpointId", ${PAYMENT_OPTION_COLUMNS}
      FROM payment_options po LEFT JOIN sources src ON src.id = po.source_id
      ${scope}
      ORDER BY po.endpoint_id, ${OPTION_ORDER}`,
  );
  const byEndpoint = new Map<string, PaymentOptionRecord[]>();
  for (const { endpointId, ...option } of rows) {
    const options = byEndpoint.get(endpointId);
    if (options) options.push(option);
    else byEndpoint.set(endpointId, [option]);
  }
  return byEndpoint;
}

/** JSON array of the fields of `rows` (a FROM … WHERE tail), in `order`; [] when none. */
function jsonArray(fields: Array<[string, Prisma.Sql]>, rows: Prisma.Sql, order: Prisma.Sql): Prisma.Sql {
  const pairs = fields.map(([name, value]) => Prisma.sql`${Prisma.raw(`'${name}'`)}, ${value}`);
  return Prisma.sql`(SELECT coalesce(json_agg(json_build_object(${Prisma.join(pairs)}) ORDER BY ${order}), '[]') ${rows})`;
}

/** Every row of the entry `s` as its source lists it: provenance of what the entry shows. */
const ENTRY_SOURCES = jsonArray(
  [
    ["kind", Prisma.sql`src.kind`],
    ["source", Prisma.sql`src.base_url`],
    ["sourceUrl", Prisma.sql`m.detail_url`],
    ["status", Prisma.sql`m.status`],
    ["firstSeenAt", Prisma.sql`m.first_seen_at`],
    ["lastSeenAt", Prisma.sql`m.last_seen_at`],
  ],
  Prisma.sql`FROM services m JOIN sources src ON src.id = m.source_id WHERE ${isEntryMember("m", "s")}`,
  Prisma.sql`(m.id = s.id) DESC, m.first_seen_at, m.id`,
);

/** The trust columns of the endpoint or service aliased `alias`, as JSON (times as text). */
function trustJson(alias: string): Prisma.Sql {
  const a = Prisma.raw(alias);
  const checks = alias === "e" ? Prisma.sql`${a}.checks` : Prisma.sql`NULL::jsonb`;
  return Prisma.sql`json_build_object('health', ${a}.health, 'healthReason', ${a}.health_reason,
    'healthChangedAt', ${a}.health_changed_at, 'checks', ${checks}, 'grade', ${a}.grade, 'score', ${a}.score,
    'warnings', to_jsonb(${a}.trust_warnings))`;
}

type TrustJson = AsJson<TrustRecord, "healthChangedAt"> & { healthChangedAt: string | null };

const trustOf = (json: TrustJson): TrustRecord => ({
  ...json,
  healthChangedAt: json.healthChangedAt === null ? null : new Date(json.healthChangedAt),
});

/** Endpoints of every row of the entry `s`, the primary's first, each row's in page order. */
function entryEndpoints(asOf: Prisma.Sql): Prisma.Sql {
  return jsonArray(
    [
      ["method", Prisma.sql`e.method`],
      ["url", Prisma.sql`e.url`],
      ["description", Prisma.sql`e.description`],
      ["listingCall", Prisma.sql`e.call_description`],
      ["liveCall", Prisma.sql`e.probe_call_description`],
      ["selfReported", Prisma.sql`e.self_reported`],
      ["listedSince", Prisma.sql`m.first_seen_at`],
      ["payToSharedWith", payToSharedWith("e", "m")],
      [
        "paymentOptions",
        jsonArray(
          OPTION_FIELDS,
          Prisma.sql`FROM payment_options po LEFT JOIN sources src ON src.id = po.source_id WHERE po.endpoint_id = e.id`,
          OPTION_ORDER,
        ),
      ],
      ["probe", endpointProbeJson("e", asOf)],
      ["drift", latestDriftJson("e", asOf)],
      ["trust", trustJson("e")],
      ["observed", Prisma.sql`(SELECT ea.observed FROM endpoint_activity ea WHERE ea.endpoint_id = e.id)`],
    ],
    Prisma.sql`FROM services m JOIN endpoints e ON e.service_id = m.id WHERE ${isEntryMember("m", "s")}`,
    Prisma.sql`(m.id = s.id) DESC, m.first_seen_at, m.id, e.position, e.id`,
  );
}

/** JSON leaves timestamps as ISO 8601 text. */
type AsJson<T, DateFields extends keyof T> = Omit<T, DateFields> & Record<DateFields, string>;

type OptionJson = AsJson<PaymentOptionRecord, "observedAt">;

interface EndpointJson {
  method: string;
  url: string;
  description: string | null;
  listingCall: CallDescription | null;
  liveCall: CallDescription | null;
  selfReported: SelfReported | null;
  listedSince: string;
  payToSharedWith: number | null;
  paymentOptions: OptionJson[];
  probe: ProbeJson;
  drift: Parameters<typeof driftOf>[0];
  trust: TrustJson;
  observed: ObservedJson | null;
}

interface DetailRow extends ServiceRecord {
  trustRow: TrustJson;
  endpointRows: EndpointJson[];
  sourceRows: AsJson<SourceListing, "firstSeenAt" | "lastSeenAt">[];
  probeRow: ProbeJson;
  observedRow: ObservedJson | null;
  dailyRows: DailyFigures[];
}

/** The entry's observed daily figures over the 30 days before `asOf`, oldest first. */
function entryDaily(asOf: Prisma.Sql): Prisma.Sql {
  const figures = (prefix: string) =>
    Prisma.sql`json_build_object('volume_usdc', d.${Prisma.raw(`${prefix}volume_usdc`)}::text,
      'tx_count', d.${Prisma.raw(`${prefix}tx_count`)}, 'unique_payers', d.${Prisma.raw(`${prefix}unique_payers`)})`;
  return Prisma.sql`(SELECT coalesce(json_agg(json_build_object('day', d.day, 'raw', ${figures("")},
      'adjusted', ${figures("adjusted_")}) ORDER BY d.day), '[]')
    FROM service_activity_days d WHERE d.service_id = s.id AND d.day > (${asOf} - interval '30 days')::date)`;
}

const optionOf = (json: OptionJson): PaymentOptionRecord => ({
  ...json,
  observedAt: new Date(json.observedAt),
});

/**
 * The same endpoint (method and URL) listed by two sources is shown once, under the first row's
 * description and probe, with the payment options of both (each option names its source).
 */
function mergeEndpoints(rows: EndpointJson[], asOf: Date): EndpointDetail[] {
  const byKey = new Map<string, Omit<EndpointDetail, "payability">>();
  for (const row of rows) {
    const key = `${row.method} ${row.url}`;
    const options = row.paymentOptions.map(optionOf);
    const found = byKey.get(key);
    if (found) {
      found.paymentOptions.push(...options);
      found.description ??= row.description;
      found.call ??= chooseCall(row.listingCall, row.liveCall);
      found.selfReported ??= row.selfReported;
    } else {
      const { method, url, description } = row;
      const probe = probeSummaryOf(row.probe, asOf);
      byKey.set(key, {
        method,
        url,
        description,
        paymentOptions: options,
        probe,
        call: chooseCall(row.listingCall, row.liveCall),
        selfReported: row.selfReported,
        evidence: endpointEvidence(row.payToSharedWith, probe, new Date(row.listedSince), asOf),
        drift: driftOf(row.drift),
        trust: trustOf(row.trust),
        observed: row.observed,
      });
    }
  }
  // Judged once every source's options are gathered: the verdict weighs them all.
  return [...byKey.values()].map((endpoint) => ({
    ...endpoint,
    payability: judgeEndpoint(endpoint.paymentOptions, endpoint.probe.lastProbe?.statusCode ?? null),
  }));
}

/** Built once: the text is large, and only the row id ($1) and the end of probe windows ($2) vary. */
const DETAIL = fixedStatement(Prisma.sql`
  SELECT ${SERVICE_COLUMNS}, ${entryEndpoints(Prisma.raw("$2::timestamptz"))} AS "endpointRows",
    ${ENTRY_SOURCES} AS "sourceRows", ${entryProbeJson("s", Prisma.raw("$2::timestamptz"))} AS "probeRow",
    ${trustJson("s")} AS "trustRow",
    (SELECT sa.observed FROM service_activity sa WHERE sa.service_id = s.id) AS "observedRow",
    ${entryDaily(Prisma.raw("$2::timestamptz"))} AS "dailyRows"
  FROM ${fromEntryOfRow(Prisma.raw("$1::uuid"))}`);

/**
 * The entry that `id` belongs to: the id of any of its rows answers the whole entry under its
 * primary's id (so links to a Bazaar row keep working after a merge); null when no row has it.
 * Probe windows end at `asOf`.
 */
export async function getServiceDetail(
  pool: ReadPool,
  id: string,
  asOf: Date = new Date(),
): Promise<ServiceDetail | null> {
  const {
    rows: [row],
  } = await pool.query<DetailRow>({ ...DETAIL, values: [id, asOf] });
  if (!row) return null;
  const { endpointRows, sourceRows, probeRow, trustRow, observedRow, dailyRows, ...service } = row;
  return {
    service,
    trust: trustOf(trustRow),
    endpoints: mergeEndpoints(endpointRows, asOf),
    sources: sourceRows.map((source) => ({
      ...source,
      firstSeenAt: new Date(source.firstSeenAt),
      lastSeenAt: new Date(source.lastSeenAt),
    })),
    probe: probeSummaryOf(probeRow, asOf),
    observed: observedRow ? { ...observedRow, daily: dailyRows } : null,
  };
}
