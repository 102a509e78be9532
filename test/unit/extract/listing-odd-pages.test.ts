import { describe, expect, it } from "vitest";
import { listingOf, ORIGIN, page } from "./support";

const card = (slug: string, name: string) =>
  `<a class="c" href="/apis/${slug}"><h3>${name}</h3><p>${name.toLowerCase()}.example</p><p>Pay-per-call ${name} API for agents.</p></a>`;

describe("extractListing on hand-written pages", () => {
  it("when whole cards are links, then the heading inside is the name and the paragraphs give domain and summary", () => {
    const html = page(`<main><div>${card("alpha", "Alpha")}${card("beta", "Beta")}</div></main>`);
    expect(listingOf(html, "/apis").entries).toEqual([
      {
        detailUrl: `${ORIGIN}/apis/alpha`,
        name: "Alpha",
        domain: "alpha.example",
        description: "Pay-per-call Alpha API for agents.",
      },
      {
        detailUrl: `${ORIGIN}/apis/beta`,
        name: "Beta",
        domain: "beta.example",
        description: "Pay-per-call Beta API for agents.",
      },
    ]);
  });

  it("when only a 'Next »' link exists, then it and the pages before the current one are listing URLs", () => {
    const html = page(`<main><div>${card("alpha", "Alpha")}${card("beta", "Beta")}</div>
      <div><a href="/apis/page/3">Next »</a></div></main>`);
    const result = listingOf(html, "/apis/page/2");
    expect(result.listingUrls).toEqual([`${ORIGIN}/apis/page/1`, `${ORIGIN}/apis/page/3`]);
    expect(result.pageInfo).toBeNull();
  });

  it("when 'Page 2 of 4' is stated on a /page/N URL, then pages 1, 3 and 4 are generated on that path", () => {
    const html = page(`<main><div>${card("alpha", "Alpha")}</div><p>Showing page 2 of 4</p></main>`);
    const result = listingOf(html, "/apis/page/2");
    expect(result.pageInfo).toEqual({ current: 2, total: 4 });
    expect(result.listingUrls.sort()).toEqual([1, 3, 4].map((n) => `${ORIGIN}/apis/page/${n}`));
  });

  it("when the last page holds one service among many site links, then only the service is an entry", () => {
    const html =
      page(`<main><p><a href="/leaderboard">Leaderboard</a> <a href="/stats">Stats</a> <a href="/pricing">Pricing</a>
      <a href="/about">About us</a> <a href="/login">Sign in</a> <a href="https://github.com/dir">GitHub</a></p>
      <ul><li><a href="/services/zeta">Zeta</a> <span>zeta.example</span> <p>The last service in the directory.</p>
      <a href="/services?tag=ai">#ai</a> <a href="/categories/data">Data</a></li></ul>
      <nav><a href="/services?page=8">‹ Prev</a></nav></main>`);
    const result = listingOf(html, "/services?page=9");
    expect(result.entries).toEqual([
      {
        detailUrl: `${ORIGIN}/services/zeta`,
        name: "Zeta",
        domain: "zeta.example",
        description: "The last service in the directory.",
      },
    ]);
    // Page 9 implies pages 1 to 8, generated from the pattern of the "Prev" link.
    expect(result.listingUrls).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `${ORIGIN}/services?page=${n}`));
  });

  it("when a table links ids as numbers, then those links are services, not page numbers", () => {
    const row = (id: number, name: string) =>
      `<tr><td><a href="/s/${id}">${id}</a></td><td><a href="/s/${id}">${name}</a></td><td>${name.toLowerCase()}.example</td><td>Fast ${name} data for agents.</td></tr>`;
    const html = page(`<table><thead><tr><th>#</th><th>Service</th><th>Host</th><th>Summary</th></tr></thead>
      <tbody>${row(11, "Kappa")}${row(12, "Lambda")}</tbody></table>`);
    const result = listingOf(html, "/list");
    expect(result.listingUrls).toEqual([]);
    expect(result.entries).toEqual([
      {
        detailUrl: `${ORIGIN}/s/11`,
        name: "Kappa",
        domain: "kappa.example",
        description: "Fast Kappa data for agents.",
      },
      {
        detailUrl: `${ORIGIN}/s/12`,
        name: "Lambda",
        domain: "lambda.example",
        description: "Fast Lambda data for agents.",
      },
    ]);
  });

  it("when the same service is linked twice with different fragments, then it is one entry", () => {
    const html =
      page(`<ul><li><a href="/services/a">A svc</a><p>First service summary text.</p><a href="/services/a#reviews">Reviews</a></li>
      <li><a href="/services/b">B svc</a><p>Second service summary text.</p><a href="/services/b#reviews">Reviews</a></li></ul>`);
    expect(listingOf(html, "/").entries.map((e) => e.detailUrl)).toEqual([
      `${ORIGIN}/services/a`,
      `${ORIGIN}/services/b`,
    ]);
  });

  it("when a page has no service links at all, then there are no entries", () => {
    const html = page(
      `<header><nav><a href="/about">About</a></nav></header><main><p>Nothing listed yet.</p></main>`,
    );
    expect(listingOf(html, "/").entries).toEqual([]);
  });
});

