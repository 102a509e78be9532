import { z } from "zod";
import { activityChainsSchema } from "../activity/activity-chains";
import { settlementChainsSchema } from "../billing/settlement-chains";
import { redactSecrets } from "../logging/safe-error";
import { sourcesSettingSchema } from "../sources/source-spec";
import { deliverySettings } from "./delivery-settings";
import { ownershipSettings } from "./ownership-settings";
import { registrationSettings } from "./registration-settings";
import {
  booleanFlag,
  cidrList,
  cronExpression,
  duration,
  jsonSetting,
  positiveInt,
  siteOverridesSchema,
} from "./setting-schemas";
import { trustSettings } from "./trust-settings";
import { x402CatalogueSettings } from "./x402-settings";

/**
 * The one place that reads the environment. Every setting has a name, a default and a
 * description; `npm run docs` renders them into docs/configuration.md (settings-doc.ts). A bad
 * value stops the process with a message naming the variable and what is allowed.
 */

const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .meta({ allowed: "an http(s) URL" });
const postgresUrl = z
  .url({
    protocol: /^postgres(ql)?$/,
    error: "must be a postgres:// or postgresql:// URL",
  })
  .meta({ allowed: "a postgres:// or postgresql:// URL, e.g. postgresql://user:pass@host:5432/db" });

const port = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .min(0, "must be between 0 and 65535")
  .max(65535, "must be between 0 and 65535");

/** Express's "trust proxy" without `true`, which would believe any X-Forwarded-For. */
const trustProxySetting = z
  .string()
  .default("false")
  .transform((value, context): false | number | string[] => {
    const text = value.trim();
    if (text === "false") return false;
    if (/^\d+$/.test(text)) return Number(text);
    const entries = text.split(",").map((entry) => entry.trim());
    const valid = z.union([
      z.ipv4(),
      z.ipv6(),
      z.cidrv4(),
      z.cidrv6(),
      z.enum(["loopback", "linklocal", "uniquelocal"]),
    ]);
    if (entries.every((entry) => valid.safeParse(entry).success)) return entries;
    context.addIssue({
      code: "custom",
      message:
        "must be false, a hop count, or a comma list of addresses, CIDR ranges, loopback, linklocal, uniquelocal",
    });
    return z.NEVER;
  })
  .meta({
    allowed:
      "false, a hop count, or a comma list of addresses, CIDR ranges, loopback, linklocal, uniquelocal (true is refused)",
  });

