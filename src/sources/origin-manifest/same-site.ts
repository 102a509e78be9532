import { getDomain } from "tldts";

/**
 * Whether two URLs belong to one site: the same registrable domain under the public suffix
 * list, private suffixes included (each `*.vercel.app`, `*.github.io`, `*.workers.dev` name is
 * its own site). Hosts without a registrable domain (IP addresses, `localhost`) match only
 * themselves.
 */
export function sameSite(a: URL, b: URL): boolean {
  const siteOf = (url: URL) => getDomain(url.hostname, { allowPrivateDomains: true }) ?? url.hostname;
  return siteOf(a) === siteOf(b);
}
