/**
 * URL helpers: resolving links, recognising links that are not service pages (tags, filters,
 * site pages such as /about or /login) and reducing URLs to a shape ("/services/*") so that
 * the links shared by many listing entries can be told apart from one-off links.
 */

export function resolveUrl(href: string | undefined, base: string): URL | null {
  if (!href || /^(?:javascript|mailto|tel|data):/i.test(href.trim())) return null;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** Absolute URL without fragment: two links differing only by `#reviews` are the same page. */
export function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

const stripWww = (host: string): string => host.toLowerCase().replace(/^www\./, "");

export function sameSite(a: URL, b: URL): boolean {
  return stripWww(a.host) === stripWww(b.host);
}

const segments = (url: URL): string[] =>
  url.pathname
    .split("/")
    .filter(Boolean)
    .map((s) => decodeURIComponentSafe(s).toLowerCase());

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const TAG_SEGMENTS = new Set([
  "tag",
  "tags",
  "topic",
  "topics",
  "hashtag",
  "hashtags",
  "keyword",
  "keywords",
]);
const TAG_KEYS = new Set(["tag", "tags", "topic", "topics", "hashtag", "keyword", "keywords"]);
const CATEGORY_SEGMENTS = new Set(["category", "categories", "cat", "cats", "collection", "collections"]);
const CATEGORY_KEYS = new Set(["category", "categories", "cat", "collection"]);
/** Query keys of search and filter links: a filtered listing is not a service page. */
const FILTER_KEYS = new Set([
  "q",
  "query",
  "search",
  "sort",
  "sortby",
  "order",
  "orderby",
  "filter",
  "network",
  "chain",
  "view",
  "lang",
  "locale",
]);
/** First path segments of site pages that are never a service. */
const SITE_PAGES = new Set([
  "about",
  "about-us",
  "login",
  "log-in",
  "signin",
  "sign-in",
  "signup",
  "sign-up",
  "register",
  "logout",
  "account",
  "profile",
  "settings",
  "dashboard",
  "admin",
  "auth",
  "oauth",
  "pricing",
  "docs",
  "documentation",
  "faq",
  "help",
  "support",
  "contact",
  "terms",
  "tos",
  "privacy",
  "legal",
  "cookies",
  "blog",
  "changelog",
  "careers",
  "jobs",
  "press",
  "submit",
  "add",
  "new",
  "feed",
  "rss",
  "search",
  "status",
  "tags",
  "tag",
  "categories",
  "category",
  "sitemap",
  "cdn-cgi",
  // Outbound redirectors ("Visit site" → /go/slug) lead away from the directory.
  "go",
  "out",
  "redirect",
  "visit",
  "click",
  "track",
  "away",
  "external",
]);
/** Query keys that only track where a click came from. */
const TRACKING_KEY = /^(?:utm_.*|ref|source|from|via)$/i;

function hasSegmentBeforeLast(url: URL, names: ReadonlySet<string>): boolean {
  const segs = segments(url);
  return segs.slice(0, -1).some((s) => names.has(s));
}

function hasKey(url: URL, keys: ReadonlySet<string>): boolean {
  return [...url.searchParams.keys()].some((k) => keys.has(k.toLowerCase()));
}

export function isTagUrl(href: string, base: string): boolean {
  const url = resolveUrl(href, base);
  return !!url && (hasSegmentBeforeLast(url, TAG_SEGMENTS) || hasKey(url, TAG_KEYS));
}

export function isCategoryUrl(href: string, base: string): boolean {
  const url = resolveUrl(href, base);
  return !!url && (hasSegmentBeforeLast(url, CATEGORY_SEGMENTS) || hasKey(url, CATEGORY_KEYS));
}

/** Links that lead to tag, category, search or filter listings rather than to one service. */
export function isFilterUrl(url: URL): boolean {
  return (
    hasSegmentBeforeLast(url, TAG_SEGMENTS) ||
    hasSegmentBeforeLast(url, CATEGORY_SEGMENTS) ||
    hasKey(url, TAG_KEYS) ||
    hasKey(url, CATEGORY_KEYS) ||
    hasKey(url, FILTER_KEYS)
  );
}

/** The site's own pages: home, about, login, docs, legal… */
export function isSitePage(url: URL): boolean {
  const segs = segments(url);
  const meaningfulQuery = [...url.searchParams.keys()].some((k) => !TRACKING_KEY.test(k));
  if (segs.length === 0) return !meaningfulQuery;
  const first = segs[0] ?? "";
  return SITE_PAGES.has(first) || /\.(?:xml|txt|json|pdf|png|jpe?g|svg|css|js)$/.test(segs.at(-1) ?? "");
}

/**
 * The shape of a URL: the last path segment and any segment with digits become "*", and query
 * values are dropped. Detail links of one directory share a shape (/services/*, /s/*, /service?id).
 */
export function urlShape(url: URL): string {
  const segs = segments(url);
  const path = segs.map((s, i) => (i === segs.length - 1 || /\d/.test(s) ? "*" : s)).join("/");
  const keys = [...new Set(url.searchParams.keys())]
    .filter((k) => !TRACKING_KEY.test(k))
    .map((k) => k.toLowerCase())
    .sort();
  return `/${path}${keys.length > 0 ? `?${keys.join("&")}` : ""}`;
}

/** "api.example.com", "https://example.com/": what a domain shown as text looks like. */
const HOST_TEXT =
  /^(?:https?:\/\/)?((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}[\p{L}\p{N}-]{1,62})(?::\d{1,5})?\/?$/iu;

export function looksLikeHost(text: string): boolean {
  return HOST_TEXT.test(text.trim());
}

const SOCIAL =
  /(?:^|\.)(?:twitter\.com|x\.com|github\.com|discord\.(?:gg|com)|t\.me|telegram\.me|linkedin\.com|youtube\.com|facebook\.com|medium\.com|reddit\.com|warpcast\.com|farcaster\.xyz|instagram\.com|tiktok\.com|bsky\.app|mastodon\.social)$/i;

export function isSocialHost(host: string): boolean {
  return SOCIAL.test(stripWww(host));
}
