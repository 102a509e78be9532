import { describe, expect, it } from "vitest";
import { listingOf, ORIGIN, page } from "./support";

/**
 * Listing pages as real directories render them and not covered elsewhere: React card grids,
 * icon-only pagination with accessible names, result ranges without a noun, "Load more" links,
 * row-headed tables, entities.
 */

const nextCard = (slug: string, name: string, host: string, summary: string): string =>
  `<div class="group relative rounded-xl border bg-card p-5 shadow-sm hover:shadow-md"><div class="flex items-start gap-3"><img class="h-10 w-10 rounded" src="/logos/${slug}.png" alt=""><div class="min-w-0 flex-1"><a class="after:absolute after:inset-0" href="/services/${slug}"><span class="truncate font-semibold">${name}</span></a><div class="truncate text-xs text-muted-foreground">${host}</div></div></div><p class="mt-3 line-clamp-2 text-sm">${summary}</p><div class="mt-3 flex gap-1"><span class="rounded-full bg-muted px-2 text-xs">AI</span><span class="rounded-full bg-muted px-2 text-xs">Data</span></div></div>`;

const grid = [
  nextCard("quotely", "Quotely", "quotely.example", "Real-time FX quotes for agents."),
  nextCard("geocodr", "Geocodr", "api.geocodr.example", "Addresses to coordinates &amp; back."),
  nextCard("mailcannon", "Mail&nbsp;Cannon", "mailcannon.example", "Transactional e-mail for agents."),
].join("");

describe("extractListing on server-rendered card grids", () => {
  it("when cards are utility-class divs with a stretched link on the name, then each card is one entry with its name, host and summary", () => {
    const result = listingOf(
      page(`<main><div class="grid grid-cols-1 gap-4 md:grid-cols-3">${grid}</div></main>`),
      "/services",
    );
    expect(result.entries).toEqual([
      {
        detailUrl: `${ORIGIN}/services/quotely`,
        name: "Quotely",
        domain: "quotely.example",
        description: "Real-time FX quotes for agents.",
      },
      {
        detailUrl: `${ORIGIN}/services/geocodr`,
        name: "Geocodr",
        domain: "api.geocodr.example",
        description: "Addresses to coordinates & back.",
      },
      {
        detailUrl: `${ORIGIN}/services/mailcannon`,
        name: "Mail Cannon",
        domain: "mailcannon.example",
        description: "Transactional e-mail for agents.",
      },
    ]);
  });

  it('when a table row\'s name is a <th scope="row"> link, then the header columns still give domain and summary', () => {
    const row = (slug: string, name: string) =>
      `<tr><th scope="row"><a href="/api/${slug}">${name}</a></th><td>${slug}.example</td><td>The ${name} data API for agents.</td><td>99.9%</td></tr>`;
    const html =
      page(`<table><thead><tr><th scope="col">Service</th><th scope="col">Domain</th><th scope="col">Description</th><th scope="col">Uptime</th></tr></thead>
      <tbody>${row("alpha", "Alpha")}${row("beta", "Beta")}${row("gamma", "Gamma")}</tbody></table>`);
    expect(listingOf(html, "/api").entries).toEqual(
      ["alpha", "beta", "gamma"].map((slug) => {
        const name = slug[0]?.toUpperCase() + slug.slice(1);
        return {
          detailUrl: `${ORIGIN}/api/${slug}`,
          name,
          domain: `${slug}.example`,
          description: `The ${name} data API for agents.`,
        };
      }),
    );
  });
});

describe("extractListing on pagination as real sites draw it", () => {
  it("when the only next link is an icon named by aria-label 'Next page', then it is followed", () => {
    const html = page(`<main><div class="grid">${grid}</div>
      <nav aria-label="pagination"><a aria-label="Previous page" href="/services?page=1"><svg viewBox="0 0 24 24"><path d="M15 18l-6-6 6-6"/></svg></a>
      <a aria-label="Next page" href="/services?page=3"><svg viewBox="0 0 24 24"><path d="M9 18l6-6-6-6"/></svg></a></nav></main>`);
    const result = listingOf(html, "/services?page=2");
    expect(result.listingUrls).toEqual([`${ORIGIN}/services?page=1`, `${ORIGIN}/services?page=3`]);
    expect(result.entries).toHaveLength(3);
  });

  it("when 'Showing 51–100 of 1,234 services' is stated, then page 2 of 25 is known and pages are generated from ?page=N", () => {
    const html = page(`<main><p>Showing 51&ndash;100 of 1,234 services</p><div class="grid">${grid}</div>
      <a href="/services?page=3">Next</a></main>`);
    const result = listingOf(html, "/services?page=2");
    expect(result.pageInfo).toEqual({ current: 2, total: 25 });
    expect(result.listingUrls).toContain(`${ORIGIN}/services?page=25`);
    expect(result.listingUrls).toContain(`${ORIGIN}/services?page=1`);
  });

  it("when the range is stated without a noun ('Showing 51 to 100 of 1,234'), then the page count is still read", () => {
    const html = page(`<main><p>Showing 51 to 100 of 1,234</p><div class="grid">${grid}</div></main>`);
    expect(listingOf(html, "/services?page=2").pageInfo).toEqual({ current: 2, total: 25 });
  });

  it("when a bare range has no 'showing' and no noun ('51–100 of 1,234'), then no page count is guessed", () => {
    // "51–100 of 1,234" alone could be a score, a quota or a rank; only wording that names
    // the results says it is a page of the listing.
    const html = page(`<main><div class="grid">${grid}</div><p>Rate limit 51–100 of 1,234</p></main>`);
    expect(listingOf(html, "/services").pageInfo).toBeNull();
  });

  it("when the next page is a 'Load more services' link to ?page=N, then that page is a listing URL", () => {
    const html = page(`<main><div class="grid">${grid}</div>
      <div class="flex justify-center"><a class="btn" href="/services?page=2">Load more services</a></div></main>`);
    const result = listingOf(html, "/services");
    expect(result.listingUrls).toEqual([`${ORIGIN}/services?page=2`]);
    expect(result.entries.map((e) => e.detailUrl)).not.toContain(`${ORIGIN}/services?page=2`);
  });

  it("when a 'Show more' link keeps the listing's filters and adds a page number, then it is followed", () => {
    const html = page(`<main><div class="grid">${grid}</div>
      <a href="/services?network=base&amp;page=2">Show more</a></main>`);
    expect(listingOf(html, "/services?network=base").listingUrls).toEqual([
      `${ORIGIN}/services?network=base&page=2`,
    ]);
  });

  it('when the next page is given only by <link rel="next"> with a relative path, then it resolves against the page', () => {
    const html = `<html><head><link rel="next" href="page/3/"></head><body><main><div class="grid">${grid}</div></main></body></html>`;
    const result = listingOf(html, "/directory/page/2/");
    expect(result.listingUrls).toContain(`${ORIGIN}/directory/page/2/page/3/`);
  });
});
