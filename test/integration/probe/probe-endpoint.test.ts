import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeEndpoint } from "../../../src/probe/probe-endpoint";
import { TEST_USER_AGENT, testProbeDeps } from "../../support/probe";
import { v1ChallengeBody, v2ChallengeHeader } from "../../support/x402-challenges";
import { PAYMENT_HEADER, X402Fixture } from "../../support/x402-fixture";

const HTML = { "content-type": "text/html; charset=utf-8" };

describe("probeEndpoint against fixture x402 endpoints", () => {
  const site = new X402Fixture("127.0.0.1");
  // Listens on 127.0.0.2, outside the test allow-list: nothing may ever reach it.
  const forbidden = new X402Fixture("127.0.0.2");
  const deps = testProbeDeps(
    { timeoutMs: 1_000 },
    { "api.fixture.test": "127.0.0.1", "internal.fixture.test": "10.0.0.1" },
  );
  const get = (path: string) => probeEndpoint({ method: "GET", url: site.url(path) }, deps);

  beforeAll(async () => {
    await site.start();
    await forbidden.start();
    forbidden.set("/secret", { status: 200, body: "{}" });
    site
      .set("/v1", { status: 402, body: v1ChallengeBody() })
      .set("/v2", {
        status: 402,
        headers: { "payment-required": v2ChallengeHeader(site.url("/v2")) },
        body: "{}",
      })
      .set("/free", { status: 200, body: '{"ok":true}' })
      .set("/broken", { status: 500, headers: HTML, body: "<h1>Internal Server Error</h1>" })
      .set("/paywall", { status: 402, headers: HTML, body: "<html><body>Please subscribe</body></html>" })
      .set("/slow", { status: 402, body: v1ChallengeBody(), delayMs: 3_000 })
      .set("/huge-v2", {
        status: 402,
        headers: { "payment-required": v2ChallengeHeader(site.url("/huge-v2")) },
        fillerBytes: 20 * 1024 * 1024,
      })
      // A JSON challenge whose last field is 20 MB long: the cap cuts it mid-string.
      .set("/huge-v1", {
        status: 402,
        body: `${v1ChallengeBody().slice(0, -1)},"padding":"`,
        fillerBytes: 20 * 1024 * 1024,
      })
      .set("/gzip", {
        status: 402,
        headers: { "content-encoding": "gzip" },
        body: gzipSync(v1ChallengeBody()),
      })
      .set("/to-v1", { status: 302, headers: { location: "/v1" } })
      .set("/to-loopback-2", { status: 302, headers: { location: `${forbidden.url("/secret")}` } })
      .set("/to-metadata", { status: 301, headers: { location: "http://169.254.169.254/latest/meta-data/" } })
      .set("/to-private", { status: 307, headers: { location: "http://10.0.0.1/admin" } })
      .set("/to-internal-name", { status: 308, headers: { location: "http://internal.fixture.test/" } })
      .set("/to-file", { status: 302, headers: { location: "file:///etc/passwd" } })
      .set("/loop", { status: 302, headers: { location: "/loop" } })
      .set("/see-other", { status: 303, headers: { location: "/echo" } })
      .set("/temporary", { status: 307, headers: { location: "/echo" } })
      .set("/echo", { status: 200, body: "{}" });
  });

  afterAll(async () => {
    await site.stop();
    await forbidden.stop();
  });

  it("when the endpoint answers a v1 JSON body challenge, then it is a valid v1 challenge with its options", async () => {
    const result = await get("/v1");
    expect(result).toMatchObject({
      outcome: "challenge",
      statusCode: 402,
      challengeValid: true,
      x402Version: 1,
      error: null,
      redirects: 0,
    });
    expect(result.options.map((o) => [o.network, o.price_usdc])).toEqual([["eip155:8453", "0.01"]]);
    expect(result.latencyMs).toBeGreaterThan(0);
  });

  it("when the endpoint answers a v2 PAYMENT-REQUIRED header, then it is a valid v2 challenge", async () => {
    const result = await get("/v2");
    expect(result).toMatchObject({
      outcome: "challenge",
      statusCode: 402,
      challengeValid: true,
      x402Version: 2,
    });
    expect(result.options.map((o) => o.price_usdc)).toEqual(["0.0025"]);
  });

  it("when the endpoint answers 200 without a challenge, then the outcome is no_challenge", async () => {
    expect(await get("/free")).toMatchObject({
      outcome: "no_challenge",
      statusCode: 200,
      challengeValid: false,
      x402Version: null,
      options: [],
      error: "status is 200, not 402",
    });
  });

  it("when the endpoint answers 500, then the outcome is http_error", async () => {
    expect(await get("/broken")).toMatchObject({ outcome: "http_error", statusCode: 500, error: "HTTP 500" });
  });

  it("when the endpoint answers 402 with an HTML page, then it is no_challenge and says why", async () => {
    expect(await get("/paywall")).toMatchObject({
      outcome: "no_challenge",
      statusCode: 402,
      challengeValid: false,
      error: "no PAYMENT-REQUIRED header and the body is not JSON",
    });
  });

  it("when the endpoint is slower than the time limit, then the probe gives up at the limit", async () => {
    const started = performance.now();
    const result = await get("/slow");
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({
      outcome: "network_error",
      statusCode: null,
      error: "no complete answer within 1000 ms",
    });
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(2_500);
  });

  it("when the answer is larger than the cap, then reading stops at the cap and the header challenge still counts", async () => {
    const result = await get("/huge-v2");
    expect(result).toMatchObject({ outcome: "challenge", challengeValid: true, x402Version: 2 });
    expect(result.warnings).toContain("answer longer than 65536 bytes; only that much was read");
    const served = site.requests.filter((r) => r.path === "/huge-v2");
    expect(served.map((r) => r.answeredInFull)).toEqual([false]);
  });

  it("when the cap cuts a JSON challenge body, then the cut JSON is no challenge at all", async () => {
    const result = await get("/huge-v1");
    expect(result).toMatchObject({ outcome: "no_challenge", statusCode: 402, challengeValid: false });
    expect(result.warnings).toContain("answer longer than 65536 bytes; only that much was read");
  });

  it("when the server compresses although asked not to, then the body is decoded before parsing", async () => {
    expect(await get("/gzip")).toMatchObject({ outcome: "challenge", challengeValid: true, x402Version: 1 });
  });

  it("when a redirect stays on an allowed address, then it is followed and counted", async () => {
    expect(await get("/to-v1")).toMatchObject({ outcome: "challenge", challengeValid: true, redirects: 1 });
  });

  it("when a redirect leads to an address outside the allow-list, then it is refused and never contacted", async () => {
    expect(await get("/to-loopback-2")).toMatchObject({
      outcome: "refused",
      statusCode: 302,
      error: "127.0.0.2 is a loopback address (redirect 1)",
    });
    expect(forbidden.requests).toEqual([]);
  });

  it.each([
    ["/to-metadata", 301, "169.254.169.254 is a cloud metadata address (redirect 1)"],
    ["/to-private", 307, "10.0.0.1 is a private address (redirect 1)"],
    [
      "/to-internal-name",
      308,
      "10.0.0.1 is a private address (internal.fixture.test resolves to it) (redirect 1)",
    ],
    ["/to-file", 302, "only http and https are probed, not file: (redirect 1)"],
  ])(
    "when %s redirects somewhere unsafe, then the probe is refused quickly with the reason",
    async (path, status, error) => {
      const started = performance.now();
      expect(await get(path)).toMatchObject({ outcome: "refused", statusCode: status, error });
      // Refused before connecting: an attempt at 10.0.0.1 would hang until the time limit.
      expect(performance.now() - started).toBeLessThan(500);
    },
  );

  it("when the endpoint URL itself is private, then nothing is sent and there is no latency", async () => {
    expect(await probeEndpoint({ method: "GET", url: "http://192.168.1.10/pay" }, deps)).toMatchObject({
      outcome: "refused",
      statusCode: null,
      latencyMs: null,
      error: "192.168.1.10 is a private address",
    });
  });

  it("when redirects go on past the limit, then the probe stops with http_error after the limit", async () => {
    const mark = site.requests.length;
    expect(await get("/loop")).toMatchObject({
      outcome: "http_error",
      statusCode: 302,
      error: "more than 3 redirects",
    });
    expect(site.requests.slice(mark).filter((r) => r.path === "/loop")).toHaveLength(4);
  });

  it("when a POST is redirected with 303, then it continues as a GET without body; with 307 it stays a POST", async () => {
    const mark = site.requests.length;
    await probeEndpoint({ method: "POST", url: site.url("/see-other") }, deps);
    await probeEndpoint({ method: "POST", url: site.url("/temporary") }, deps);
    expect(site.requests.slice(mark).map((r) => [r.path, r.method, r.body])).toEqual([
      ["/see-other", "POST", "{}"],
      ["/echo", "GET", ""],
      ["/temporary", "POST", "{}"],
      ["/echo", "POST", "{}"],
    ]);
  });

  it("when methods differ, then each is sent as listed: a body of {} only for POST, PUT and PATCH", async () => {
    const mark = site.requests.length;
    for (const method of ["get", "HEAD", "DELETE", "POST", "PUT", "PATCH"]) {
      await probeEndpoint({ method, url: site.url("/echo") }, deps);
    }
    expect(
      site.requests.slice(mark).map((r) => [r.method, r.body, r.headers["content-type"] ?? null]),
    ).toEqual([
      ["GET", "", null],
      ["HEAD", "", null],
      ["DELETE", "", null],
      ["POST", "{}", "application/json"],
      ["PUT", "{}", "application/json"],
      ["PATCH", "{}", "application/json"],
    ]);
  });

  it("when the listed method is not an HTTP method, then GET is sent and a warning says so", async () => {
    const mark = site.requests.length;
    const result = await probeEndpoint({ method: "ANY", url: site.url("/echo") }, deps);
    expect(site.requests.slice(mark).map((r) => r.method)).toEqual(["GET"]);
    expect(result.warnings).toContain('listed method "ANY" is not an HTTP method; probed with GET');
  });

  it("when a name resolves to a vetted address, then the connection goes there and the Host header keeps the name", async () => {
    const mark = site.requests.length;
    const result = await probeEndpoint(
      { method: "GET", url: `http://api.fixture.test:${site.port}/v1` },
      deps,
    );
    expect(result).toMatchObject({ outcome: "challenge", challengeValid: true });
    expect(site.requests.slice(mark).map((r) => r.headers.host)).toEqual([`api.fixture.test:${site.port}`]);
  });

  it("when the first vetted address of a name refuses connections, then the next one is tried", async () => {
    const mark = site.requests.length;
    // Nothing listens on 127.0.0.2 at the fixture's port: the connection falls back to 127.0.0.1.
    const twoAddresses = testProbeDeps({ allowedNetworks: ["127.0.0.1/32", "127.0.0.2/32"] }, {});
    twoAddresses.resolve = async () => [
      { address: "127.0.0.2", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    const result = await probeEndpoint(
      { method: "GET", url: `http://dual.fixture.test:${site.port}/v1` },
      twoAddresses,
    );
    expect(result).toMatchObject({ outcome: "challenge", challengeValid: true });
    expect(site.requests.slice(mark).map((r) => r.headers.host)).toEqual([`dual.fixture.test:${site.port}`]);
  });

  it("when the URL carries credentials, then they are not sent", async () => {
    const mark = site.requests.length;
    await probeEndpoint({ method: "GET", url: `http://user:secret@127.0.0.1:${site.port}/echo` }, deps);
    expect(site.requests.slice(mark).map((r) => r.headers.authorization ?? null)).toEqual([null]);
  });

  it("when any probe is sent, then it carries our User-Agent and never a payment or wallet header", async () => {
    expect(site.requests.length).toBeGreaterThan(0);
    for (const request of site.requests) {
      expect(request.headers["user-agent"]).toBe(TEST_USER_AGENT);
      expect(Object.keys(request.headers).filter((name) => PAYMENT_HEADER.test(name))).toEqual([]);
    }
  });
});

/** A self-signed certificate for api.fixture.test, made with the openssl command line. */
function selfSignedCertificate(): { key: string; cert: string } | null {
  const dir = mkdtempSync(path.join(tmpdir(), "probe-tls-"));
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=api.fixture.test"]
        .concat(["-addext", "subjectAltName=DNS:api.fixture.test"])
        .concat(["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")]),
      { stdio: "ignore" },
    );
    return {
      key: readFileSync(path.join(dir, "key.pem"), "utf8"),
      cert: readFileSync(path.join(dir, "cert.pem"), "utf8"),
    };
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const certificate = selfSignedCertificate();

describe.skipIf(certificate === null)("probeEndpoint over HTTPS to a pinned address", () => {
  it("when the name is pinned to an address, then TLS still sends the name (SNI) and verifies the certificate", async () => {
    const serverNames: string[] = [];
    const context = tls.createSecureContext(certificate ?? {});
    const server = https.createServer({
      ...certificate,
      SNICallback: (name, done) => {
        serverNames.push(name);
        done(null, context);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const deps = testProbeDeps({}, { "api.fixture.test": "127.0.0.1" });
      const result = await probeEndpoint({ method: "GET", url: `https://api.fixture.test:${port}/v1` }, deps);
      // Our certificate is self-signed: a verifying client must refuse it.
      expect(result).toMatchObject({
        outcome: "network_error",
        statusCode: null,
        error: "self-signed certificate",
      });
      expect(serverNames).toEqual(["api.fixture.test"]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
