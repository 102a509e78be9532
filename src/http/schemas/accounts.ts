import { z } from "zod";
import { apiKeyName, ENVIRONMENTS, SCOPES } from "../../accounts/scopes";

const scope = z.enum(SCOPES, { error: `must be one of ${SCOPES.join(", ")}` });

export const createApiKeyBody = z
  .strictObject({
    name: apiKeyName.optional().meta({
      description:
        "What you call the key, to recognise it in lists (up to 100 characters, no control characters).",
      example: "ci",
    }),
    scopes: z
      .array(scope, { error: "must be an array of scopes" })
      .min(1, "must name at least one scope")
      .max(SCOPES.length, `must name at most ${SCOPES.length} scopes`),
  })
  .meta({ description: "The new key works in the calling key's organisation and environment." });

export const apiKeyIdParams = z.strictObject({ id: z.guid({ error: "must be an API key id (a UUID)" }) });

const isoDate = z.iso.date({ error: "must be a date such as 2026-11-24" });

export const usageQuery = z
  .strictObject({
    from: isoDate.optional().meta({ description: "First UTC day (default: 30 days before to)." }),
    to: isoDate.optional().meta({ description: "Last UTC day (default: today)." }),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    error: "from must not be after to",
    path: ["from"],
  });

const timestamp = z.string().meta({ format: "date-time" });

export const apiKeySchema = z
  .strictObject({
    id: z.string().meta({ description: "The key's id (a UUID): what DELETE /v1/api-keys/{id} takes." }),
    name: z.string().nullable().meta({ description: "What the key was named at creation; null if unnamed." }),
    environment: z.enum(ENVIRONMENTS).meta({ description: "live or test: the objects this key sees." }),
    prefix: z.string().meta({ description: "How the key starts, to recognise it.", example: "xcat_live_" }),
    last_four: z.string().meta({ description: "The key's last four characters.", example: "x9Qa" }),
    scopes: z.array(scope).meta({ description: "What the key may do." }),
    created_at: timestamp.meta({ description: "When the key was created." }),
    last_used_at: timestamp.nullable().meta({ description: "Up to USAGE_FLUSH_SECONDS behind." }),
    revoked_at: timestamp.nullable().meta({ description: "When the key was revoked; null while it works." }),
  })
  .meta({ id: "ApiKey" });

export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().meta({ description: "The key itself: shown this once, never again." }) })
  .meta({ id: "CreatedApiKey" });

export const apiKeyListSchema = z
  .strictObject({
    items: z.array(apiKeySchema).meta({ description: "Newest first, revoked keys included." }),
  })
  .meta({ id: "ApiKeyList" });

export const usageListSchema = z
  .strictObject({
    items: z
      .array(
        z.strictObject({
          day: z.iso.date().meta({ description: "The UTC day counted." }),
          api_key_id: z.string().meta({ description: "The key that made the requests." }),
          route_group: z.string().meta({ description: "catalogue, exports, keys, usage or other" }),
          requests: z.string().meta({ description: "Count, as a decimal string." }),
          csv_rows: z.string().meta({ description: "CSV rows exported, as a decimal string." }),
        }),
      )
      .meta({ description: "One row per key, day and route group, oldest day first." }),
  })
  .meta({ id: "UsageList" });
