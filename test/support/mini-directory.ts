/** A minimal directory markup for crawl-behaviour tests (the markup variants live in fixtures/). */
export function miniListing(slugs: string[], pager = ""): string {
  const items = slugs
    .map(
      (slug) =>
        `<li><a href="/s/${slug}"><h3>${slug} API</h3></a><p>${slug}.example</p><p>Does ${slug} things.</p></li>`,
    )
    .join("");
  return `<html><body><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/login">Log in</a></nav>
  <main><h1>Services</h1><ul>${items}</ul>${pager}</main>
  <footer><a href="https://twitter.com/dir">Twitter</a> <a href="/terms">Terms</a></footer></body></html>`;
}

export function miniDetail(slug: string, volume = "$1,000"): string {
  return `<html><body><main><h1>${slug} API</h1><p>Does ${slug} things.</p>
  <dl><dt>Category</dt><dd>AI</dd><dt>Uptime (30 days)</dt><dd>99.9%</dd><dt>Transaction volume</dt><dd>${volume}</dd></dl>
  <h2>Endpoints</h2><ul><li><code>POST</code> https://${slug}.example/run — runs it</li></ul></main></body></html>`;
}
