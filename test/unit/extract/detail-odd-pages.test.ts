import { describe, expect, it } from "vitest";
import { detailOf, page } from "./support";

describe("extractDetail on hand-written pages", () => {
  it("when stats are bold labels inside paragraphs, then each paragraph gives its value", () => {
    const html = page(`<main><h1>Sift</h1><p>Web search results for agents.</p>
      <p><b>Uptime:</b> 99%</p><p><b>Avg response:</b> 340&nbsp;ms</p><p><strong>Last updated:</strong> Nov 3, 2026</p>
      <p><b>Tags:</b> search, #web, Search</p></main>`);
    const detail = detailOf(html);
    expect(detail.stats).toEqual({ uptime30d: "99%", avgResponse30d: "340 ms", infoUpdated: "Nov 3, 2026" });
    expect(detail.tags).toEqual(["search", "#web", "Search"]);
    expect(detail.description).toBe("Web search results for agents.");
  });

  it("when a page shows no statistics, endpoints or tags, then those come back empty and nothing is invented", () => {
    const html = page(`<header><nav><a href="/">Home</a> Updated hourly</nav></header>
      <main><h1>Quiet Service</h1><p>A service that has not been called yet, so there is nothing to show.</p></main>
      <footer><p>Last updated: Nov 1, 2026</p><p>Uptime: 100%</p></footer>`);
    expect(detailOf(html)).toEqual({
      name: "Quiet Service",
      domain: null,
      description: "A service that has not been called yet, so there is nothing to show.",
      category: null,
      endpoints: [],
      stats: {},
      tags: [],
    });
  });

  // Hand-written or truncated HTML: dt/dd, li, tr/td and p closed only by what follows them.
  const unclosed = `<title>Tallyho</title><h1>Tallyho</h1>
      <dl><dt>Uptime (30 days)<dd>99.5 %<dt>Last updated<dd>Nov 2, 2026</dl>
      <table><tr><th>Avg. response (30d)<td>88 ms<tr><th>Unique payers<td>1,204</table>
      <h2>Endpoints</h2><ul><li><code>GET</code> https://tallyho.example/v1/invoices List invoices
      <li><code>post</code> /v1/invoices Create an invoice</ul>
      <p>Tags: billing, #Invoices`;

  it.each([
    ["with no html, head or body element", unclosed],
    ["inside html and body elements", `<html><head></head><body>${unclosed}`],
  ])("when tags are left unclosed %s, then the page reads as a browser shows it", (_, html) => {
    const detail = detailOf(html, "/services/tallyho");
    expect(detail.name).toBe("Tallyho");
    expect(detail.stats).toEqual({
      uptime30d: "99.5 %",
      infoUpdated: "Nov 2, 2026",
      avgResponse30d: "88 ms",
      payerCount30d: "1,204",
    });
    expect(detail.endpoints).toEqual([
      { method: "GET", url: "https://tallyho.example/v1/invoices", description: "List invoices" },
      { method: "post", url: "/v1/invoices", description: "Create an invoice" },
    ]);
    expect(detail.tags).toEqual(["billing", "#Invoices"]);
  });

  it("when there is no h1, then the name comes from og:title or <title> without the site suffix", () => {
    const withTitle = page(
      `<div><p>Gift cards and eSIMs for agents.</p></div>`,
      `<title>Giftly — x402 Service Market</title>`,
    );
    expect(detailOf(withTitle).name).toBe("Giftly");
    const withOg = page(
      `<div><p>Gift cards.</p></div>`,
      `<title>x402 Service Market | Giftly</title><meta property="og:title" content="Giftly | x402 Service Market"><meta property="og:site_name" content="x402 Service Market">`,
    );
    expect(detailOf(withOg).name).toBe("Giftly");
  });

  it("when several statistics share one line or are split by <br>, then each label takes only its own value", () => {
    const html = page(`<main><h1>Oraclette</h1>
      <div>Uptime: 99.99% · Latency: 41 ms · Payers: 1.1K</div>
      <p>Transactions (30d): 310.4K<br>USDC volume: $7,002.10<br>Info updated: Nov 20, 2026</p></main>`);
    expect(detailOf(html).stats).toEqual({
      uptime30d: "99.99%",
      avgResponse30d: "41 ms",
      payerCount30d: "1.1K",
      txCount30d: "310.4K",
      volume30d: "$7,002.10",
      infoUpdated: "Nov 20, 2026",
    });
  });

  it("when stats are one header row over one value row, then each column header labels its cell", () => {
    const html = page(`<main><h1>Skycast</h1><table>
      <tr><th>Availability</th><th>Response time</th><th>Txns</th><th>Unique payers</th><th>30d volume</th></tr>
      <tr><td>99.9%</td><td>120ms</td><td>8,211</td><td>95</td><td>$410</td></tr></table></main>`);
    expect(detailOf(html).stats).toEqual({
      uptime30d: "99.9%",
      avgResponse30d: "120ms",
      txCount30d: "8,211",
      payerCount30d: "95",
      volume30d: "$410",
    });
  });

  it("when values are labelled only by aria-label, title or <label for>, then the accessible name is the label", () => {
    const html = page(`<main><h1>Dialcheck</h1>
      <span aria-label="Uptime over 30 days">99.6%</span>
      <span title="Average response time">150ms</span>
      <label for="payers">Payer address count</label> <output id="payers">71</output></main>`);
    expect(detailOf(html).stats).toEqual({
      uptime30d: "99.6%",
      avgResponse30d: "150ms",
      payerCount30d: "71",
    });
  });

  it("when endpoints are plain text lines, then method, URL and description are split", () => {
    const html = page(`<main><h1>Postbox</h1><h2>API endpoints</h2><ul>
      <li>POST /api/send — send an email</li>
      <li>post https://postbox.example/api/inbox/buy: buy a managed inbox</li>
      <li><code>POST /api/subdomain/buy</code> buy a subdomain</li></ul></main>`);
    expect(detailOf(html).endpoints).toEqual([
      { method: "POST", url: "/api/send", description: "send an email" },
      { method: "post", url: "https://postbox.example/api/inbox/buy", description: "buy a managed inbox" },
      { method: "POST", url: "/api/subdomain/buy", description: "buy a subdomain" },
    ]);
  });

  it("when an 'Endpoints' section lists URLs without methods, then they are endpoints with a null method", () => {
    const html = page(`<main><h1>Tickerwire</h1><p>All endpoints are GET.</p>
      <section><h2>Endpoints</h2><ul><li><a href="https://api.tickerwire.example/news">/news</a> recent market news</li>
      <li><a href="https://api.tickerwire.example/sma">/sma</a> simple moving average</li></ul></section>
      <section><h2>Statistics</h2><dl><dt>Uptime</dt><dd>99.8%</dd></dl></section></main>`);
    const detail = detailOf(html);
    expect(detail.endpoints).toEqual([
      { method: null, url: "https://api.tickerwire.example/news", description: "recent market news" },
      { method: null, url: "https://api.tickerwire.example/sma", description: "simple moving average" },
    ]);
    expect(detail.stats).toEqual({ uptime30d: "99.8%" });
  });

  it("when endpoint cards carry their own 'Description' labels, then those stay with the endpoint", () => {
    const html = page(`<main><h1>Docparse</h1><p>Documents to clean text.</p><div>
      <div><div><span>Method</span><span>post</span></div><div><span>URL</span><code>/parse</code></div>
        <div><span>Description</span><span>parse an uploaded document</span></div></div>
      <div><div><span>Method</span><span>GET</span></div><div><span>URL</span><code>/jobs/{id}</code></div>
        <div><span>Description</span><span>status of a job</span></div></div></div></main>`);
    const detail = detailOf(html);
    expect(detail.endpoints).toEqual([
      { method: "post", url: "/parse", description: "parse an uploaded document" },
      { method: "GET", url: "/jobs/{id}", description: "status of a job" },
    ]);
    expect(detail.description).toBe("Documents to clean text.");
  });

  it("when the category is only a breadcrumb link and the site nav lists every category, then the breadcrumb wins", () => {
    const html =
      page(`<header><nav><a href="/category/ai">AI</a><a href="/category/data">Data</a></nav></header>
      <nav aria-label="Breadcrumb"><a href="/">Home</a> › <a href="/category/data">Data</a></nav>
      <main><h1>Wayfind</h1></main>`);
    expect(detailOf(html).category).toBe("Data");
  });

  it("when tags are hashtags under a 'Tags' heading, then each hashtag is a tag", () => {
    const html = page(`<main><h1>Moodring</h1><h3>Tags</h3><p>#nlp #sentiment #NLP</p></main>`);
    expect(detailOf(html).tags).toEqual(["#nlp", "#sentiment", "#NLP"]);
  });

  it("when tags are only links to tag pages, then the link texts are the tags", () => {
    const html = page(`<main><h1>Airtrack</h1><div><a href="/t/x">About</a><a href="/tags/flights">flights</a>
      <a href="/?tag=travel">#travel</a></div></main>`);
    expect(detailOf(html).tags).toEqual(["flights", "#travel"]);
  });

  it("when a site words a label its own way, then a configured alias maps it", () => {
    const html = page(
      `<main><h1>Polyglot</h1><dl><dt>Dispo (30j)</dt><dd>97,1 %</dd><dt>Mots-clés</dt><dd>traduction</dd></dl></main>`,
    );
    expect(detailOf(html).stats).toEqual({});
    const aliased = detailOf(html, "/s/1", { aliases: { uptime30d: ["Dispo (30j)"], tags: ["mots-clés"] } });
    expect(aliased.stats).toEqual({ uptime30d: "97,1 %" });
    expect(aliased.tags).toEqual(["traduction"]);
  });

  it("when a label names another period, then its value is not taken for the 30-day figure", () => {
    const html =
      page(`<main><h1>PerpPulse</h1><dl><dt>Uptime (24h)</dt><dd>100%</dd><dt>Uptime (30 days)</dt><dd>99.9%</dd>
      <dt>All-time volume</dt><dd>$9M</dd></dl></main>`);
    expect(detailOf(html).stats).toEqual({ uptime30d: "99.9%" });
  });

  it("when the domain is unlabelled, then the host-like link under the name is the domain", () => {
    const html = page(`<main><h1>Snapshotter</h1><p><a href="https://snap.example/">snap.example</a></p>
      <p>Full-page screenshots of any URL.</p></main>`);
    expect(detailOf(html).domain).toBe("snap.example");
    const visit = page(
      `<main><h1>Snapshotter</h1><p><a href="https://x.com/snap">X</a> <a href="https://snap.example/home">Visit website</a></p></main>`,
    );
    expect(detailOf(visit).domain).toBe("snap.example");
  });

  it("when a value is printed above its label in a card, then the card still pairs them", () => {
    const html =
      page(`<main><h1>Dicebox</h1><div><div><strong>33 ms</strong><span>Avg. response (30d)</span></div>
      <div><strong>—</strong><span>Unique payers</span></div></div></main>`);
    expect(detailOf(html).stats).toEqual({ avgResponse30d: "33 ms", payerCount30d: "—" });
  });
});

