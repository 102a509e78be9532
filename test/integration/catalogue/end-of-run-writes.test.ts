import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { delistMissing, extendUnchangedHistory, markListed } from "../../../src/catalogue/end-of-run-writes";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const SERVICES = 12_000; // more than two of the slices the end-of-run writes send at a time
const url = (i: number) => `http://directory.test/s/${i}`;

/** Marking listed, extending history and delisting at the end of a run over a large catalogue. */
describe("the end-of-run writes over more services than one statement takes", () => {
  let database: TestDatabase;
  let sourceId: string;
  const dayAgo = new Date(Date.now() - 86_400_000);
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    await database.db.source.deleteMany();
    await database.db.event.deleteMany();
    const source = await database.db.source.create({
      data: { kind: "html_directory", baseUrl: "http://directory.test/" },
    });
    sourceId = source.id;
    // Service 7,000 was delisted by an earlier run; the others are listed, last seen a day ago.
    await database.db.$executeRaw`
      INSERT INTO services (id, source_id, detail_url, name, status, first_seen_at, last_seen_at, updated_at)
      SELECT gen_random_uuid(), ${sourceId}::uuid, 'http://directory.test/s/' || i, 'Service ' || i,
        (CASE WHEN i = 7000 THEN 'delisted' ELSE 'listed' END)::service_status, ${dayAgo}, ${dayAgo}, now()
      FROM generate_series(1, ${SERVICES}::int) AS i`;
  });

  it("when the listing shows all but two of 12,000 services, then exactly those two are delisted and a delisted one seen again is relisted", async () => {
    const seen = Array.from({ length: SERVICES }, (_, i) => url(i + 1)).filter(
      (u) => u !== url(3) && u !== url(11_500),
    );
    const at = new Date();
    await markListed(database.db, sourceId, seen, at);
    const delisted = await delistMissing(database.db, sourceId, seen, at);

    expect(delisted).toBe(2);
    const gone = await database.db.service.findMany({
      where: { sourceId, status: "delisted" },
      select: { detailUrl: true, delistedAt: true },
      orderBy: { detailUrl: "asc" },
    });
    expect(gone).toEqual([
      { detailUrl: url(11_500), delistedAt: at },
      { detailUrl: url(3), delistedAt: at },
    ]);
    expect(await database.db.service.count({ where: { sourceId, lastSeenAt: at, status: "listed" } })).toBe(
      SERVICES - 2,
    );
    const events = await database.db.event.findMany({ orderBy: { seq: "asc" } });
    expect(events.map((e) => [e.type, (e.data as { service: { name: string } }).service.name])).toEqual([
      ["service.relisted", "Service 7000"],
      ["service.delisted", expect.any(String)],
      ["service.delisted", expect.any(String)],
    ]);
  });

  it("when every service is unchanged, then each one's open history interval reaches the run's end", async () => {
    await database.db.$executeRaw`
      INSERT INTO stats_snapshots (service_id, observed_from, observed_to, updated_at)
      SELECT id, ${dayAgo}, ${dayAgo}, now() FROM services WHERE source_id = ${sourceId}::uuid`;
    const ids = (await database.db.service.findMany({ where: { sourceId }, select: { id: true } })).map(
      (s) => s.id,
    );
    const at = new Date();
    await extendUnchangedHistory(database.db, ids, at);
    expect(await database.db.statsSnapshot.count({ where: { observedTo: at } })).toBe(SERVICES);
  });
});