export const settings = {
  DATABASE_URL: {
    schema: postgresUrl.optional(),
    description:
      "Postgres to use. Unset: an embedded Postgres 17 is started with its data in CATALOGUE_DATA_DIR.",
  },
  CATALOGUE_DATA_DIR: {
    schema: z.string().min(1).default("./.data"),
    description:
      "Where the embedded Postgres keeps its data and its password, and where the generated webhook secret key is kept (all kept across restarts).",
  },
  EMBEDDED_POSTGRES_PORT: {
    schema: port.default(54329),
    description: "Preferred port of the embedded Postgres; a free one is picked when it is taken.",
  },
  HOST: { schema: z.string().min(1).default("0.0.0.0"), description: "Interface the HTTP API listens on." },
  PORT: { schema: port.default(3000), description: "Port of the HTTP API." },
  HTTP_HEADERS_TIMEOUT: {
    schema: duration.prefault("10s"),
    description:
      "Most time a client may take to send its request line and headers (duration: 10s, 1m); a slower one is answered 408 and disconnected (at most HTTP_REQUEST_TIMEOUT). Idle keep-alive connections close after 5 s, or half of this when shorter.",
  },
  HTTP_REQUEST_TIMEOUT: {
    schema: duration.prefault("30s"),
    description:
      "Most time a client may take to send a whole request, body included (duration: 30s, 2m); a slower one is answered 408 and disconnected. Answers, however long they stream (CSV exports), are not limited.",
  },
  METRICS_ENABLED: {
    schema: booleanFlag.default(true),
    description:
      "Whether npm start and npm run worker serve Prometheus metrics at GET /metrics (request rates and latencies, crawls, probes, webhooks, settlement lag, catalogue reloads, event-loop lag, database pools).",
  },
  METRICS_PORT: {
    schema: port.optional(),
    description:
      "A port of its own for GET /metrics (on HOST), so the metrics need not be public; the API's port then does not serve them. Unset: the API's port serves them and a worker serves none.",
  },
  API_CACHE_TTL_SECONDS: {
    schema: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be between 0 and 60")
      .max(60, "must be between 0 and 60")
      .default(10),
    description:
      "How long the API reuses an answer for the same request (0: never). Answers promise max-age=60.",
  },
  API_CACHE_MAX_ENTRIES: {
    schema: positiveInt(100_000).default(2_000),
    description:
      "Most answers the API keeps in its cache (least recently used go first); answers over 512 KB are not kept.",
  },
  API_INDEX_REFRESH_SECONDS: {
    schema: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be between 0 and 3600")
      .max(3600, "must be between 0 and 3600")
      .default(60),
    description:
      "How often the API checks whether the catalogue changed and updates its in-memory index (0: before every request, waiting for the reload). Crawls and probe workers announce their writes (NOTIFY), which updates at once; this check catches edits by hand and missed announcements.",
  },
  CATALOGUE_IMAGES: {
    schema: booleanFlag.default(true),
    description:
      "Start from the newest image of the in-memory catalogue stored in Postgres (table catalogue_images; an image older than 23 hours is not read) and store one after loads of catalogues of 20,000 endpoints or more (about 250 MB at 100,000 services). false: always build it from the rows.",
  },
  LOG_LEVEL: {
    schema: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        error: "must be one of fatal, error, warn, info, debug, trace, silent",
      })
      .default("info"),
    description: "Log level. Logs are JSON, or pretty-printed when stdout is a terminal.",
  },
  DIRECTORY_URL: {
    schema: httpUrl.optional(),
    description:
      "Listing URL of an HTML directory to crawl on the schedule (and the default of `npm run crawl`).",
  },
  SOURCES: {
    schema: sourcesSettingSchema
      .meta({ allowed: "a JSON array of sources (kind, url or origins), or none" })
      .optional(),
    description:
      'Sources to crawl on the schedule, one after another: a JSON array such as [{"kind":"bazaar","url":"https://…/discovery/resources"},{"kind":"html_directory","url":"https://…"},{"kind":"origin_manifest","origins":["https://…"]}] (origin_manifest: the /.well-known/x402 of every catalogue origin plus `origins`; at most one, best last), or `none` for no crawl at all. Wins over DIRECTORY_URL; with neither set, the public CDP Bazaar feed is crawled, then the manifest of every origin in the catalogue.',
  },
  CRAWL_SCHEDULE: {
    schema: cronExpression.default("0 * * * *"),
    description: "Cron expression (UTC) of the scheduled crawl. Default: hourly, on the hour.",
  },
  CRAWL_MAX_CONCURRENCY: {
    schema: positiveInt(200).default(4),
    description: "Most requests a crawl has in flight at once.",
  },
  CRAWL_MAX_REQUESTS_PER_MINUTE: {
    schema: positiveInt(1_000_000).default(240),
    description:
      "Request-rate ceiling of a crawl, per source (a discovery feed is walked one page at a time, this far apart).",
  },
  CRAWL_MAX_RETRIES: {
    schema: z.coerce
      .number()
      .int()
      .min(0, "must be between 0 and 10")
      .max(10, "must be between 0 and 10")
      .default(3),
    description:
      "Retries of a page after a 5xx, 408, 429, timeout, refused connection or DNS failure, with exponential backoff and jitter (Retry-After honoured).",
  },
  CRAWL_REQUEST_TIMEOUT_SECONDS: {
    schema: positiveInt(600).default(30),
    description: "Time limit of one page request.",
  },
  CRAWL_MAX_PAGE_BYTES: {
    schema: positiveInt(1_073_741_824).default(5_242_880),
    description: "Largest page accepted; larger responses are rejected and recorded.",
  },
  CRAWL_MAX_LISTING_PAGES: {
    schema: positiveInt(1_000_000).default(2000),
    description:
      "Most listing (or feed) pages one crawl follows where the listing states no page count: a guard against pagination loops. A walk the guard stops is partial (exit code 3) and delists nothing.",
  },
  CRAWL_RUN_MINUTES: {
    schema: positiveInt(10_080).default(50),
    description:
      "Minutes of requests one directory crawl may plan at CRAWL_MAX_REQUESTS_PER_MINUTE: every listing page is read each run; detail pages get the rest, never-read ones first, then the least recently checked; the others wait for a later run.",
  },
  CRAWL_EXTRACTION_THREADS: {
    schema: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be between 0 and 16")
      .max(16, "must be between 0 and 16")
      .optional(),
    description:
      "Worker threads reading pages during a crawl (0: on the main thread). Default: cores − 1, 1 to 4.",
  },
  CRAWL_RESPECT_ROBOTS_TXT: {
    schema: booleanFlag.default(true),
    description: "Honour the directory's robots.txt.",
  },
  CRAWL_USER_AGENT: {
    schema: z.string().min(1).default("x402-catalogue/0.1 (x402 service catalogue crawler)"),
    description:
      "User-Agent sent by the crawler. Put your contact in it when you crawl other people's sites.",
  },
  SITE_OVERRIDES: {
    schema: jsonSetting(
      siteOverridesSchema,
      '{"dir.example":{"labels":{"uptime30d":["Verfügbarkeit"]}}}',
    ).optional(),
    description:
      "JSON map of directory host to extra label wording per field, on top of the built-in meaning-based extraction. Fields: uptime30d, avgResponse30d, infoUpdated, volume30d, txCount30d, payerCount30d, category, tags, endpoints, name, domain, description.",
  },
  PROBE_ENABLED: {
    schema: booleanFlag.default(true),
    description:
      "Live probes of endpoints (one unpaid request each). false: this process neither schedules nor probes.",
  },
  PROBE_SCHEDULE: {
    schema: cronExpression.default("30 * * * *"),
    description:
      "Cron expression (UTC) of the probe sweep; it fires once across all processes. Default: hourly at :30.",
  },
  PROBE_CONCURRENCY: {
    schema: positiveInt(500).default(8),
    description: "Most probes one process (`npm start` or `npm run worker`) has in flight at once.",
  },
  PROBE_PER_HOST_PER_MINUTE: {
    schema: positiveInt(1_000_000).default(60),
    description:
      "Probes per minute to one host: sweeps space each host's jobs this far apart, and each process enforces it again.",
  },
  PROBE_TIMEOUT_MS: {
    schema: positiveInt(120_000).default(10_000),
    description: "Time limit of one probe, redirects and reading the answer included.",
  },
  PROBE_MAX_RESPONSE_BYTES: {
    schema: positiveInt(104_857_600).default(262_144),
    description: "Most bytes of an answer a probe reads (after decompression); the rest is not read.",
  },
  PROBE_ALLOWED_NETWORKS: {
    schema: cidrList(),
    description:
      "Private, loopback or other non-public ranges that probes and origin-manifest fetches may reach anyway (CIDR list). Cloud metadata addresses stay refused.",
  },
  PROBE_USER_AGENT: {
    schema: z.string().min(1).default("x402-catalogue/0.1 (x402 endpoint probe)"),
    description: "User-Agent sent by probes.",
  },
  ...trustSettings,
  // Accounts (src/accounts): proxies, rate limits, usage.
  TRUST_PROXY: {
    schema: trustProxySetting,
    description:
      "Which proxies may tell the client address (X-Forwarded-For) that anonymous rate limits count by: false (none: the connection's address), a hop count, or a comma list of addresses, CIDR ranges, loopback, linklocal, uniquelocal.",
  },
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: {
    schema: positiveInt(100_000_000).default(120),
    description:
      "Requests a minute from one client address without a valid key, shared by every API process. Keys are limited by their organisation's plan (table plans).",
  },
  RATE_LIMIT_ANONYMOUS_CSV_ROWS_PER_DAY: {
    schema: positiveInt(1_000_000_000).default(10_000),
    description:
      "CSV rows one client address without a key may export in 24 hours (the Free plan's allowance), shared by every API process. An export reserves its rows before it sends any and is never cut off: at most the one export that crosses the allowance goes past it. Keys export their organisation plan's csv_rows_per_day per environment.",
  },
  EXPORT_CONCURRENCY_PER_CALLER: {
    schema: positiveInt(1000).default(2),
    description:
      "CSV exports one caller (an organisation's environment, or a client address without a key) may stream at once from one API process; more are answered 429 with Retry-After.",
  },
  EXPORT_CONCURRENCY_PER_PROCESS: {
    schema: positiveInt(10_000).default(8),
    description:
      "CSV exports one API process streams at once, whoever asks (each holds a database cursor and a batch of rows in memory); more are answered 429 with Retry-After.",
  },
  USAGE_FLUSH_SECONDS: {
    schema: positiveInt(3600).default(10),
    description:
      "How often each API process writes its counted key usage to Postgres (a crash loses at most this much).",
  },
  // Billing (src/billing): USDC settlement.
  SETTLEMENT_CHAINS: {
    schema: jsonSetting(
      settlementChainsSchema,
      '[{"chain":"base","rpc_url":"https://…","usdc_contract":"0x8335…2913","confirmations":12,"xpub":"xpub…"}]',
    ).default([]),
    description:
      "Chains payment orders accept and settle on: a JSON array of {chain, rpc_url, usdc_contract, confirmations, xpub, start_block?, address_rest_seconds?}. xpub is an extended PUBLIC key; deposit addresses are its children 0/i. address_rest_seconds (default 86400) is how long a released deposit address rests before another order gets it. Default: none (payment orders cannot be created).",
  },
  SETTLEMENT_POLL_SECONDS: {
    schema: positiveInt(3600).default(15),
    description:
      "Pause between a settlement watcher's rounds (new confirmed blocks, due expiries). One process per chain watches (advisory lock).",
  },
  SUBSCRIPTION_GRACE_HOURS: {
    schema: positiveInt(336).default(72),
    description:
      "How long a subscription invoice may stay unpaid: a first or upgrade invoice is due (and its order expires) this long after it is issued; a renewal invoice is due this long after its period starts (then the subscription is past_due and its organisation back on the free plan), and payable for as long again (then the subscription is canceled).",
  },
  RENEWAL_POLL_SECONDS: {
    schema: positiveInt(3600).default(60),
    description:
      "Pause between rounds of the renewal job (period ends, scheduled plan changes, renewal invoices, past_due). Every npm start process runs it; a transaction advisory lock lets one process at a time do a round.",
  },
  // Chain activity (src/activity): what watched pay_tos are paid on chain.
  ACTIVITY_CHAINS: {
    schema: jsonSetting(
      activityChainsSchema,
      '[{"chain":"eip155:8453","rpc_url":"https://…","usdc_contract":"0x8335…2913","confirmations":12}]',
    ).default([]),
    description:
      "Chains whose USDC Transfer logs to and from every catalogued pay_to are read: a JSON array of {chain (CAIP-2), rpc_url, usdc_contract, confirmations, backfill_days? (30), start_block?, max_block_range? (2000), addresses_per_request? (100), requests_per_second? (10)}. A new pay_to is read from start_block, else from backfill_days back. The last three fit the RPC endpoint's limits (a refused range halves and grows back). Default: none (no observed figures).",
  },
  ACTIVITY_POLL_SECONDS: {
    schema: positiveInt(3600).default(60),
    description:
      "Pause between rounds of the chain-activity reader (new confirmed blocks, new pay_tos, figures and flags). One process per chain reads (advisory lock), in npm start and npm run worker alike.",
  },
  ...deliverySettings,
  ...registrationSettings,
  ...x402CatalogueSettings,
  ...ownershipSettings,
} as const;

type Settings = typeof settings;
/** Settings whose value a problem message must not repeat (keys). */
const isSecret = (setting: Settings[keyof Settings]) => "secret" in setting && setting.secret;
export type Config = { [K in keyof Settings]: z.output<Settings[K]["schema"]> };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** One message per problem; a problem inside a JSON value names where it is (`dir.example.labels`). */
function describeIssues(issues: z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      // Paths name places inside JSON objects; an index into a comma-separated list says nothing.
      const where = issue.path.some((key) => typeof key === "string") ? issue.path.map(String).join(".") : "";
      const what =
        issue.code === "unrecognized_keys" ? `unknown key(s) ${issue.keys.join(", ")}` : issue.message;
      return where ? `${where}: ${what}` : what;
    })
    .join("; ");
}

/** Empty strings count as unset, as most shells and compose files write them. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(settings) as [string, Settings[keyof Settings]][]) {
    const raw = env[name];
    const result = setting.schema.safeParse(raw === "" ? undefined : raw);
    if (result.success) values[name] = result.data;
    else {
      const shown = isSecret(setting) ? "(hidden)" : JSON.stringify(redactSecrets(raw ?? ""));
      problems.push(`${name}=${shown}: ${describeIssues(result.error.issues)}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values as Config;
}
