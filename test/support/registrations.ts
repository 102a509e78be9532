import type { ReadPool } from "../../src/db/read-pool";
import { originCheckDeps, Registrar } from "../../src/registrations/registrar";
import { DEFAULT_REGISTRATION_SETTINGS, type RegistrationSettings } from "../../src/registrations/settings";
import { testCrawlSettings } from "./crawl";
import type { TestDatabase } from "./database";
import { fixtureResolver } from "./fixture-origins";
import { testLogger } from "./logger";
import { testProbeSettings } from "./probe";

/**
 * A registrar on a test database: made-up `*.example` origins resolve to loopback (allowed, like
 * PROBE_ALLOWED_NETWORKS in the test) and `internal.example` to a private address (refused), with
 * no per-host pacing unless a test asks for it.
 */
export function testRegistrar(
  database: Pick<TestDatabase, "db" | "url">,
  settings: Partial<RegistrationSettings> = {},
  perHostPerMinute = 1_000_000,
): (pool: ReadPool) => Registrar {
  const crawl = testCrawlSettings();
  const probe = testProbeSettings({ allowedNetworks: ["127.0.0.0/8"], perHostPerMinute });
  const check = originCheckDeps(probe, crawl, fixtureResolver({ "internal.example": "10.1.2.3" }));
  return (pool) =>
    new Registrar(
      { db: database.db, databaseUrl: database.url, logger: testLogger, settings: crawl, check },
      pool,
      { ...DEFAULT_REGISTRATION_SETTINGS, ...settings },
    );
}
