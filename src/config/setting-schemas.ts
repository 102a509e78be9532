import { Cron } from "croner";
import { z } from "zod";
import { type LabelAliases, type LabelField, STAT_FIELDS } from "../extract/labels";

/**
 * The building blocks of every setting, so each kind of value is read one way and explained
 * in one message format (`NAME="value": what is allowed`, nested problems with their path).
 */

const TRUE_WORDS = ["true", "1", "yes", "on"];
const FALSE_WORDS = ["false", "0", "no", "off"];

/** true/false, 1/0, yes/no, on/off, in any case. */
export const booleanFlag = z
  .string()
  .transform((value) => value.trim().toLowerCase())
  .pipe(
    z.enum([...TRUE_WORDS, ...FALSE_WORDS], { error: "must be true or false (also 1/0, yes/no, on/off)" }),
  )
  .transform((value) => TRUE_WORDS.includes(value))
  .meta({ allowed: "true or false (also 1/0, yes/no, on/off, in any case)" });

const CRON_HELP = "must be a five-field cron expression such as '0 * * * *' (minute hour day month weekday)";

/** Five fields, as documented: croner would also take seconds or years, which the docs do not promise. */
export const cronExpression = z
  .string()
  .refine(
    (value) => {
      if (value.trim().split(/\s+/).length !== 5) return false;
      try {
        new Cron(value, { paused: true }).stop();
        return true;
      } catch {
        return false;
      }
    },
    { error: CRON_HELP },
  )
  .meta({ allowed: "a five-field cron expression (minute hour day month weekday), in UTC" });

/** A setting holding JSON: not-JSON is one problem, and the parsed value must match `schema`. */
export function jsonSetting<T extends z.ZodType>(schema: T, example: string) {
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        ctx.addIssue({ code: "custom", message: `must be JSON such as ${example} (${why})` });
        return z.NEVER;
      }
    })
    .pipe(schema)
    .meta({ allowed: `JSON such as ${example}` });
}

const KEY_HELP = "must be 32 bytes in base64 or hex, e.g. the output of `openssl rand -base64 32`";

/** 32 bytes as 64 hex digits or as base64 (standard or URL-safe alphabet). */
function keyBytes(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return Buffer.from(trimmed, "base64");
  return null;
}

/** An encryption key of 32 bytes. */
export const secretKey = z
  .string()
  .transform((text, ctx) => {
    const key = keyBytes(text);
    if (key) return key;
    ctx.addIssue({ code: "custom", message: KEY_HELP });
    return z.NEVER;
  })
  .meta({ allowed: "32 bytes in base64 or hex (openssl rand -base64 32)" });

/** A comma-separated list of keys (empty: none). */
export const secretKeyList = z
  .string()
  .default("")
  .transform((text, ctx) => {
    const keys: Buffer[] = [];
    for (const entry of text.split(",").filter((part) => part.trim() !== "")) {
      const key = keyBytes(entry);
      if (key) keys.push(key);
      else ctx.addIssue({ code: "custom", message: `each entry ${KEY_HELP}` });
    }
    return keys;
  })
  .meta({ allowed: "comma-separated keys of 32 bytes in base64 or hex" });

const LABEL_FIELDS = [
  ...STAT_FIELDS,
  "category",
  "tags",
  "endpoints",
  "name",
  "domain",
  "description",
] as const satisfies readonly LabelField[];

const wordings = z.array(z.string().min(1, "a label wording must not be empty"), {
  error: "must be a list of label wordings",
});

/** SITE_OVERRIDES: per host, extra label wording per field; unknown keys at any level are refused. */
export const siteOverridesSchema = z.record(
  z.string().min(1, "a host must not be empty"),
  z.strictObject({
    labels: z.strictObject(Object.fromEntries(LABEL_FIELDS.map((field) => [field, wordings.optional()]))),
  }),
) as unknown as z.ZodType<Record<string, { labels: LabelAliases }>>;

const DURATION_UNITS_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration such as `90s`, `45m`, `1h` or `7d` (a whole number and one unit), read as milliseconds. */
export const duration = z
  .string()
  .trim()
  .regex(/^\d+[smhd]$/, {
    error: "must be a whole number and a unit s, m, h or d, such as 90s, 45m, 1h or 7d",
  })
  .transform(
    (text) => Number(text.slice(0, -1)) * DURATION_UNITS_MS[text.slice(-1) as keyof typeof DURATION_UNITS_MS],
  )
  .refine((ms) => ms > 0 && Number.isSafeInteger(ms), {
    error: "must be more than zero and not absurdly long",
  });

/** A comma-separated list of CIDR ranges (empty: none). */
export function cidrList() {
  return z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((range) => range.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.union([z.cidrv4(), z.cidrv6()], {
          error: "must be comma-separated CIDR ranges, e.g. 127.0.0.0/8,::1/128",
        }),
      ),
    )
    .meta({ allowed: "comma-separated CIDR ranges, e.g. 127.0.0.0/8,::1/128" });
}

/** `name=value,name=value`, each name checked by `key` and each value by `value`; empty: none. */
export function pairList<K extends z.ZodType<string>, V extends z.ZodType>(
  key: K,
  value: V,
  example: string,
) {
  return z
    .string()
    .default("")
    .transform((text, ctx) => {
      const pairs = new Map<z.output<K>, z.output<V>>();
      for (const entry of text.split(",").filter((part) => part.trim() !== "")) {
        const cut = entry.indexOf("=");
        const name = key.safeParse(entry.slice(0, cut).trim());
        const parsed = value.safeParse(entry.slice(cut + 1).trim());
        if (cut > 0 && name.success && parsed.success) pairs.set(name.data, parsed.data);
        else
          ctx.addIssue({ code: "custom", message: `each entry must read like ${example}: ${entry.trim()}` });
      }
      return pairs;
    })
    .meta({ allowed: `comma-separated pairs such as ${example}` });
}

/** A whole number from 1 to `max` (coerced from the environment's text). */
export function positiveInt(max: number) {
  return z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, `must be between 1 and ${max}`)
    .max(max, `must be between 1 and ${max}`);
}
