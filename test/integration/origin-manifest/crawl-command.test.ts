import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { v2Endpoints } from "../../fixtures/manifests/families";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureOrigins } from "../../support/fixture-origins";
import { startEntryPoint } from "../../support/processes";

describe("npm run crawl -- --kind origin_manifest", () => {
  let database: TestDatabase;
  let origins: FixtureOrigins;
  beforeAll(async () => {
    database = await createTestDatabase();
    origins = await new FixtureOrigins().start();
    origins.serve("127.0.0.1", "/.well-known/x402", { json: v2Endpoints(origins.origin("127.0.0.1")) });
  });
  afterAll(async () => {
    await origins.stop();
    await database.drop();
  });

  const run = (env: Record<string, string>) =>
    startEntryPoint(
      "jobs/crawl.ts",
      ["--kind", "origin_manifest", `${origins.origin("127.0.0.1")}/ignored/path`],
      {
        DATABASE_URL: database.url,
        LOG_LEVEL: "info",
        SOURCES: "none",
        ...env,
      },
    );

  it("when loopback is not an allowed network, then the address guard refuses the origin and the run fails", async () => {
    const proc = run({});
    expect(await proc.exited).toBe(1);
    expect(origins.requests).toEqual([]);
    const error = await database.db.crawlError.findFirstOrThrow();
    expect(error).toMatchObject({
      kind: "fetch",
      message: expect.stringMatching(/127\.0\.0\.1 is a loopback address/),
    });
  });

  it("when the origin given is allowed, then its manifest is read into a service of the manifest source and it exits 0", async () => {
    const proc = run({ PROBE_ALLOWED_NETWORKS: "127.0.0.0/8" });
    expect(await proc.exited).toBe(0);
    const source = await database.db.source.findFirstOrThrow({
      where: { kind: "origin_manifest" },
      include: { services: { include: { endpoints: true } } },
    });
    expect(source.baseUrl).toBe("/.well-known/x402");
    expect(source.services.map((s) => [s.detailUrl, s.endpoints.map((e) => `${e.method} ${e.url}`)])).toEqual(
      [
        [
          `${origins.origin("127.0.0.1")}/.well-known/x402`,
          [`POST ${origins.origin("127.0.0.1")}/v2/search`],
        ],
      ],
    );
  });
});
