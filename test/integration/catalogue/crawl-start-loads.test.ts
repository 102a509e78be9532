import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOAD_PAGE_ROWS, loadPageValidators } from "../../../src/catalogue/page-cache";
import { loadKnownServices } from "../../../src/catalogue/service-writes";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const ROWS = LOAD_PAGE_ROWS + 2_500; // a full page and part of another

/** What a crawl reads at its start, read in pages: every row once, whatever the page size. */
describe("loading a large source's services and page cache at the start of a crawl", () => {
  let database: TestDatabase;
  let sourceId: string;
  let otherSourceId: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    const [source, other] = await Promise.all([
      database.db.source.create({ data: { kind: "html_directory", baseUrl: "http://directory.test/" } }),
      database.db.source.create({ data: { kind: "html_directory", baseUrl: "http://other.test/" } }),
    ]);
    sourceId = source.id;
    otherSourceId = other.id;
    for (const id of [sourceId, otherSourceId]) {
      await database.db.$executeRaw`
        INSERT INTO services (id, source_id, detail_url, name, content_hash, first_seen_at, last_seen_at, updated_at)
        SELECT gen_random_uuid(), ${id}::uuid, 'http://directory.test/s/' || i, 'Service ' || i, 'hash-' || i,
          now(), now(), now()
        FROM generate_series(1, ${ROWS}::int) AS i`;
      await database.db.$executeRaw`
        INSERT INTO page_cache (source_id, url, etag, content_hash, fetched_at, updated_at)
        SELECT ${id}::uuid, 'http://directory.test/s/' || i, '"e' || i || '"', 'page-' || i,
          to_timestamp(i), now()
        FROM generate_series(1, ${ROWS}::int) AS i`;
    }
  });
  afterAll(() => database.drop());

  it("when a source has more services than one page holds, then each is known once with its hash and status", async () => {
    const known = await loadKnownServices(database.db, sourceId);
    expect(known.size).toBe(ROWS);
    expect(known.get("http://directory.test/s/12345")).toMatchObject({
      contentHash: "hash-12345",
      status: "listed",
    });
    const ids = new Set([...known.values()].map((k) => k.id));
    expect(ids.size).toBe(ROWS);
  });

  it("when a source has more cached pages than one page holds, then each page's validators are loaded once", async () => {
    const pages = await loadPageValidators(database.db, sourceId);
    expect(pages.size).toBe(ROWS);
    expect(pages.get("http://directory.test/s/7")).toEqual({
      etag: '"e7"',
      lastModified: null,
      contentHash: "page-7",
      fetchedAt: new Date(7_000),
    });
  });
});
