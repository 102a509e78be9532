import { Writable } from "node:stream";
import v8 from "node:v8";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordProbe } from "../../../../src/catalogue/probe-writes";
import { createReadPool, type ReadPool } from "../../../../src/db/read-pool";
import { createLogger } from "../../../../src/logging/logger";
import { CatalogueKeeper } from "../../../../src/search/freshness/catalogue-keeper";
import { refreshInPlace } from "../../../../src/search/freshness/in-place-refresh";
import { type Catalogue, loadCatalogue } from "../../../../src/search/load/catalogue";
import { partsOnWorkers } from "../../../../src/search/scale/build-workers";
import {
  IMAGE_FORMAT,
  readCatalogueImage,
  writeCatalogueImage,
} from "../../../../src/search/scale/catalogue-image";
import { CatalogueImages } from "../../../../src/search/scale/catalogue-images";
import { runPassesInSlices } from "../../../../src/search/scale/event-loop-slices";
import { seedServices } from "../../../support/catalogue";
import { answers, serviceItems } from "../../../support/catalogue-pages";
import { createTestDatabase, type TestDatabase } from "../../../support/database";
import { testLogger } from "../../../support/logger";
import { firstEndpointId, seedPaymentOptions } from "../../../support/payments";
import { probeResult } from "../../../support/probe";
import { probeOption } from "../../../unit/payments/fixtures";

/**
 * The layout of what an image holds, per format: every path of the skeleton and of the entries
 * with the kinds of value found there. A change of layout needs a new IMAGE_FORMAT (a process must
 * never read another layout as its own): add the new layout under the new number, do not edit one.
 */
const LAYOUT_1 = `${[
  ".arrays[].length:number",
  ".arrays[].type:string",
  ".data.endpoints.columns.categories[]:string",
  ".data.endpoints.columns.category.~array:number",
  ".data.endpoints.columns.flags.~array:number",
  ".data.endpoints.columns.idPlace.~array:number",
  ".data.endpoints.columns.ids.~array:number",
  ".data.endpoints.columns.lastVerifiedAt.~array:number",
  ".data.endpoints.columns.method.~array:number",
  ".data.endpoints.columns.methods[]:string",
  ".data.endpoints.columns.networkCodes.~array:number",
  ".data.endpoints.columns.networkStarts.~array:number",
  ".data.endpoints.columns.networks[]:string",
  ".data.endpoints.columns.priceCodes.~array:number",
  ".data.endpoints.columns.priceStarts.~array:number",
  ".data.endpoints.columns.prices[]:string",
  ".data.endpoints.text.documents.docs.~array:number",
  ".data.endpoints.text.documents.documentCount:number",
  ".data.endpoints.text.documents.lexemeStarts.~array:number",
  ".data.endpoints.text.documents.positions.~array:number",
  ".data.endpoints.text.documents.termStarts.~array:number",
  ".data.endpoints.text.lexemes.ids.~array:number",
  ".data.endpoints.text.lexemes.starts.~array:number",
  ".data.endpoints.text.lexemes.text:string",
  ".data.services.idPlace.~array:number",
  ".data.services.text.documents.docs.~array:number",
  ".data.services.text.documents.documentCount:number",
  ".data.services.text.documents.lexemeStarts.~array:number",
  ".data.services.text.documents.positions.~array:number",
  ".data.services.text.documents.termStarts.~array:number",
  ".data.services.text.lexemes.ids.~array:number",
  ".data.services.text.lexemes.starts.~array:number",
  ".data.services.text.lexemes.text:string",
  ".entrySlices:number",
].join(" ")} | ${[
  ".category:string",
  ".drift:boolean",
  ".id:string",
  ".infoUpdatedAt:number",
  ".lastVerifiedAt:number",
  ".methods[]:string",
  ".payableEndpoints:number",
  ".paymentOptions[].asset:string",
  ".paymentOptions[].assetSymbol:string",
  ".paymentOptions[].network:string",
  ".paymentOptions[].networkName:string",
  ".paymentOptions[].payTo:string",
  ".paymentOptions[].price.approx:number",
  ".paymentOptions[].price.exact.mantissa:bigint",
  ".paymentOptions[].price.exact.scale:number",
  ".rowId:string",
  ".sortRanks.first_seen:number",
  ".sortRanks.name:number",
  ".sortRanks.payers:number",
  ".sortRanks.price:number",
  ".sortRanks.response_ms:number",
  ".sortRanks.tx_count:number",
  ".sortRanks.updated:number",
  ".sortRanks.uptime:number",
  ".sortRanks.volume:number",
  ".sourceKinds[]:string",
  ".sourceUrls[]:string",
  ".status:string",
  ".tags[]:string",
  ".txCount30d:number",
  ".uptime30d:number",
  ".volume.approx:number",
  ".volume.exact.mantissa:bigint",
  ".volume.exact.scale:number",
].join(" ")}`;

