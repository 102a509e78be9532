import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import { emitEvents } from "../events/emit";
import { pruneEvents } from "../events/event-queries";
import type { Logger } from "../logging/logger";
import { metrics } from "../metrics/metrics";
import { sendHop } from "../probe/http-hop";
import { JobPump } from "../probe/pump";
import { type HostResolver, systemResolver } from "../probe/resolve-target";
import { AddressPolicy } from "../probe/ssrf-guard";
import { ClaimerSession, releaseClaims, releaseOrphanedClaims } from "./claimer-session";
import {
  type AttemptRecord,
  claimDueDeliveries,
  type DueDelivery,
  recordAttempts,
  type SettledAttempt,
} from "./deliveries";
import { ReceiverAgents } from "./receiver-agents";
import type { SecretKeyRing } from "./secret-keys";
import { signingSecrets } from "./secrets";
import { retryDelayMs, type WebhookSettings } from "./settings";
import { signatureHeaders } from "./sign";
import { vetWebhookUrl } from "./url-guard";
import { WriteBatcher } from "./write-batcher";

export interface DeliveryDeps {
  db: Database;
  settings: WebhookSettings;
  /** Opens the endpoints' sealed secrets. */
  keys: SecretKeyRing;
  logger: Logger;
  /** Injected in tests (secret rotation, failure windows); real time otherwise. */
  now?: () => Date;
  resolve?: HostResolver;
  /** Keep-alive connections to receivers (the worker's); without them each attempt connects anew. */
  agents?: ReceiverAgents;
  /** Writes an attempt's outcome; the worker batches them (write-batcher.ts), tests write each at once. */
  settle?: (settled: SettledAttempt) => Promise<void>;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What the receiver gets: the event, without data.metadata when the endpoint asks for that. */
export function deliveryBody(delivery: DueDelivery): string {
  const { event, endpoint } = delivery;
  if (!endpoint.redactMetadata || !("metadata" in event.data)) return JSON.stringify(event);
  const { metadata: _removed, ...data } = event.data;
  return JSON.stringify({ ...event, data });
}

/** One POST, signed with every valid secret; a 2xx within the time limit is a success. */
async function attempt(
  deps: DeliveryDeps,
  policy: AddressPolicy,
  delivery: DueDelivery,
  at: Date,
): Promise<AttemptRecord> {
  const started = performance.now();
  const record = (responseStatus: number | null, error: string | null): AttemptRecord => ({
    attemptedAt: at,
    durationMs: Math.round(performance.now() - started),
    responseStatus,
    error,
    succeeded: error === null && responseStatus !== null && responseStatus >= 200 && responseStatus < 300,
  });
  // Vetted again on every attempt: the name may resolve elsewhere since the endpoint was saved.
  const check = await vetWebhookUrl(delivery.endpoint.url, policy, deps.resolve ?? systemResolver);
  if (!check.ok) {
    deps.logger.debug({ endpointId: delivery.endpoint.id, detail: check.detail }, "webhook URL refused");
    return record(null, `refused: ${check.reason}`);
  }
  const body = deliveryBody(delivery);
  let secrets: string[];
  try {
    const { endpoint } = delivery;
    secrets = signingSecrets(endpoint, at).map((sealed) => deps.keys.open(sealed, endpoint.id));
  } catch (error) {
    deps.logger.error({ endpointId: delivery.endpoint.id, err: error }, "a webhook secret cannot be opened");
    return record(null, "the endpoint's secret cannot be read by this process (see its log)");
  }
  try {
    // Redirects are not followed: a 3xx is a failed attempt, so a redirect can never reach a
    // host the guard did not vet.
    const response = await sendHop({
      target: check.target,
      method: "POST",
      jsonBody: body,
      userAgent: deps.settings.userAgent,
      extraHeaders: signatureHeaders(delivery.event.id, at, body, secrets),
      maxBytes: 4096,
      signal: AbortSignal.timeout(deps.settings.timeoutMs),
      agent: deps.agents?.agentFor(check.target),
    });
    const ok = response.status >= 200 && response.status < 300;
    return record(response.status, ok ? null : `answered ${response.status}`);
  } catch (error) {
    return record(null, message(error));
  }
}

/**
 * Attempts one claimed delivery and settles it with its log row (through `deps.settle`). A failure
 * schedules a jittered retry until the 3-day window ends; an endpoint whose failures go back 3
 * days is disabled, and its owner's other endpoints get a webhook_endpoint.disabled event.
 */
export async function deliver(
  deps: DeliveryDeps,
  policy: AddressPolicy,
  delivery: DueDelivery,
): Promise<AttemptRecord> {
  const now = deps.now ?? (() => new Date());
  const at = now();
  const result = await attempt(deps, policy, delivery, at);
  const { settings } = deps;
  const windowOver = at.getTime() - delivery.createdAt.getTime() >= settings.retryWindowMs;
  const retryAt =
    result.succeeded || windowOver
      ? null
      : new Date(at.getTime() + retryDelayMs(settings, delivery.attempts));
  const failingSince = delivery.endpoint.failingSince ?? at;
  const disable = !result.succeeded && at.getTime() - failingSince.getTime() >= settings.retryWindowMs;
  const settled = { delivery, attempt: result, retryAt };
  metrics.webhookAttempted(
    result.succeeded ? "delivered" : retryAt ? "retrying" : "failed",
    at.getTime() + result.durationMs - delivery.createdAt.getTime(),
  );
  if (!disable) {
    await (deps.settle ?? ((one) => recordAttempts(deps.db, [one])))(settled);
  } else {
    await inTransaction(deps.db, async (tx) => {
      await recordAttempts(tx, [settled]);
      const { count } = await tx.webhookEndpoint.updateMany({
        where: { id: delivery.endpoint.id, disabledAt: null },
        data: { disabledAt: at },
      });
      if (count === 0) return;
      const { endpoint } = delivery;
      await emitEvents(tx, [
        {
          type: "webhook_endpoint.disabled",
          owner: { organisationId: endpoint.organisationId, environment: endpoint.environment },
          data: {
            webhook_endpoint_id: endpoint.id,
            url: endpoint.url,
            disabled_at: at.toISOString(),
            reason: "deliveries failed for 3 days",
          },
        },
      ]);
    });
  }
  deps.logger.debug(
    {
      deliveryId: delivery.id,
      endpointId: delivery.endpoint.id,
      status: result.responseStatus,
      ok: result.succeeded,
    },
    "webhook delivery attempted",
  );
  return result;
}

export interface WebhookDelivery {
  /** Wakes an idle worker (after an event was emitted in this process, or a retry asked for). */
  notify(): void;
  stop(): Promise<void>;
}

/**
 * Database connections delivery needs at once, whatever its concurrency: a claim, a settle batch,
 * and the rare transaction that disables an endpoint (attempts themselves hold none).
 */
export const DELIVERY_CONNECTIONS = 3;

const PRUNE_EVERY_MS = 3_600_000;
/**
 * Outcomes written per statement at most: a guard on the statement's size should concurrency be
 * raised far (a slot is held until its outcome is written, so a batch rarely exceeds the slots).
 */
const MAX_SETTLE_BATCH = 500;
/** How often the claims of dead processes are looked for (also once at start). */
const RELEASE_ORPHANS_EVERY_MS = 5_000;

const NO_DELIVERY: WebhookDelivery = { notify: () => {}, stop: async () => {} };

/**
 * Delivers due webhooks with `concurrency` slots until stopped, and prunes events past their
 * retention hourly. Any number of processes (`npm start`, `npm run worker`) may run it: claims
 * use SKIP LOCKED, and each claim is stamped with this process's claimer session so that a
 * process started after another died delivers the dead one's in-flight deliveries at once.
 * With WEBHOOK_DELIVERY_ENABLED false it does nothing (events are still written; other
 * processes deliver them).
 */
export async function startWebhookDelivery(
  deps: DeliveryDeps & { databaseUrl: string },
): Promise<WebhookDelivery> {
  const { settings, logger } = deps;
  if (!settings.deliver) {
    logger.info("WEBHOOK_DELIVERY_ENABLED is false: this process delivers no webhooks");
    return NO_DELIVERY;
  }
  const policy = new AddressPolicy(settings.allowedNetworks);
  const leaseMs = settings.timeoutMs + 60_000;
  const session = new ClaimerSession(deps.databaseUrl, logger, () => pump.notify());
  // A busy pump asks for one delivery each time a slot frees; claiming a full batch instead and
  // handing it out slot by slot costs one claim statement per batch (~1 ms a row against ~9 ms
  // for one at a time, measured sequentially on the shared machine). Claims not yet started are
  // given back when the process stops.
  const claimed: DueDelivery[] = [];
  // Settling each delivery on its own was a commit per delivery, on a disk that does ~600 a
  // second for every writer. Outcomes that finish while one batch is written go together: a
  // busy worker wrote one batch per 6–10 deliveries in bench/events.ts.
  const settler = new WriteBatcher<SettledAttempt>(
    (batch) => recordAttempts(deps.db, batch),
    MAX_SETTLE_BATCH,
  );
  // A new connection per attempt was a connect (and for https a handshake) per delivery.
  const agents = new ReceiverAgents(settings.concurrency);
  const delivering: DeliveryDeps = { ...deps, agents, settle: (settled) => settler.record(settled) };
  const pump = new JobPump<DueDelivery>({
    concurrency: settings.concurrency,
    pollMs: settings.pollMs,
    fetch: async (count) => {
      if (claimed.length < count) {
        claimed.push(
          ...(await claimDueDeliveries(deps.db, settings.concurrency, leaseMs, await session.claimer())),
        );
      }
      return claimed.splice(0, count);
    },
    run: async (delivery) => {
      await deliver(delivering, policy, delivery);
    },
    onError: (error) => logger.error({ err: error }, "webhook delivery error"),
  });
  const release = () =>
    releaseOrphanedClaims(deps.db)
      .then((released) => {
        if (released === 0) return;
        logger.info({ released }, "deliveries of stopped processes are due again");
        pump.notify();
      })
      .catch((error: unknown) => logger.error({ err: error }, "releasing orphaned deliveries failed"));
  await session.claimer();
  await release();
  pump.start();
  const prune = () =>
    pruneEvents(deps.db, settings.eventRetentionDays).catch((error: unknown) =>
      logger.error({ err: error }, "pruning events failed"),
    );
  const timers = [setInterval(prune, PRUNE_EVERY_MS), setInterval(release, RELEASE_ORPHANS_EVERY_MS)];
  for (const timer of timers) timer.unref();
  return {
    notify: () => pump.notify(),
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await pump.stop();
      agents.close();
      await releaseClaims(
        deps.db,
        claimed.splice(0).map((delivery) => delivery.id),
      ).catch((error: unknown) => logger.error({ err: error }, "giving back unstarted deliveries failed"));
      await session.close();
    },
  };
}