describe("extractDetail on labels with help text and relative dates", () => {
  it("when a dt carries an inline help text, then the label is still recognised", () => {
    const html = page(`<main><h1>Crawlkit</h1><dl>
      <dt>Uptime <small>share of successful health checks in the period</small></dt><dd>98.9%</dd>
      <dt>Transactions <span role="tooltip">settled x402 payments</span></dt><dd>22.9K</dd></dl></main>`);
    expect(detailOf(html).stats).toEqual({ uptime30d: "98.9%", txCount30d: "22.9K" });
  });

  it("when 'updated' is relative but the page gives the exact moment, then the exact moment is kept", () => {
    const html = page(`<main><h1>Oraclette</h1><dl>
      <dt>Last updated</dt><dd><time datetime="2026-11-20T09:00:00Z">3 hours ago</time></dd></dl></main>`);
    expect(detailOf(html).stats).toEqual({ infoUpdated: "2026-11-20T09:00:00Z" });
    const plain = page(`<main><h1>Oraclette</h1><p>Updated: <span>yesterday</span></p></main>`);
    expect(detailOf(plain).stats).toEqual({ infoUpdated: "yesterday" });
  });
});

describe("extractDetail on unconventional layouts", () => {
  it("when values come before their words in a list and a Metric/Value table, then both are read", () => {
    const html =
      page(`<main><h1>One</h1><ul><li><strong>99.1%</strong> uptime</li><li><strong>1,204</strong> transactions</li>
      <li><strong>$12.3K</strong> volume (30d)</li></ul>
      <table><thead><tr><th>Metric</th><th>Value</th></tr></thead>
      <tbody><tr><td>Unique payers</td><td>41</td></tr><tr><td>Updated</td><td>2026-11-20</td></tr></tbody></table></main>`);
    expect(detailOf(html).stats).toEqual({
      uptime30d: "99.1%",
      txCount30d: "1,204",
      volume30d: "$12.3K",
      payerCount30d: "41",
      infoUpdated: "2026-11-20",
    });
  });

  it("when endpoints are lines of a code block, then each line is an endpoint and none is the description", () => {
    const html = page(`<main><h1>One</h1><h2>Endpoints</h2><pre>
GET  https://one.example/a   list things
POST https://one.example/b   create a thing
</pre></main>`);
    const detail = detailOf(html);
    expect(detail.endpoints).toEqual([
      { method: "GET", url: "https://one.example/a", description: "list things" },
      { method: "POST", url: "https://one.example/b", description: "create a thing" },
    ]);
    expect(detail.description).toBeNull();
  });

  it("when endpoints are a definition list and the name is an h2 with no title, then terms and definitions pair up", () => {
    const html = page(`<div id="app"><h2>GAMMA API</h2><div>gamma.example</div>
      <h3>Endpoints</h3><dl><dt><span>GET</span> <code>/v1/a</code></dt><dd>first thing</dd>
      <dt><span>POST</span> <code>/v1/b</code></dt><dd>second thing</dd></dl>
      <div>Tags</div><ul><li>#a</li><li>b</li></ul></div>`);
    const detail = detailOf(html);
    expect(detail.name).toBe("GAMMA API");
    expect(detail.domain).toBe("gamma.example");
    expect(detail.endpoints).toEqual([
      { method: "GET", url: "/v1/a", description: "first thing" },
      { method: "POST", url: "/v1/b", description: "second thing" },
    ]);
    expect(detail.tags).toEqual(["#a", "b"]);
  });
});

