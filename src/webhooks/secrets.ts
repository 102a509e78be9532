import { randomBytes } from "node:crypto";

export const ROTATION_GRACE_MS = 24 * 3_600_000;

/** Standard Webhooks' secret format: whsec_ and 24 random bytes in base64 (what Webhook() takes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export interface EndpointSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The secrets a delivery at `now` is signed with: the current one, and the previous one for 24 h. */
export function signingSecrets(endpoint: EndpointSecrets, now: Date): string[] {
  const previousValid =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    now < endpoint.previousSecretExpiresAt;
  return previousValid ? [endpoint.secret, endpoint.previousSecret as string] : [endpoint.secret];
}
