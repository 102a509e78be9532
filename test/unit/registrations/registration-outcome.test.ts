import { describe, expect, it } from "vitest";
import type { OriginCheck } from "../../../src/registrations/check-origin";
import { inconclusive, refusalOfProbe, resourceOfProbe } from "../../../src/registrations/probed-resource";
import { registrationOutcome } from "../../../src/registrations/registration-outcome";
import type { OriginAnswer } from "../../../src/sources/origin-manifest/fetch-manifest";
import { probeResult } from "../../support/probe";

const ORIGIN = "https://seller.example";
const URL_A = `${ORIGIN}/a`;
const ABSENT: OriginAnswer = {
  kind: "absent",
  reason: "no manifest (/.well-known/x402: HTTP 404)",
  statusCode: 404,
  requests: 2,
};
const FAILED: OriginAnswer = {
  kind: "failed",
  url: `${ORIGIN}/.well-known/x402`,
  reason: "HTTP 500",
  statusCode: 500,
  requests: 1,
};

function read(resources: number, problems: { where: string; message: string }[] = []): OriginAnswer {
  return {
    kind: "read",
    manifestUrl: `${ORIGIN}/.well-known/x402`,
    warnings: [],
    requests: 1,
    reading: {
      family: "resources",
      x402Version: 2,
      name: null,
      description: null,
      base: null,
      elsewhere: [],
      resources: Array.from({ length: resources }, (_, i) =>
        resourceOfProbe({ method: "GET", url: `${ORIGIN}/r${i}`, result: probeResult() }),
      ),
      problems: problems.map((p) => ({ ...p, raw: null })),
    },
  };
}

const urlRegistration = {
  kind: "url" as const,
  method: "GET",
  url: URL_A,
  origin: ORIGIN,
  state: "pending" as const,
};
const originRegistration = {
  kind: "origin" as const,
  method: null,
  url: null,
  origin: ORIGIN,
  state: "pending" as const,
};
const listedA = [{ method: "GET", url: URL_A, serviceId: "s1" }];

describe("registrationOutcome", () => {
  it("when a registered URL is among what the source lists, then it is listed with its probe's verdict", () => {
    const check: OriginCheck = {
      manifest: ABSENT,
      probes: [{ method: "GET", url: URL_A, result: probeResult() }],
      incomplete: null,
    };
    const outcome = registrationOutcome(urlRegistration, check, listedA);
    expect(outcome).toMatchObject({ state: "listed", reason: null, listed: listedA });
    expect(outcome.verdict).toMatchObject({
      probe: { outcome: "challenge" },
      manifest: { outcome: "absent" },
    });
  });

  it("when a registered URL is not listed, then it is refused with the probe's verdict and failed checks", () => {
    const result = probeResult({
      outcome: "no_challenge",
      statusCode: 200,
      challengeValid: false,
      options: [],
      checks: [{ id: "answers_402", result: "fail", reason: "answers 200, not 402", evidence: null }],
    });
    const check: OriginCheck = {
      manifest: ABSENT,
      probes: [{ method: "GET", url: URL_A, result }],
      incomplete: null,
    };
    expect(registrationOutcome(urlRegistration, check, [])).toMatchObject({
      state: "refused",
      reason: `GET ${URL_A} answered HTTP 200 without an x402 payment challenge (failed checks: answers_402: answers 200, not 402)`,
      listed: [],
    });
  });

  it("when a URL answers a valid challenge but the origin's listing was kept as stored, then the reason says so", () => {
    const check: OriginCheck = {
      manifest: FAILED,
      probes: [{ method: "GET", url: URL_A, result: probeResult() }],
      incomplete: "the manifest could not be read (HTTP 500)",
    };
    expect(registrationOutcome(urlRegistration, check, [])).toMatchObject({
      state: "refused",
      reason: `GET ${URL_A} answers a valid x402 challenge, but its origin's listing was kept as stored (the manifest could not be read (HTTP 500)); submit it again later`,
    });
  });

  it("when an origin's manifest lists resources, then the origin is listed with everything its source lists", () => {
    const check: OriginCheck = { manifest: read(2), probes: [], incomplete: null };
    expect(registrationOutcome(originRegistration, check, listedA)).toMatchObject({
      state: "listed",
      listed: listedA,
    });
  });

  it("when an origin has no manifest, or one listing nothing, then it is refused saying so", () => {
    expect(
      registrationOutcome(originRegistration, { manifest: ABSENT, probes: [], incomplete: null }, []),
    ).toMatchObject({
      state: "refused",
      reason: `${ORIGIN} publishes no x402 manifest: no manifest (/.well-known/x402: HTTP 404)`,
    });
    const empty = read(0, [{ where: "$.resources[0]", message: "no url, resource or path: not listed" }]);
    expect(
      registrationOutcome(originRegistration, { manifest: empty, probes: [], incomplete: null }, []),
    ).toMatchObject({
      state: "refused",
      reason: `the manifest at ${ORIGIN}/.well-known/x402 lists no resource on ${ORIGIN}; 1 items not read, the first at $.resources[0]: no url, resource or path: not listed`,
    });
  });

  it("when a listed origin's manifest cannot be read this time, then it stays listed with what is kept; a new one is refused", () => {
    const check: OriginCheck = {
      manifest: FAILED,
      probes: [],
      incomplete: "the manifest could not be read (HTTP 500)",
    };
    expect(registrationOutcome({ ...originRegistration, state: "listed" }, check, listedA)).toMatchObject({
      state: "listed",
      listed: listedA,
    });
    expect(registrationOutcome(originRegistration, check, listedA)).toMatchObject({
      state: "refused",
      reason: `the manifest of ${ORIGIN} could not be read: HTTP 500`,
    });
  });
});

describe("a registered URL's probe", () => {
  it.each([
    [probeResult({ outcome: "network_error", statusCode: null, error: "ECONNREFUSED" }), true],
    [probeResult({ outcome: "http_error", statusCode: 503, error: "HTTP 503" }), true],
    [probeResult({ outcome: "http_error", statusCode: 404, error: "HTTP 404" }), false],
    [probeResult({ outcome: "refused", statusCode: null, error: "10.0.0.1 is a private address" }), false],
    [probeResult(), false],
  ])("when it came to %#, then whether it keeps what is stored is %s", (result, keeps) => {
    expect(inconclusive(result)).toBe(keeps);
  });

  it("when the challenge is not valid, then the reason quotes why", () => {
    const result = probeResult({ challengeValid: false, error: "no payment options" });
    expect(refusalOfProbe({ method: "POST", url: URL_A, result })).toBe(
      `POST ${URL_A} answered 402 with an x402 challenge that is not valid: no payment options`,
    );
  });
});
