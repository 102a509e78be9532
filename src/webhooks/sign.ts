import { Webhook } from "standardwebhooks";

/**
 * Standard Webhooks headers for one message: one `v1,<base64>` signature per valid secret,
 * space-separated, so a receiver verifying with either the new or the previous secret succeeds.
 */
export function signatureHeaders(
  messageId: string,
  timestamp: Date,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": secrets
      .map((secret) => new Webhook(secret).sign(messageId, timestamp, body))
      .join(" "),
  };
}
