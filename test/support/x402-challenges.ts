import { v1Entry, v2Entry } from "../unit/payments/fixtures";

/** A v1 402 body as servers send it: the challenge in JSON. */
export function v1ChallengeBody(accepts: Record<string, unknown>[] = [v1Entry()]): string {
  return JSON.stringify({ x402Version: 1, error: "X-PAYMENT header is required", accepts });
}

/** A v2 PAYMENT-REQUIRED header value: the challenge as base64 JSON. */
export function v2ChallengeHeader(
  resourceUrl: string,
  accepts: Record<string, unknown>[] = [v2Entry()],
): string {
  const challenge = {
    x402Version: 2,
    error: "Payment required",
    resource: { url: resourceUrl, description: "fixture", mimeType: "application/json" },
    accepts,
  };
  return Buffer.from(JSON.stringify(challenge)).toString("base64");
}
