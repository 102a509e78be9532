import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { GuardedRequestDeps } from "../probe/guarded-request";
import { sendHop } from "../probe/http-hop";
import { vetTarget } from "../probe/resolve-target";

/** What the requests of one MCP session met, for the probe's verdict. */
export interface FetchRecord {
  /** HTTP status of the latest answer; null before any came back. */
  lastStatus: number | null;
  /** Why a request was not answered: the address guard refused it, or the network failed. */
  failure: { outcome: "refused" | "network_error"; reason: string } | null;
  /** A request went out (the session's time is a latency). */
  sent: boolean;
}

/** Statuses whose answers have no body (the Response constructor refuses one). */
const NULL_BODY = new Set([204, 205, 304]);
/** The hop has already decoded and measured the body. */
const DROPPED_HEADERS = new Set(["content-encoding", "content-length", "transfer-encoding", "connection"]);

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  new Headers(init).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

export const newFetchRecord = (): FetchRecord => ({ lastStatus: null, failure: null, sent: false });

/**
 * The `fetch` the MCP SDK's Streamable HTTP client transport is given: every request is one hop
 * through the probe's address guard (vetted, connected to the vetted addresses only, capped in
 * size and time, our User-Agent, never a credential). Redirects come back unfollowed: the SDK
 * follows those within the server's origin by calling this again, so each hop is vetted. The GET
 * that opens a stream of server-initiated messages is answered 405 here without being sent, as a
 * server without that stream answers: a probe reads answers to its own requests only.
 */
export function guardedFetch(deps: GuardedRequestDeps, record: FetchRecord, signal?: AbortSignal): FetchLike {
  const { settings } = deps;
  return async (url, init) => {
    const method = (init?.method ?? "GET").toUpperCase();
    if (method === "GET") return new Response(null, { status: 405 });
    const check = await vetTarget(String(url), undefined, deps.policy, deps.resolve);
    if (!check.ok) {
      record.failure = { outcome: check.outcome, reason: check.reason };
      throw new Error(check.reason);
    }
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    const signals = [timeout, init?.signal, signal].filter((s): s is AbortSignal => s instanceof AbortSignal);
    record.sent = true;
    try {
      const answer = await sendHop({
        target: check.target,
        method,
        jsonBody: typeof init?.body === "string" ? init.body : null,
        userAgent: settings.userAgent,
        extraHeaders: headerRecord(init?.headers),
        maxBytes: settings.maxResponseBytes,
        signal: AbortSignal.any(signals),
      });
      record.lastStatus = answer.status;
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !DROPPED_HEADERS.has(name)) headers.set(name, value);
      }
      const body = NULL_BODY.has(answer.status) ? null : answer.bodyText;
      return new Response(body, { status: answer.status, headers });
    } catch (error) {
      const reason = timeout.aborted ? `no complete answer within ${settings.timeoutMs} ms` : message(error);
      record.failure = { outcome: "network_error", reason };
      throw error;
    }
  };
}
