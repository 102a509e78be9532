import { describe, expect, it } from "vitest";
import { indexedFieldsEqual } from "../../../../src/search/freshness/in-place-refresh";
import type { ServiceEntry } from "../../../../src/search/tables/service-entry";

const entry: ServiceEntry = {
  id: "service-1",
  rowId: "row-1",
  status: "listed",
  category: "weather",
  domain: "weather.test",
  uptime30d: 99.5,
  avgResponseMs30d: 120,
  volume: null,
  txCount30d: 40,
  payerCount30d: 7,
  infoUpdatedAt: 1_790_000_000_000,
  tags: ["weather", "forecast"],
  methods: ["GET"],
  sourceKinds: ["bazaar"],
  sourceUrls: ["https://feed.test"],
  paymentOptions: [],
  lastVerifiedAt: null,
  drift: false,
  payableEndpoints: 1,
  health: "live",
  grade: "B",
  score: 81,
  warnings: ["slow"],
  ownerVerified: false,
  observedVolume: null,
  observedUniquePayers: 3,
  sortRanks: {} as ServiceEntry["sortRanks"],
};

describe("which versions of an entry an in-place refresh may swap", () => {
  it("when only what no column holds changes (the sources, the last verification), then the newer takes the older's place", () => {
    expect(
      indexedFieldsEqual(entry, { ...entry, sourceUrls: ["https://other.test"], lastVerifiedAt: 1 }),
    ).toBe(true);
    expect(indexedFieldsEqual(entry, { ...entry, tags: ["forecast", "weather"] })).toBe(true);
  });

  it.each<[string, Partial<ServiceEntry>]>([
    ["the grade (min_grade's column)", { grade: "A" }],
    ["a warning (no_warning's list)", { warnings: [] }],
    ["another warning instead", { warnings: ["drift"] }],
    ["the score", { score: 80 }],
    ["a tag", { tags: ["weather"] }],
    ["the method", { methods: ["POST"] }],
    ["the status", { status: "delisted" }],
    ["the unique payers", { observedUniquePayers: 4 }],
    ["the uptime", { uptime30d: 99 }],
    ["the health", { health: "degraded" }],
  ])("when %s changes, then the catalogue is made again", (_what, change) => {
    expect(indexedFieldsEqual(entry, { ...entry, ...change })).toBe(false);
  });
});
