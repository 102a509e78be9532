import { describe, expect, it } from "vitest";
import { endpointEvidence } from "../../../src/catalogue/endpoint-evidence";
import type { ProbeSummary } from "../../../src/catalogue/probe-stats";
import { selfReportedOf } from "../../../src/normalise/self-reported";
import { parseBazaarItem } from "../../../src/sources/bazaar/parse";
import { BASE_USDC, PAY_TO } from "../bazaar/fixtures";

const NOTHING = {
  serviceName: null,
  tags: [],
  iconUrl: null,
  totalCalls30d: null,
  uniquePayers30d: null,
  lastCalledAt: null,
};

describe("selfReportedOf", () => {
  it("when the feed says nothing about a resource, then there is nothing self-reported", () => {
    expect(selfReportedOf(NOTHING)).toBeNull();
  });

  it("when the feed gives usage figures only, then they are kept with the rest null", () => {
    expect(selfReportedOf({ ...NOTHING, lastCalledAt: new Date("2026-11-20T10:00:00Z") })).toEqual({
      service_name: null,
      tags: [],
      icon_url: null,
      quality: { total_calls_30d: null, unique_payers_30d: null, last_called_at: "2026-11-20T10:00:00.000Z" },
    });
  });
});

describe("iconUrl in feed items", () => {
  const parse = (iconUrl: unknown) => {
    // An item needs a payment requirement to be read at all.
    const accepts = [
      { scheme: "exact", network: "eip155:8453", amount: "10000", asset: BASE_USDC, payTo: PAY_TO },
    ];
    const item = parseBazaarItem({ resource: "https://a.example/x", accepts, metadata: { iconUrl } }, 2);
    if (typeof item === "string") throw new Error(item);
    return item;
  };

  it("when iconUrl is an https URL, then it is kept", () => {
    expect(parse("https://a.example/icon.png").iconUrl).toBe("https://a.example/icon.png");
  });

  it.each([["javascript:alert(1)"], ["data:image/png;base64,AAAA"], ["/icon.png"]])(
    "when iconUrl is %s, then it is dropped with a warning",
    (iconUrl) => {
      const item = parse(iconUrl);
      expect(item.iconUrl).toBeNull();
      expect(item.warnings).toContainEqual(expect.stringMatching(/^iconUrl ignored: not an http\(s\) URL/));
    },
  );
});

describe("endpointEvidence", () => {
  const probe = (lastProbe: ProbeSummary["lastProbe"]): ProbeSummary => ({
    lastProbe,
    lastVerifiedAt: null,
    verified: false,
    windows: {
      "24h": { probes: 0, uptimePct: null, p50Ms: null, p99Ms: null },
      "7d": { probes: 0, uptimePct: null, p50Ms: null, p99Ms: null },
      "30d": { probes: 0, uptimePct: null, p50Ms: null, p99Ms: null },
    },
  });
  const at = new Date("2026-11-24T12:00:00Z");
  const last = (statusCode: number | null, outcome: string) => ({
    at,
    statusCode,
    outcome,
    challengeValid: false,
    error: null,
  });
  const evidence = (summary: ProbeSummary) =>
    endpointEvidence(3, summary, new Date("2026-11-01T13:00:00Z"), at).answersOurProbes;

  it("when the latest probe got a 402 or a 404, then the endpoint answers; a 503 or a timeout, it does not", () => {
    expect(evidence(probe(last(402, "challenge")))).toBe(true);
    expect(evidence(probe(last(404, "http_error")))).toBe(true);
    expect(evidence(probe(last(503, "http_error")))).toBe(false);
    expect(evidence(probe(last(null, "network_error")))).toBe(false);
  });

  it("when never probed, or our guard refused the probe, then nothing is claimed", () => {
    expect(evidence(probe(null))).toBeNull();
    expect(evidence(probe(last(null, "refused")))).toBeNull();
  });

  it("when listed 22.96 days ago, then the listing is 22 whole days old", () => {
    expect(endpointEvidence(null, probe(null), new Date("2026-11-01T13:00:00Z"), at)).toMatchObject({
      payToSharedWithOrigins: null,
      listingAgeDays: 22,
    });
  });
});
