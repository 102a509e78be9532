/**
 * The origin as the URL parser writes it (lower-case scheme and host, no default port), or null
 * when the text is no http(s) origin: a URL with a path, query or credentials is not an origin.
 */
export function canonicalOrigin(text: string): string | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== ""))
    return null;
  return url.origin;
}
