import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { crawlOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureSite } from "../../support/fixture-site";

/**
 * Markups no other fixture uses: tags drawn as sibling chips (several element kinds, with and
 * without whitespace between them) and descriptions of two words in several places.
 */
const DETAILS: Record<string, string> = {
  lingo: `<main><h1>Lingo</h1><div class="tagline">Translation API</div>
    <div class="meta"><span>Tags</span><span class="chip">translation</span><span class="chip">nlp</span></div></main>`,
  pixel: `<main><h1>Pixel</h1><p>Image upscaling</p>
    <div><strong>Tags</strong> <a class="pill" href="#">images</a> <a class="pill" href="#">nlp</a></div></main>`,
  quill: `<main><h1>Quill AI</h1><p>Quill AI</p>
    <dl><dt>Tags</dt><dd>writing</dd><dd>nlp</dd><dt>Uptime</dt><dd>99%</dd></dl></main>`,
  ohm: `<main><h1>Ohm</h1><section><h3>Topics</h3><span class="badge">energy</span><span class="badge">iot</span></section></main>`,
};

function listing(): string {
  const items = Object.keys(DETAILS)
    .map(
      (slug) =>
        `<li><a href="/s/${slug}"><h3>${slug}</h3></a><span>${slug === "ohm" ? "Grid prices" : ""}</span></li>`,
    )
    .join("");
  return `<html><body><main><h1>Services</h1><ul>${items}</ul></main></body></html>`;
}

describe("crawling a directory whose values are chips and whose descriptions are short", () => {
  let database: TestDatabase;
  let api: TestApp;
  const site = new FixtureSite();
  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    await site.start();
    site.set("/services", listing());
    for (const [slug, body] of Object.entries(DETAILS))
      site.set(`/s/${slug}`, `<html><body>${body}</body></html>`);
    await crawlOnce(database.db, database.url, site.url("/services"));
  });
  afterAll(async () => {
    await api.close();
    await site.stop();
    await database.drop();
  });

  const byName = async (): Promise<Map<string, { tags: string[]; description: string | null }>> => {
    const response = await request(api.app).get("/v1/services?sort=name");
    return new Map(response.body.items.map((s: { name: string }) => [s.name, s]));
  };

  it("when tags are adjacent chips (spans, links, dd, badges under a heading), then each chip is one tag", async () => {
    const services = await byName();
    expect(services.get("Lingo")?.tags).toEqual(["nlp", "translation"]);
    expect(services.get("Pixel")?.tags).toEqual(["images", "nlp"]);
    expect(services.get("Quill AI")?.tags).toEqual(["nlp", "writing"]);
    expect(services.get("Ohm")?.tags).toEqual(["energy", "iot"]);
    const tags = await request(api.app).get("/v1/tags");
    expect(tags.body.items).toContainEqual({ tag: "nlp", service_count: 3 });
    const filtered = await request(api.app).get("/v1/services?tag=nlp&sort=name");
    expect(filtered.body.items.map((s: { name: string }) => s.name)).toEqual(["Lingo", "Pixel", "Quill AI"]);
  });

  it("when a description is two words (tagline, paragraph, listing line), then it is kept", async () => {
    const services = await byName();
    expect(services.get("Lingo")?.description).toBe("Translation API");
    expect(services.get("Pixel")?.description).toBe("Image upscaling");
    expect(services.get("Ohm")?.description).toBe("Grid prices");
  });

  it("when a description only repeats the name, then it is discarded and recorded as a value problem", async () => {
    const services = await byName();
    expect(services.get("Quill AI")?.description).toBeNull();
    const crawls = await request(api.app).get("/v1/crawls");
    expect(crawls.body.items[0].errors).toContainEqual(
      expect.objectContaining({ kind: "value", field: "description", raw_text: "Quill AI" }),
    );
  });
});
