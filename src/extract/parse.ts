import * as cheerio from "cheerio";

/** A `<body>` start tag: the page says where its content is. */
const BODY_TAG = /<body[\s>]/i;

/**
 * HTML text to the document the extractors read.
 *
 * htmlparser2, as Crawlee's CheerioCrawler parses pages, for pages that mark their body: a fifth
 * of the extraction's time went to cheerio's default parser, parse5 (measured on the benchmark
 * directory: 2.6 → 2.1 ms per detail page, and the crawl benchmark's full crawl went from 71-80%
 * to 83-89% of the bare rate). The extractors key on labels and structure, not on the elements a
 * spec parser adds (tables with or without tbody), and htmlparser2 closes what HTML leaves open
 * (dt/dd, li, tr/td, p).
 *
 * parse5 for the rest: without a `<body>` tag htmlparser2 builds no body and leaves the head's
 * title among the content, where parse5 repairs the document as a browser does.
 */
export function parsePage(html: string): cheerio.CheerioAPI {
  if (!BODY_TAG.test(html)) return cheerio.load(html);
  return cheerio.load(html, { _useHtmlParser2: true } as cheerio.CheerioOptions);
}
