/**
 * Label values of the product's metrics. Every value comes from a short, fixed set or from the
 * operator's own configuration (a source's host, a chain's name), never from a request: a key,
 * an organisation id or a URL with credentials can never become a label, and the number of
 * series stays bounded whatever clients send.
 */

/**
 * A crawl source as a label: its host (no user, password, path or query), `origins` for the
 * origin manifests, or `registered` for registered origins (their hosts come from requests).
 */
export function sourceLabel(kind: string, baseUrl: string): string {
  if (kind === "origin_manifest") return "origins";
  if (kind === "registered") return "registered";
  try {
    const { host } = new URL(baseUrl);
    return host === "" ? "unknown" : host;
  } catch {
    return "unknown";
  }
}

/** An HTTP answer's status as a label: its code, or `aborted` when the client left before the end. */
export function statusLabel(statusCode: number, finished: boolean): string {
  return finished ? String(statusCode) : "aborted";
}