/** A layout with more paths (of the skeleton, of the entries), sorted as layoutOf sorts them. */
function withPaths(layout: string, skeleton: string[], entries: string[]): string {
  const [ownSkeleton = "", ownEntries = ""] = layout.split(" | ");
  const merged = (own: string, added: string[]) => [...own.split(" "), ...added].sort().join(" ");
  return `${merged(ownSkeleton, skeleton)} | ${merged(ownEntries, entries)}`;
}

/** Trust verdicts: the endpoints' trust codes, the entries' verdicts and their score rank. */
const LAYOUT_3 = withPaths(
  LAYOUT_1,
  ["grade", "health", "score", "warnings"].map((column) => `.data.endpoints.columns.${column}.~array:number`),
  [".health:string", ".sortRanks.score:number"],
);

const LAYOUTS: Record<number, string> = {
  1: LAYOUT_1,
  // The layout of 1; the endpoints' flags hold a third bit (callable), which 1's readers would miss.
  2: LAYOUT_1,
  3: LAYOUT_3,
  // Observed payments (the endpoints' volume codes and payers, the entries' observed figures and sort
  // ranks), and whether an origin of the entry has a verified owner (src/ownership).
  // (No endpoint here has observed figures: the volumes' texts and the entries' amounts are absent.)
  4: withPaths(
    LAYOUT_3,
    ["observedVolume", "adjustedVolume", "uniquePayers"].map(
      (column) => `.data.endpoints.columns.${column}.~array:number`,
    ),
    [".sortRanks.observed_volume:number", ".sortRanks.adjusted_volume:number", ".ownerVerified:boolean"],
  ),
};

/** Every path in the values (array items as []) with the kinds of non-null value found there, sorted. */
function layoutOf(values: unknown[]): string {
  const paths = new Set<string>();
  const walk = (value: unknown, path: string) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) for (const item of value) walk(item, `${path}[]`);
    else if (typeof value === "object")
      for (const [key, item] of Object.entries(value)) walk(item, `${path}.${key}`);
    else paths.add(`${path}:${typeof value}`);
  };
  for (const value of values) walk(value, "");
  return [...paths].sort().join(" ");
}

