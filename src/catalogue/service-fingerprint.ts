import { createHash } from "node:crypto";
import type { NormalisedService } from "../normalise/service";

/**
 * A stable hash of everything we store about a service. Equal fingerprints mean an hourly
 * re-crawl has nothing to write. Bump the version when the stored shape changes.
 */
const FINGERPRINT_VERSION = "1";

export function serviceFingerprint(service: NormalisedService): string {
  const { stats } = service;
  const canonical = [
    FINGERPRINT_VERSION,
    service.name,
    service.domain,
    service.description,
    service.category,
    service.endpoints.map((e) => [e.method, e.url, e.description]),
    service.tags,
    [
      stats.uptime30d,
      stats.avgResponseMs30d,
      stats.infoUpdatedAt?.toISOString() ?? null,
      stats.volumeUsdc30d,
      stats.txCount30d,
      stats.payerCount30d,
    ],
  ];
  return createHash("sha256").update(JSON.stringify(canonical)).digest("base64url");
}
