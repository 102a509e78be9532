import { type GuardedRequestDeps, guardedRequest } from "../probe/guarded-request";
import { publishedTokenHashes } from "./credential";

/** Where an origin publishes a challenge's token. */
export const TOKEN_FILE_PATH = "/.well-known/x402-catalogue.txt";

export type TokenFileAnswer = { kind: "read"; tokenHashes: Buffer[] } | { kind: "unread"; reason: string };

/**
 * Reads the origin's token file through the probes' SSRF guard and limits (every hop vetted,
 * the size capped). Only the origin's own answer counts: a redirect to another host, an error
 * status or a cut-off body is no file.
 */
export async function readTokenFile(origin: string, deps: GuardedRequestDeps): Promise<TokenFileAnswer> {
  const url = new URL(TOKEN_FILE_PATH, origin);
  const answer = await guardedRequest({ url: url.href, method: "GET" }, deps);
  if (answer.kind !== "answer") return { kind: "unread", reason: `${url.href}: ${answer.reason}` };
  if (answer.url.origin !== url.origin)
    return { kind: "unread", reason: `${url.href} redirected to another origin (${answer.url.origin})` };
  const { status, truncated, bodyText } = answer.response;
  if (status !== 200) return { kind: "unread", reason: `${url.href} answered HTTP ${status}` };
  if (truncated)
    return { kind: "unread", reason: `${url.href} is larger than ${deps.settings.maxResponseBytes} bytes` };
  return { kind: "read", tokenHashes: publishedTokenHashes(bodyText) };
}
