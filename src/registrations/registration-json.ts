import type { z } from "zod";
import { manifestJson } from "./registration-outcome";
import { type ListedResource, listedOf, type Registration } from "./registrations";
import type { ReindexResult } from "./reindex";
import type { registrationSchema, reindexSchema } from "./schemas";

/** Registrations and re-indexes as the API answers them (schemas.ts). The submitter is never shown. */

const listedJson = (listed: readonly ListedResource[]) =>
  listed.map(({ method, url, serviceId }) => ({ method, url, service_id: serviceId }));

export function registrationJson(registration: Registration): z.input<typeof registrationSchema> {
  return {
    id: registration.id,
    kind: registration.kind,
    url: registration.url,
    method: registration.method,
    origin: registration.origin,
    state: registration.state,
    reason: registration.reason,
    // Written by registrationOutcome in this very shape.
    verdict: registration.verdict as z.input<typeof registrationSchema>["verdict"],
    listed: listedJson(listedOf(registration)),
    submitted_with_key: registration.apiKeyId !== null,
    checked_at: registration.checkedAt?.toISOString() ?? null,
    created_at: registration.createdAt.toISOString(),
    updated_at: registration.updatedAt.toISOString(),
  };
}

/** A re-index that ran (the route answers a skipped one as pending). */
export function reindexJson(result: Extract<ReindexResult, { ran: true }>): z.input<typeof reindexSchema> {
  const { outcome, check } = result;
  const counts = outcome.counts;
  return {
    origin: result.origin,
    status: outcome.status === "running" ? "aborted" : outcome.status,
    message: outcome.message,
    crawl_run_id: outcome.runId,
    counts: {
      services_new: counts.servicesNew,
      services_updated: counts.servicesUpdated,
      services_unchanged: counts.servicesUnchanged,
      services_delisted: counts.servicesDelisted,
    },
    manifest: manifestJson(check.manifest) as z.input<typeof reindexSchema>["manifest"],
    listed: listedJson(result.listed),
    registrations: result.registrations.map(registrationJson),
  };
}