describe("extractDetail choosing a description", () => {
  it("when the only description follows an 'About' heading, then it is used", () => {
    const html = page(
      `<main><h1>Earshot</h1><h2>About</h2><p>Speech-to-text with timestamps and speakers.</p></main>`,
    );
    expect(detailOf(html).description).toBe("Speech-to-text with timestamps and speakers.");
  });

  it("when a div-only footer has an 'About' caption, then the lead paragraph under the name still wins", () => {
    const html = page(`<div><h1>Earshot</h1><div>Speech-to-text with timestamps and speakers.</div>
      <div><div>About</div><div>402dir lists pay-per-call services for agents.</div></div></div>`);
    expect(detailOf(html).description).toBe("Speech-to-text with timestamps and speakers.");
  });

  it("when nothing on the page reads as a description, then the meta description is used", () => {
    const html = page(
      `<main><h1>Mintmeta</h1></main>`,
      `<meta name="description" content="NFT metadata, cached.">`,
    );
    expect(detailOf(html).description).toBe("NFT metadata, cached.");
  });
});

describe("extractDetail on values drawn as sibling elements", () => {
  const around = (tags: string): string =>
    page(`<main><h1>Lingo</h1><p>Translate text between languages for agents.</p>${tags}</main>`);
  it.each([
    [
      "spans with no space after a label span",
      `<div><span>Tags</span><span>translation</span><span>nlp</span></div>`,
    ],
    [
      "spans with spaces after a bold label",
      `<div><b>Tags</b> <span class="chip">translation</span> <span>nlp</span></div>`,
    ],
    ["links after a label", `<div><strong>Tags</strong><a href="#">translation</a><a href="#">nlp</a></div>`],
    ["one dd per tag", `<dl><dt>Tags</dt><dd>translation</dd><dd>nlp</dd></dl>`],
    [
      "badges inside one dd",
      `<dl><dt>Tags</dt><dd><span class="badge">translation</span><span class="badge">nlp</span></dd></dl>`,
    ],
    [
      "badges under a heading",
      `<h3>Tags</h3><span class="badge">translation</span><span class="badge">nlp</span><h3>Uptime</h3><p>99%</p>`,
    ],
    ["list items after a label", `<div><span>Tags:</span><ul><li>translation</li><li>nlp</li></ul></div>`],
  ])("when tags are %s, then each element is one tag", (_, tags) => {
    expect(detailOf(around(tags)).tags).toEqual(["translation", "nlp"]);
  });

  it("when the elements after a label are words of one sentence, then they stay one value", () => {
    const html = around(`<p><b>Tags:</b> <span>translation</span> and <span>nlp</span></p>`);
    expect(detailOf(html).tags).toEqual(["translation and nlp"]);
  });
});

describe("extractDetail on short descriptions", () => {
  it.each([
    ["a paragraph", `<h1>Ohm</h1><p>Weather API</p><dl><dt>Uptime</dt><dd>99%</dd></dl>`],
    [
      "a tagline div after the name",
      `<h1>Ohm</h1><div>Weather API</div><div><span>Uptime</span><span>99%</span></div>`,
    ],
    ["a labelled value", `<h1>Ohm</h1><dl><dt>Description</dt><dd>Weather API</dd></dl>`],
  ])("when the description is two words in %s, then it is kept", (_, body) => {
    expect(detailOf(page(`<main>${body}</main>`)).description).toBe("Weather API");
  });

  it("when a short text is a figure or a host, then it is not taken for a description", () => {
    const html = page(`<main><h1>Ohm</h1><div>ohm.example</div><div>99.9 % uptime</div></main>`);
    expect(detailOf(html).description).toBeNull();
  });

  it("when a two-word badge comes later and a paragraph of prose exists, then the prose wins", () => {
    const html = page(
      `<main><h1>Ohm</h1><div><span>Open Source</span></div><p>Forecasts for any place on Earth.</p></main>`,
    );
    expect(detailOf(html).description).toBe("Forecasts for any place on Earth.");
  });
});
