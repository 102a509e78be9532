/**
 * The identity of a detail page: the same page reached through different links (a fragment,
 * tracking parameters, a trailing slash, upper-case host) is one service.
 */
const TRACKING_PARAMETER = /^(utm_\w+|ref|fbclid|gclid|mc_cid|mc_eid)$/i;

export function canonicalPageUrl(href: string): string {
  const url = new URL(href);
  url.hash = "";
  for (const name of [...url.searchParams.keys()]) {
    if (TRACKING_PARAMETER.test(name)) url.searchParams.delete(name);
  }
  url.searchParams.sort();
  if (url.pathname.length > 1 && url.pathname.endsWith("/")) url.pathname = url.pathname.replace(/\/+$/, "");
  return url.toString();
}

export function sameHost(a: string, b: string): boolean {
  return new URL(a).host === new URL(b).host;
}
