import { duration } from "./setting-schemas";

/** Ownership of origins (src/ownership); read with the rest in config.ts. */
export const ownershipSettings = {
  OWNERSHIP_CHALLENGE_TTL: {
    schema: duration.prefault("15m"),
    description:
      "How long an ownership challenge (POST /v1/registrations/{id}/ownership-challenge) may be used to prove ownership (duration: 90s, 45m, 1h, 7d); each is used at most once.",
  },
} as const;
