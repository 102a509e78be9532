import { createHash } from "node:crypto";
import { serviceFingerprint } from "../../catalogue/service-fingerprint";
import type { BazaarService } from "./services";

/**
 * The directory fingerprint plus the payment options and call descriptions: a price or pay_to change in the feed is a
 * change of the service even when its name, endpoints and stats stay the same. Bump the version
 * when what is stored from a feed changes shape.
 */
const BAZAAR_FINGERPRINT_VERSION = "bazaar-3";

export function bazaarFingerprint(service: BazaarService): string {
  return createHash("sha256")
    .update(BAZAAR_FINGERPRINT_VERSION)
    .update(serviceFingerprint(service.service))
    .update(JSON.stringify(service.paymentOptions))
    .update(JSON.stringify(service.service.endpoints.map((e) => [e.call ?? null, e.selfReported ?? null])))
    .digest("base64url");
}