describe("extractListing when entries carry several kinds of links", () => {
  it("when cards also link to 'Compare' and to a redirect, then the 'Details' link is the service and the bold text its name", () => {
    const cards = ["alpha", "beta", "gamma"]
      .map(
        (s) => `<div><a href="/compare?add=${s}">Compare</a><a href="/r/${s}">↗</a>
          <div><strong>${s.toUpperCase()} API</strong></div><div>${s}.example</div>
          <div>Pay per call ${s} data for your agents.</div><a href="/listing/${s}/">Details</a></div>`,
      )
      .join("");
    const result = listingOf(
      page(`<div>${cards}</div><div><a href="/?p=2">2</a><a href="/?p=3">3</a></div>`),
      "/",
    );
    expect(result.entries[0]).toEqual({
      detailUrl: `${ORIGIN}/listing/alpha/`,
      name: "ALPHA API",
      domain: "alpha.example",
      description: "Pay per call alpha data for your agents.",
    });
    expect(result.entries.map((e) => e.detailUrl)).toEqual(
      ["alpha", "beta", "gamma"].map((s) => `${ORIGIN}/listing/${s}/`),
    );
    // The page without a number is page 1, so ?p=1 is not generated.
    expect(result.listingUrls).toEqual([`${ORIGIN}/?p=2`, `${ORIGIN}/?p=3`]);
  });

  it("when articles link the same service with and without www, then it is one entry read from the whole article", () => {
    const articles = ["one", "two"]
      .map(
        (s) => `<article><h2><a href="https://www.directory.test/x402/${s}">Service ${s}</a></h2>
          <p>Does ${s} things for agents quickly.</p>
          <footer><span>${s}.example</span> · <a href="/x402/${s}#reviews">4 reviews</a></footer></article>`,
      )
      .join("");
    const html = `<html><head><link rel="next" href="/x402?page=2"></head><body><section>${articles}</section></body></html>`;
    const result = listingOf(html, "/x402");
    expect(result.entries).toEqual([
      {
        detailUrl: `${ORIGIN}/x402/one`,
        name: "Service one",
        domain: "one.example",
        description: "Does one things for agents quickly.",
      },
      {
        detailUrl: `${ORIGIN}/x402/two`,
        name: "Service two",
        domain: "two.example",
        description: "Does two things for agents quickly.",
      },
    ]);
    expect(result.listingUrls).toEqual([`${ORIGIN}/x402?page=2`]);
  });
});

describe("extractListing when services live at the site root", () => {
  it("when entries are /slug links in a list and the page also links /leaderboard, then only the list items are services", () => {
    const items = ["giftly", "postbox", "skycast"]
      .map(
        (s) =>
          `<li><a href="/${s}">${s}</a> <span>${s}.example</span> <p>The ${s} service for agents.</p></li>`,
      )
      .join("");
    const html =
      page(`<main><p>See the <a href="/leaderboard">leaderboard</a> of the most used services this month.</p>
      <ul>${items}</ul></main>`);
    expect(listingOf(html, "/").entries.map((e) => e.detailUrl)).toEqual(
      ["giftly", "postbox", "skycast"].map((s) => `${ORIGIN}/${s}`),
    );
  });
});
