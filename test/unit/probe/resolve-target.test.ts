import { describe, expect, it } from "vitest";
import { type HostResolver, vetTarget } from "../../../src/probe/resolve-target";
import { AddressPolicy } from "../../../src/probe/ssrf-guard";

const policy = new AddressPolicy();

/** A resolver over a fixed table; IP literals resolve to themselves, as dns.lookup does. */
function table(entries: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    if (/^[\d.]+$/.test(hostname) || hostname.includes(":")) {
      return [{ address: hostname, family: hostname.includes(":") ? (6 as const) : (4 as const) }];
    }
    const addresses = entries[hostname];
    if (addresses === undefined) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    return addresses.map((address) => ({
      address,
      family: address.includes(":") ? (6 as const) : (4 as const),
    }));
  };
  return Object.assign(resolve, { asked });
}

describe("vetTarget", () => {
  it("when a public name resolves to public addresses, then all of them are pinned and the name kept", async () => {
    const check = await vetTarget(
      "https://api.example.com:8443/v1/x?q=1",
      undefined,
      policy,
      table({ "api.example.com": ["2606:2800:220:1::1", "93.184.216.34"] }),
    );
    expect(check).toMatchObject({
      ok: true,
      target: {
        hostname: "api.example.com",
        addresses: [
          { address: "2606:2800:220:1::1", family: 6 },
          { address: "93.184.216.34", family: 4 },
        ],
      },
    });
  });

  it("when any address of the name is private, then the name is refused and says why", async () => {
    const check = await vetTarget(
      "http://mixed.example/",
      undefined,
      policy,
      table({ "mixed.example": ["93.184.216.34", "10.0.0.7"] }),
    );
    expect(check).toEqual({
      ok: false,
      outcome: "refused",
      reason: "10.0.0.7 is a private address (mixed.example resolves to it)",
    });
  });

  it.each([
    ["file:///etc/passwd", "only http and https are probed, not file:"],
    ["ftp://files.example/x", "only http and https are probed, not ftp:"],
    ["gopher://x.example/", "only http and https are probed, not gopher:"],
    ["not a url", "not a valid URL: not a url"],
  ])("when the URL is %s, then it is refused before any lookup", async (url, reason) => {
    const resolver = table({});
    expect(await vetTarget(url, undefined, policy, resolver)).toEqual({
      ok: false,
      outcome: "refused",
      reason,
    });
    expect(resolver.asked).toEqual([]);
  });

  it.each([
    ["http://[::1]:8080/", "::1 is a loopback address"],
    ["http://2130706433/", "127.0.0.1 is a loopback address"],
    ["http://0x7f.1/", "127.0.0.1 is a loopback address"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address"],
    ["http://[::ffff:169.254.169.254]/", "::ffff:a9fe:a9fe is a cloud metadata address"],
  ])("when the URL %s names a blocked address in any notation, then it is refused", async (url, reason) => {
    expect(await vetTarget(url, undefined, policy, table({}))).toEqual({
      ok: false,
      outcome: "refused",
      reason,
    });
  });

  it("when the name does not resolve, then it is a network error, not a refusal", async () => {
    expect(await vetTarget("http://nowhere.example/", undefined, policy, table({}))).toEqual({
      ok: false,
      outcome: "network_error",
      reason: "DNS lookup of nowhere.example failed: getaddrinfo ENOTFOUND nowhere.example",
    });
  });

  it("when a relative redirect is vetted, then it resolves against the previous URL", async () => {
    const check = await vetTarget(
      "/next?a=1",
      new URL("https://api.example.com/v1/x"),
      policy,
      table({ "api.example.com": ["93.184.216.34"] }),
    );
    expect(check.ok && check.target.url.href).toBe("https://api.example.com/next?a=1");
  });
});
