import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listCatalogueOrigins } from "../../../src/catalogue/catalogue-origins";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("the origins of the catalogue (what the manifest source reads)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("when services list endpoints or only a domain, then each listed origin comes once, normalised; delisted and manifest rows add none", async () => {
    const db = database.db;
    await seedServices(db, [
      {
        name: "Alpha",
        domain: "alpha.test",
        endpoints: [
          { method: "GET", url: "https://Alpha.test:443/a" },
          { method: "POST", url: "https://alpha.test/b?x=1" },
          { method: "GET", url: "http://user:pw@alpha.test:8080/c" },
        ],
      },
      { name: "Bravo", domain: "Bravo.test" },
      {
        name: "Charlie",
        domain: "charlie.test",
        status: "delisted",
        endpoints: [{ method: "GET", url: "https://charlie.test/x" }],
      },
      { name: "Delta", domain: null, endpoints: [{ method: "GET", url: "ftp://delta.test/file" }] },
    ]);
    const manifests = await db.source.create({
      data: { kind: "origin_manifest", baseUrl: "/.well-known/x402" },
    });
    await db.service.create({
      data: {
        sourceId: manifests.id,
        detailUrl: "https://echo.test/.well-known/x402",
        name: "Echo",
        domain: "echo.test",
        firstSeenAt: new Date(),
        lastSeenAt: new Date(),
        endpoints: { create: [{ position: 0, method: "GET", url: "https://echo.test/e" }] },
      },
    });

    expect(await listCatalogueOrigins(db)).toEqual([
      "http://alpha.test:8080",
      "https://alpha.test",
      "https://bravo.test",
    ]);
  });
});