describe("catalogue images: a process starts from the newest one and catches up", () => {
  let database: TestDatabase;
  let pool: ReadPool;
  const endpointIds: string[] = [];

  /** A process's catalogue that reads and writes images, and what it logs (message, and where a load came from). */
  const startProcess = () => {
    const messages: string[] = [];
    const stream = new Writable({
      write(line: Buffer, _encoding, done) {
        const { msg, from } = JSON.parse(line.toString()) as { msg: string; from?: string };
        messages.push(from === undefined ? msg : `${msg} from ${from}`);
        done();
      },
    });
    const logger = createLogger("debug", false, stream);
    const catalogue = new CatalogueKeeper({
      pool,
      logger,
      refreshMs: 0,
      scale: {
        startParts: partsOnWorkers(),
        runAhead: runPassesInSlices,
        images: new CatalogueImages({ pool, logger, writeFrom: 0 }),
      },
    });
    return { catalogue, messages };
  };
  const images = async () =>
    (
      await pool.query<{ id: string; snapshot: string }>(
        "SELECT id::text, snapshot FROM catalogue_images ORDER BY id",
      )
    ).rows;
  /** Waits until the process's image write after its `loads`-th load from the rows has ended (written or not). */
  const imageWriteEnded = async (messages: string[], loads = 1) => {
    const ended = () => messages.filter((message) => message.startsWith("catalogue image")).length;
    for (let tries = 0; ended() < loads; tries += 1) {
      if (tries > 200) throw new Error("no image write ended after 10 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const names = async (catalogue: Catalogue) =>
    (await serviceItems<{ name: string }>(pool, catalogue, { status: "all" }, "name")).map(
      (item) => item.name,
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 6, testLogger);
    const serviceIds = await seedServices(
      database.db,
      Array.from({ length: 24 }, (_, i) => ({
        name: ["Weather forecast", "Stock quotes", "Weather radar", "Translate"][i % 4] ?? "",
        description: `Service number ${i} for ${["forecast", "quote", "storm", "text"][i % 4]} lookups`,
        category: ["Weather", "Finance", null][i % 3] ?? null,
        tags: [["weather"], ["finance", "quotes"], []][i % 3] ?? [],
        uptime30d: i % 5 === 0 ? null : 0.4 + (i % 6) / 10,
        volumeUsdc30d: i % 4 === 0 ? null : `${(i * 37) % 11}.${i}`,
        txCount30d: i * 3,
        infoUpdatedAt: new Date(Date.UTC(2026, 10, 1 + i)),
        endpoints: [
          { method: "GET", url: `https://s${i}.test/a`, description: "weather data" },
          { method: "POST", url: `https://s${i}.test/b`, description: "stock quote" },
        ],
      })),
    );
    for (const [i, serviceId] of serviceIds.entries()) {
      const endpointId = await firstEndpointId(database.db, serviceId);
      endpointIds.push(endpointId);
      await seedPaymentOptions(database.db, endpointId, [
        { network: "eip155:8453", networkName: "base", priceUsdc: `0.0${i % 7}` },
      ]);
    }
    await recordProbe(database.db, {
      endpointId: endpointIds[1] ?? "",
      probedAt: new Date(Date.now() - 60_000),
      result: probeResult({ options: [probeOption()] }),
      drift: null,
    });
  });
  beforeEach(async () => {
    await pool.query("DELETE FROM catalogue_images");
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("when a catalogue is stored and read back, then it answers every search, filter and sort as the one loaded from the rows", async () => {
    for (const offThreadFrom of [Number.POSITIVE_INFINITY, 0]) {
      await pool.query("DELETE FROM catalogue_images");
      const loaded = await loadCatalogue(pool, { startParts: partsOnWorkers(offThreadFrom) });
      expect(await writeCatalogueImage(pool, loaded)).toBe(true);
      const read = await readCatalogueImage(pool);
      if (read === null) throw new Error("no image was read");
      expect(read.snapshot).toBe(loaded.snapshot);
      expect(read.services.size).toBe(24);
      expect(read.endpoints.size).toBe(48);
      const expected = answers(loaded);
      expect(expected.searches[0]?.total).toBeGreaterThan(0);
      expect(expected.lists.find((list) => list.sort === "price")?.services.length).toBeGreaterThan(0);
      expect(answers(read)).toEqual(expected);
      expect(
        read.endpoints.list({ verified: true }, undefined, { offset: 0, limit: 10 }, undefined, Date.now())
          .total,
      ).toBe(1);
    }
  });

  it("when the image is written, then its layout is the one its format names", async () => {
    const loaded = await loadCatalogue(pool);
    await writeCatalogueImage(pool, loaded);
    const { rows } = await pool.query<{ pieces: number[]; first: Buffer }>(
      `SELECT i.pieces, c.data AS first FROM catalogue_images i
       JOIN catalogue_image_chunks c ON c.image_id = i.id AND c.seq = 0`,
    );
    const [row] = rows;
    if (row === undefined) throw new Error("no image");
    const [skeletonLength = 0, entriesLength = 0] = row.pieces;
    const skeleton = v8.deserialize(row.first.subarray(0, skeletonLength));
    const entriesAt = skeletonLength + ((8 - (skeletonLength % 8)) % 8);
    const entries = v8.deserialize(row.first.subarray(entriesAt, entriesAt + entriesLength)) as unknown[];
    const layout = `${layoutOf([skeleton])} | ${layoutOf(entries)}`;
    expect(layout, "the image's layout changed: give it a new IMAGE_FORMAT and a line in LAYOUTS").toBe(
      LAYOUTS[IMAGE_FORMAT],
    );
  });

  it("when a process starts after another stored its catalogue, then it answers from the image and catches up on what changed since", async () => {
    const first = startProcess();
    await first.catalogue.current();
    await imageWriteEnded(first.messages);
    expect(first.messages).toContain("catalogue image written");

    // Since the image: a probe result (brought in place) and a rename (a change of shape).
    await recordProbe(database.db, {
      endpointId: endpointIds[2] ?? "",
      probedAt: new Date(Date.now() - 30_000),
      result: probeResult({ options: [probeOption()] }),
      drift: null,
    });
    await database.db.service.updateMany({ where: { name: "Translate" }, data: { name: "Translator" } });

    const second = startProcess();
    const current = await second.catalogue.current();
    expect(second.messages[0]).toBe("catalogue index loaded from image");
    expect(await names(current)).toContain("Translator");
    expect(await names(current)).not.toContain("Translate");
    expect(
      current.endpoints.list({ verified: true }, undefined, { offset: 0, limit: 10 }, undefined, Date.now())
        .total,
    ).toBe(2);
    // The rename is a change of shape: the catalogue was then loaded from the rows.
    expect(second.messages).toContain("catalogue index loaded from database");
    await imageWriteEnded(second.messages);
    expect((await images()).map((image) => image.snapshot)).toEqual([current.snapshot]);
  });

  it("when nothing changed the catalogue's shape since the newest image, then no process writes another", async () => {
    const loaded = await loadCatalogue(pool);
    expect(await writeCatalogueImage(pool, loaded)).toBe(true);
    const again = await loadCatalogue(pool);
    expect(await writeCatalogueImage(pool, again)).toBe(false);
    expect(await images()).toHaveLength(1);
  });

  it("when the newest image is over an hour old, then a catalogue brought up to date in place replaces it", async () => {
    const loaded = await loadCatalogue(pool);
    expect(await writeCatalogueImage(pool, loaded)).toBe(true);
    await recordProbe(database.db, {
      endpointId: endpointIds[3] ?? "",
      probedAt: new Date(Date.now() - 20_000),
      result: probeResult({ options: [probeOption()] }),
      drift: null,
    });
    const newer = await loadCatalogue(pool);
    // Probe results alone: the newest image still does while it is young.
    expect(await writeCatalogueImage(pool, newer)).toBe(false);
    await pool.query("UPDATE catalogue_images SET created_at = now() - interval '61 minutes'");
    expect(await writeCatalogueImage(pool, newer)).toBe(true);
    expect((await images()).map((image) => image.snapshot)).toEqual([newer.snapshot]);
  });

  it("when two processes write at once, then one image is written and the older ones go", async () => {
    const stale = await loadCatalogue(pool);
    await writeCatalogueImage(pool, stale);
    await database.db.service.updateMany({ where: { name: "Translator" }, data: { name: "Translate" } });
    const [a, b] = [await loadCatalogue(pool), await loadCatalogue(pool)];
    const written = await Promise.all([writeCatalogueImage(pool, a), writeCatalogueImage(pool, b)]);
    expect(written.filter(Boolean)).toHaveLength(1);
    const kept = await images();
    expect(kept).toHaveLength(1);
    expect([a.snapshot, b.snapshot]).toContain(kept[0]?.snapshot);
  });

  it("when the newest image is older than the change logs reach, or from another database's history, then it is not read", async () => {
    const loaded = await loadCatalogue(pool);
    await writeCatalogueImage(pool, loaded);
    expect(await readCatalogueImage(pool)).not.toBeNull();
    await pool.query("UPDATE catalogue_images SET created_at = now() - interval '23 hours 30 minutes'");
    expect(await readCatalogueImage(pool)).toBeNull();
    // Taken at transaction ids this database has not reached (a restored copy starts lower).
    await pool.query("UPDATE catalogue_images SET created_at = now(), snapshot = '900000000:900000000:'");
    expect(await readCatalogueImage(pool)).toBeNull();
    const fresh = startProcess();
    expect((await fresh.catalogue.current()).services.size).toBe(24);
    expect(fresh.messages[0]).toBe("catalogue index loaded from database");
    await imageWriteEnded(fresh.messages);
  });

  it("when the newest image cannot be read whole, then the process says so and loads from the rows", async () => {
    const loaded = await loadCatalogue(pool);
    await writeCatalogueImage(pool, loaded);
    // A chunk cut short, as a damaged or half-copied table would hold it.
    await pool.query("UPDATE catalogue_image_chunks SET data = substring(data from 1 for 100) WHERE seq = 0");
    const started = startProcess();
    expect((await started.catalogue.current()).services.size).toBe(24);
    expect(started.messages.slice(0, 2)).toEqual([
      "reading the catalogue image failed; loading from the database",
      "catalogue index loaded from database",
    ]);
    // It stores a good image in place of the broken one, which the next process reads.
    await imageWriteEnded(started.messages);
    expect(started.messages).toContain("catalogue image written");
    const next = startProcess();
    await next.catalogue.current();
    expect(next.messages[0]).toBe("catalogue index loaded from image");
  });

  it("when the process stops while writing, then no image is left and its connection goes back", async () => {
    const loaded = await loadCatalogue(pool);
    const stopping = new AbortController();
    stopping.abort();
    await expect(writeCatalogueImage(pool, loaded, { signal: stopping.signal })).rejects.toThrow();
    expect(await images()).toHaveLength(0);
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  // Last: its probe changes a price the other tests' catalogues would then have.
  it("when a probe moved a price in place, then the image stores the price ranks the catalogue sorts by", async () => {
    const loaded = await loadCatalogue(pool);
    await recordProbe(database.db, {
      endpointId: endpointIds[13] ?? "",
      probedAt: new Date(Date.now() - 10_000),
      result: probeResult({ options: [probeOption({ price_usdc: "0.0001", amount_atomic: "100" })] }),
      drift: null,
    });
    expect(await refreshInPlace(pool, loaded)).toBe(true);
    const byPrice = await serviceItems<{ id: string }>(pool, loaded, { status: "all" }, "price");
    const { rows } = await pool.query<{ id: string }>(
      "SELECT service_id::text AS id FROM endpoints WHERE id = $1",
      [endpointIds[13]],
    );
    // From among the dearest (0.06) to right after the four free ones (0.00).
    expect(byPrice.findIndex((item) => item.id === rows[0]?.id)).toBe(4);
    expect(await writeCatalogueImage(pool, loaded)).toBe(true);
    const read = await readCatalogueImage(pool);
    if (read === null) throw new Error("no image was read");
    expect(answers(read)).toEqual(answers(loaded));
  });
});
