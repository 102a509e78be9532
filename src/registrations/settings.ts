import type { Config } from "../config/config";

/** How registrations and re-indexes are limited and scheduled (src/config/registration-settings.ts). */
export interface RegistrationSettings {
  /** Registrations one client address without a key may submit an hour. */
  anonymousPerHour: number;
  /** Re-indexes on demand of one origin an hour. */
  reindexPerOriginPerHour: number;
  /** How often every registered origin is re-indexed. */
  reindexEveryMs: number;
}

export const DEFAULT_REGISTRATION_SETTINGS: RegistrationSettings = {
  anonymousPerHour: 10,
  reindexPerOriginPerHour: 12,
  reindexEveryMs: 6 * 3_600_000,
};

export function registrationSettingsFromConfig(config: Config): RegistrationSettings {
  return {
    anonymousPerHour: config.REGISTRATIONS_ANONYMOUS_PER_HOUR,
    reindexPerOriginPerHour: config.REINDEX_PER_ORIGIN_PER_HOUR,
    reindexEveryMs: config.REGISTERED_REINDEX_EVERY,
  };
}
