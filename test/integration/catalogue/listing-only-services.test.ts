import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { saveListingOnlyServices } from "../../../src/catalogue/service-writes";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/** Services stored from what the listing says (detail page failed, or left for a later run). */
describe("storing services from their listing entry, in batches", () => {
  let database: TestDatabase;
  let sourceId: string;
  let storedUrl: string;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    await database.db.source.deleteMany();
    await database.db.event.deleteMany();
    const [id] = await seedServices(database.db, [{ name: "Stored", description: "read from its page" }]);
    const row = await database.db.service.findUniqueOrThrow({ where: { id } });
    sourceId = row.sourceId;
    storedUrl = row.detailUrl;
  });

  const entry = (slug: string) => ({
    detailUrl: `http://directory.test/services/${slug}`,
    name: `Service ${slug}`,
    domain: `${slug}.example`,
    description: `what the listing says of ${slug}`,
  });

  it("when a batch mixes new and stored services, then only the new ones are created, each searchable and announced once, in the batch's order", async () => {
    const observedAt = new Date("2026-03-01T00:00:00Z");
    const batch = [entry("zeta"), { ...entry("stored"), detailUrl: storedUrl }, entry("alpha")];
    const saved = await saveListingOnlyServices(database.db, sourceId, batch, observedAt);

    expect([...saved.keys()].sort()).toEqual(batch.map((b) => b.detailUrl).sort());
    expect(saved.get(storedUrl)?.created).toBe(false);
    expect(saved.get(entry("zeta").detailUrl)?.created).toBe(true);

    const stored = await database.db.service.findUniqueOrThrow({ where: { id: saved.get(storedUrl)!.id } });
    expect(stored).toMatchObject({ name: "Stored", description: "read from its page" });
    const created = await database.db.service.findUniqueOrThrow({
      where: { id: saved.get(entry("zeta").detailUrl)!.id },
    });
    expect(created).toMatchObject({
      name: "Service zeta",
      domain: "zeta.example",
      description: "what the listing says of zeta",
      status: "listed",
      contentHash: null,
      firstSeenAt: observedAt,
      lastSeenAt: observedAt,
    });

    const searchable = await database.db.serviceSearch.findMany({
      where: { serviceId: { in: [...saved.values()].filter((s) => s.created).map((s) => s.id) } },
      select: { serviceId: true },
    });
    expect(searchable).toHaveLength(2);
    const events = await database.db.event.findMany({ orderBy: { seq: "asc" } });
    expect(events.map((e) => [e.type, (e.data as { service: { name: string } }).service.name])).toEqual([
      ["service.listed", "Service zeta"],
      ["service.listed", "Service alpha"],
    ]);
  });

  it("when the same batch is stored again, then nothing is created and nothing announced", async () => {
    const batch = [entry("zeta"), entry("alpha")];
    const first = await saveListingOnlyServices(database.db, sourceId, batch, new Date());
    const again = await saveListingOnlyServices(database.db, sourceId, batch, new Date());
    for (const { detailUrl } of batch) {
      expect(again.get(detailUrl)).toEqual({ id: first.get(detailUrl)?.id, created: false });
    }
    expect(await database.db.event.count()).toBe(2);
  });
});
