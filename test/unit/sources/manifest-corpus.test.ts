import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseManifest } from "../../../src/sources/origin-manifest/parse-manifest";

/**
 * Manifests real sellers publish (test/fixtures/manifests/real, sources in SOURCES.md), each
 * with what a careful reader takes from it: the resources on the seller's own site, those it
 * names on other sites, the items it could not read, and the prices it states.
 */
const DIR = join(import.meta.dirname, "../../fixtures/manifests/real");

interface Expected {
  servedAt: string;
  unreadable?: string;
  listed?: string[];
  elsewhere?: string[];
  problems?: string[];
  prices?: Record<string, string[]>;
}

const corpus = JSON.parse(readFileSync(join(DIR, "expected.json"), "utf8")) as Record<string, Expected>;

describe("the corpus of real manifests", () => {
  it("when counted, then it holds at least 30 manifests", () => {
    expect(Object.keys(corpus).length).toBeGreaterThanOrEqual(30);
  });

  for (const [slug, expected] of Object.entries(corpus)) {
    it(`when ${slug} is read, then exactly the expected resources are listed`, () => {
      const json: unknown = JSON.parse(readFileSync(join(DIR, `${slug}.json`), "utf8"));
      const reading = parseManifest(json, new URL(expected.servedAt));
      if (expected.unreadable !== undefined) {
        expect(reading).toEqual(expect.stringContaining(expected.unreadable));
        return;
      }
      if (typeof reading === "string") throw new Error(`not read: ${reading}`);
      expect(reading.resources.map((r) => `${r.method} ${r.resourceUrl}`)).toEqual(expected.listed);
      expect(reading.elsewhere.map((r) => `${r.method} ${r.url}`)).toEqual(expected.elsewhere);
      expect(reading.problems.map((p) => p.where)).toEqual(expected.problems);
      for (const [resource, options] of Object.entries(expected.prices ?? {})) {
        const found = reading.resources.find((r) => `${r.method} ${r.resourceUrl}` === resource);
        const read = found?.paymentOptions.map((o) => `${o.network} ${o.asset} ${o.amount_atomic}`);
        expect(read, resource).toEqual(options);
      }
    });
  }
});
