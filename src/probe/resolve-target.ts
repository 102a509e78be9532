import dns from "node:dns";
import type { AddressPolicy } from "./ssrf-guard";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name; replaceable so tests can point made-up names at chosen addresses. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  }));

/** A URL that passed the guard, with the only addresses the request may connect to. */
export interface VettedTarget {
  url: URL;
  /** Host name without IPv6 brackets; sent as Host header and TLS server name. */
  hostname: string;
  /** Every address of the name, all vetted, in resolver order (connect falls back along them). */
  addresses: ResolvedAddress[];
}

export type TargetCheck =
  | { ok: true; target: VettedTarget }
  | { ok: false; outcome: "refused" | "network_error"; reason: string };

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Parses and vets one URL (the endpoint's, or a redirect's): http(s) only, any port (only public
 * addresses are reachable, so a port limit would add nothing but break APIs on :8080), and every
 * address the name resolves to must pass the guard. Refusing a name as soon as one of its
 * addresses is private is deliberate: such a name points into someone's internal network.
 * The request then connects only to the addresses vetted here, so a second DNS answer
 * (rebinding) can never redirect it.
 */
export async function vetTarget(
  raw: string,
  base: URL | undefined,
  policy: AddressPolicy,
  resolve: HostResolver,
): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return { ok: false, outcome: "refused", reason: `not a valid URL: ${raw}` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, outcome: "refused", reason: `only http and https are probed, not ${url.protocol}` };
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(hostname);
  } catch (error) {
    return {
      ok: false,
      outcome: "network_error",
      reason: `DNS lookup of ${hostname} failed: ${message(error)}`,
    };
  }
  if (addresses.length === 0) {
    return { ok: false, outcome: "network_error", reason: `${hostname} has no address` };
  }
  for (const { address } of addresses) {
    const verdict = policy.check(address);
    if (!verdict.allowed) {
      const via = address === hostname ? "" : ` (${hostname} resolves to it)`;
      return { ok: false, outcome: "refused", reason: `${verdict.reason}${via}` };
    }
  }
  return { ok: true, target: { url, hostname, addresses } };
}
