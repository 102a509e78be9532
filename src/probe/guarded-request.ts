import { type HopResponse, sendHop } from "./http-hop";
import { type HostResolver, vetTarget } from "./resolve-target";
import type { ProbeSettings } from "./settings";
import type { AddressPolicy } from "./ssrf-guard";

/** What a request to a third-party URL needs: the limits, the address guard and a resolver. */
export interface GuardedRequestDeps {
  settings: Pick<ProbeSettings, "timeoutMs" | "maxResponseBytes" | "maxRedirects" | "userAgent">;
  policy: AddressPolicy;
  resolve: HostResolver;
}

export type GuardedAnswer =
  /** The last hop's answer (not a redirect, or a redirect without a Location). */
  | { kind: "answer"; response: HopResponse; url: URL; redirects: number }
  | {
      kind: "refused" | "network_error" | "too_many_redirects";
      reason: string;
      /** Status of the last answer (a refused redirect's); null when nothing complete came back. */
      lastStatus: number | null;
      redirects: number;
      /** A request went out (the time until now is a latency). */
      sent: boolean;
    };

const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const EMPTY_JSON = "{}";

/** What a browser does: 303 always, and 301/302 after a POST, continue as GET without a body. */
function methodAfterRedirect(status: number, method: string): string {
  if (status === 303 && method !== "HEAD") return "GET";
  if ((status === 301 || status === 302) && method === "POST") return "GET";
  return method;
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * One request to a URL someone else published (an endpoint, an origin's manifest), following at
 * most maxRedirects redirects, each re-vetted by the SSRF guard and connected to the vetted
 * address only. Methods with a body send an empty JSON object. Never throws: every failure is a
 * kind. The time limit covers the whole request, redirects and reading included; `signal` stops
 * it early as well (shutdown).
 */
export async function guardedRequest(
  request: { url: string; method: string },
  deps: GuardedRequestDeps,
  signal?: AbortSignal,
): Promise<GuardedAnswer> {
  const { settings } = deps;
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const deadline = signal ? AbortSignal.any([timeout, signal]) : timeout;
  let method = request.method;
  let sent = false;
  let lastStatus: number | null = null;
  let redirects = 0;
  let next: { raw: string; base?: URL } = { raw: request.url };
  try {
    for (;;) {
      const check = await abortable(vetTarget(next.raw, next.base, deps.policy, deps.resolve), deadline);
      if (!check.ok) {
        const where = redirects === 0 ? "" : ` (redirect ${redirects})`;
        return { kind: check.outcome, reason: `${check.reason}${where}`, lastStatus, redirects, sent };
      }
      sent = true;
      const response = await sendHop({
        target: check.target,
        method,
        jsonBody: WITH_BODY.has(method) ? EMPTY_JSON : null,
        userAgent: settings.userAgent,
        maxBytes: settings.maxResponseBytes,
        signal: deadline,
      });
      lastStatus = response.status;
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || location === undefined)
        return { kind: "answer", response, url: check.target.url, redirects };
      if (redirects >= settings.maxRedirects) {
        const reason = `more than ${settings.maxRedirects} redirects`;
        return { kind: "too_many_redirects", reason, lastStatus, redirects, sent };
      }
      redirects += 1;
      method = methodAfterRedirect(response.status, method);
      next = { raw: location, base: check.target.url };
    }
  } catch (error) {
    const reason = timeout.aborted ? `no complete answer within ${settings.timeoutMs} ms` : message(error);
    return { kind: "network_error", reason, lastStatus: null, redirects, sent };
  }
}
