import { setTimeout as sleep } from "node:timers/promises";
import type { Config } from "../config/config";
import { type CrawlSettings, crawlSettingsFromConfig } from "../crawl-run/settings";
import type { Database } from "../db/prisma-client";
import type { ReadPool } from "../db/read-pool";
import type { Logger } from "../logging/logger";
import { HostRateLimiter } from "../probe/rate-limit";
import { type HostResolver, systemResolver } from "../probe/resolve-target";
import { type ProbeSettings, probeSettingsFromConfig } from "../probe/settings";
import { AddressPolicy } from "../probe/ssrf-guard";
import { manifestSettingsFrom } from "../sources/origin-manifest/manifest-settings";
import type { OriginCheckDeps } from "./check-origin";
import { HourlyAllowance } from "./hourly-allowance";
import {
  findRegistration,
  type Registration,
  type RegistrationTarget,
  type Submitter,
  submitRegistration,
} from "./registrations";
import { type IndexDependencies, type ReindexResult, reindexOrigin } from "./reindex";
import { type RegistrationSettings, registrationSettingsFromConfig } from "./settings";

/** How long a submission waits for another check of its origin to end before answering pending. */
const CHECK_WAIT_MS = 30_000;
const LOCK_RETRY_MS = 250;

/** Refused by a limit; `retryAfterSeconds` says when to ask again. */
export class RegistrationLimited extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = "RegistrationLimited";
  }
}

export interface RegisterResult {
  registration: Registration;
}

/** The probe and manifest settings an origin check uses: the probes' limits, address guard and per-host pace. */
export function originCheckDeps(
  probe: Pick<
    ProbeSettings,
    "timeoutMs" | "maxResponseBytes" | "maxRedirects" | "userAgent" | "allowedNetworks" | "perHostPerMinute"
  >,
  crawl: CrawlSettings,
  resolve: HostResolver = systemResolver,
): Omit<OriginCheckDeps, "db"> {
  const policy = new AddressPolicy(probe.allowedNetworks);
  const limits = { timeoutMs: probe.timeoutMs, maxRedirects: probe.maxRedirects };
  const manifestBytes = manifestSettingsFrom(crawl).maxBytes;
  return {
    probe: {
      settings: { ...limits, maxResponseBytes: probe.maxResponseBytes, userAgent: probe.userAgent },
      policy,
      resolve,
    },
    manifest: {
      settings: { ...limits, maxResponseBytes: manifestBytes, userAgent: crawl.userAgent },
      policy,
      resolve,
    },
    hosts: new HostRateLimiter(probe.perHostPerMinute),
  };
}

/**
 * Registrations and re-indexes on demand, as the REST routes and the MCP tool take them: the
 * limits (anonymous submissions per address, re-indexes per origin, shared by every process) and
 * the check itself, answered within the request: a submission returns once its origin was
 * checked and what passed is stored (or pending, when another check of the origin held it up
 * past CHECK_WAIT_MS).
 */
export class Registrar {
  private readonly anonymous: HourlyAllowance;
  private readonly reindexes: HourlyAllowance;

  constructor(
    readonly deps: IndexDependencies,
    pool: ReadPool,
    readonly settings: RegistrationSettings,
  ) {
    this.anonymous = new HourlyAllowance(pool, "register", settings.anonymousPerHour);
    this.reindexes = new HourlyAllowance(pool, "reindex", settings.reindexPerOriginPerHour);
  }

  find(id: string): Promise<Registration | null> {
    return findRegistration(this.deps.db, id);
  }

  /**
   * Registers a URL or an origin. A target submitted before is the same registration: a listed
   * one is answered as it is; a refused or pending one is checked again. An anonymous submitter
   * spends its hourly allowance first (a key is limited by its plan, at the request guard).
   */
  async register(target: RegistrationTarget, submitter: Submitter): Promise<RegisterResult> {
    if (submitter.kind === "anonymous") {
      const decision = await this.anonymous.take(submitter.address);
      if (!decision.allowed) {
        throw new RegistrationLimited(
          `at most ${this.settings.anonymousPerHour} registrations an hour from one address without a key; ` +
            `try again in ${decision.retryAfterSeconds} s, or use a key with the scope catalogue:register`,
          decision.retryAfterSeconds,
        );
      }
    }
    const { registration, created } = await submitRegistration(this.deps.db, target, submitter);
    if (!created && registration.state === "listed") return { registration };
    const result = await this.checkOrigin(target.origin);
    const checked = result.registrations.find((r) => r.id === registration.id);
    return { registration: checked ?? (await this.find(registration.id)) ?? registration };
  }

  /** Re-indexes an origin now, within its hourly limit. */
  async reindex(origin: string): Promise<ReindexResult> {
    const decision = await this.reindexes.take(origin);
    if (!decision.allowed) {
      throw new RegistrationLimited(
        `${origin} may be re-indexed at most ${this.settings.reindexPerOriginPerHour} times an hour; ` +
          `try again in ${decision.retryAfterSeconds} s`,
        decision.retryAfterSeconds,
      );
    }
    return this.checkOrigin(origin);
  }

  /** One check of the origin, waiting for a check under way elsewhere to end first. */
  private async checkOrigin(origin: string): Promise<ReindexResult> {
    const deadline = Date.now() + CHECK_WAIT_MS;
    for (;;) {
      const result = await reindexOrigin(this.deps, origin, "manual");
      if (result.ran || Date.now() >= deadline) return result;
      await sleep(LOCK_RETRY_MS);
    }
  }
}

/** The registrar of a process, from the config: the probes' limits and guard, the crawl's writes. */
export function registrarFromConfig(
  config: Config,
  parts: { db: Database; pool: ReadPool; databaseUrl: string; logger: Logger },
): Registrar {
  const crawl = crawlSettingsFromConfig(config);
  const check = originCheckDeps(probeSettingsFromConfig(config), crawl);
  const { db, databaseUrl, logger, pool } = parts;
  return new Registrar(
    { db, databaseUrl, logger, settings: crawl, check },
    pool,
    registrationSettingsFromConfig(config),
  );
}
