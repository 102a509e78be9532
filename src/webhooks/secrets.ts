import { randomBytes } from "node:crypto";
import { z } from "zod";

/** How long a secret rotated out keeps signing. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;
/**
 * Most secrets rotated out that sign at once: each adds a signature to every delivery's
 * `webhook-signature` header, which receivers limit in size. Past it the oldest stops signing.
 */
export const MAX_PREVIOUS_SECRETS = 20;

/** Standard Webhooks' secret format: whsec_ and 24 random bytes in base64 (what Webhook() takes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** A secret rotated out (sealed as stored): it signs until `expiresAt`. */
export interface PreviousSecret {
  secret: string;
  expiresAt: Date;
}

const storedPreviousSecrets = z.array(z.object({ secret: z.string(), expires_at: z.coerce.date() }));

/** The `previous_secrets` column, as stored: [{"secret", "expires_at"}]. */
export function readPreviousSecrets(json: unknown): PreviousSecret[] {
  return storedPreviousSecrets
    .parse(json)
    .map((entry) => ({ secret: entry.secret, expiresAt: entry.expires_at }));
}

export function previousSecretsJson(
  secrets: readonly PreviousSecret[],
): { secret: string; expires_at: string }[] {
  return secrets.map((entry) => ({ secret: entry.secret, expires_at: entry.expiresAt.toISOString() }));
}

/** The secrets rotated out that still sign at `now`. */
export function stillSigning(secrets: readonly PreviousSecret[], now: Date): PreviousSecret[] {
  return secrets.filter((entry) => now < entry.expiresAt);
}

/**
 * The secrets rotated out after a rotation at `now`: the one replaced (signing for 24 hours
 * more) before the ones still signing, newest first, at most MAX_PREVIOUS_SECRETS.
 */
export function afterRotation(
  replaced: string,
  previous: readonly PreviousSecret[],
  now: Date,
): PreviousSecret[] {
  const rotatedOut = { secret: replaced, expiresAt: new Date(now.getTime() + ROTATION_GRACE_MS) };
  return [rotatedOut, ...stillSigning(previous, now)].slice(0, MAX_PREVIOUS_SECRETS);
}

export interface EndpointSecrets {
  secret: string;
  previousSecrets: readonly PreviousSecret[];
}

/** The secrets a delivery at `now` is signed with: the current one, and each rotated out less than 24 h ago. */
export function signingSecrets(endpoint: EndpointSecrets, now: Date): string[] {
  return [endpoint.secret, ...stillSigning(endpoint.previousSecrets, now).map((entry) => entry.secret)];
}
