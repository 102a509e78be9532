/**
 * What a v2 challenge says about itself beside its payment options: an authentication-only 402
 * (no price, a sign-in extension), the payment-identifier extension (the seller deduplicates
 * retries of a payment), and the resource's self-reported name, tags and icon. The self-reported
 * fields are the seller's words and are shown as such, never merged into the catalogue's own.
 */
export interface ChallengeTraits {
  /** A 402 with no payment options and a sign-in-with-x extension: it asks for a login, not money. */
  auth_only: boolean;
  /** The payment-identifier extension is offered: retries carrying the same id are charged once. */
  idempotent: boolean;
  /** Extension names the challenge carries, in its order. */
  extensions: string[];
  self_reported: { service_name: string | null; tags: string[]; icon_url: string | null };
}

type Payload = Record<string, unknown>;

const isRecord = (value: unknown): value is Payload =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : null;

const SIGN_IN = "sign-in-with-x";
const PAYMENT_IDENTIFIER = "payment-identifier";

export function readChallengeTraits(payload: Payload | null): ChallengeTraits {
  const extensions = isRecord(payload?.extensions) ? Object.keys(payload.extensions) : [];
  const resource = isRecord(payload?.resource) ? payload.resource : {};
  const accepts = payload?.accepts;
  const noOptions = !Array.isArray(accepts) || accepts.length === 0;
  const tags = Array.isArray(resource.tags) ? resource.tags.flatMap((t) => text(t) ?? []) : [];
  return {
    auth_only: noOptions && extensions.includes(SIGN_IN),
    idempotent: extensions.includes(PAYMENT_IDENTIFIER),
    extensions,
    self_reported: {
      service_name: text(resource.serviceName),
      tags,
      icon_url: text(resource.iconUrl),
    },
  };
}
