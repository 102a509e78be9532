import { duration, positiveInt } from "./setting-schemas";

/** Registrations and re-indexing (src/registrations); read with the rest in config.ts. */
export const registrationSettings = {
  REGISTRATIONS_ANONYMOUS_PER_HOUR: {
    schema: positiveInt(100_000).default(10),
    description:
      "Registrations (POST /v1/registrations, MCP register_resource) one client address without a key may submit an hour, shared by every API process; each costs the seller's origin a manifest read and a probe. A key with catalogue:register is limited by its organisation's plan instead.",
  },
  REINDEX_PER_ORIGIN_PER_HOUR: {
    schema: positiveInt(3_600).default(12),
    description:
      "Re-indexes on demand (POST /v1/origins/{origin}/reindex) of one origin an hour, whoever asks, shared by every API process.",
  },
  REGISTERED_REINDEX_EVERY: {
    schema: duration.prefault("6h"),
    description:
      "How often every registered origin is re-indexed (its manifest read, its registered URLs probed, what is gone delisted) by npm start; one process at a time (advisory lock). Duration: 30m, 6h, 1d.",
  },
} as const;
