import { describe, expect, it } from "vitest";
import { type JudgedOption, judgeEndpoint } from "../../../src/payability/endpoint-verdict";

const option = (overrides: Partial<JudgedOption> = {}): JudgedOption => ({
  origin: "listing",
  sourceKind: "bazaar",
  network: "eip155:8453",
  networkName: "base",
  payable: true,
  unpayableReasons: [],
  ...overrides,
});

const unpayable = (reason: string, overrides: Partial<JudgedOption> = {}) =>
  option({ payable: false, unpayableReasons: [reason], ...overrides });

const live = (overrides: Partial<JudgedOption> = {}) =>
  option({ origin: "probe", sourceKind: null, ...overrides });

const manifest = (overrides: Partial<JudgedOption> = {}) =>
  option({ sourceKind: "origin_manifest", ...overrides });

describe("judgeEndpoint", () => {
  it("when only the origin's manifest publishes requirements, then the manifest decides", () => {
    expect(judgeEndpoint([manifest()], null)).toEqual({ payable: true, decidedBy: "manifest", reasons: [] });
    expect(
      judgeEndpoint([manifest({ payable: false, unpayableReasons: ["asset is missing"] })], null),
    ).toEqual({
      payable: false,
      decidedBy: "manifest",
      reasons: ["base: asset is missing"],
    });
  });

  it("when a feed, a manifest and a directory all publish, then the feed decides; without the feed, the manifest over the directory", () => {
    const directory = unpayable("asset is missing", { sourceKind: "html_directory" });
    const badManifest = manifest({ payable: false, unpayableReasons: ["payTo is missing"] });
    expect(judgeEndpoint([directory, badManifest, option()], null).decidedBy).toBe("feed");
    expect(judgeEndpoint([directory, badManifest], null)).toMatchObject({
      payable: false,
      decidedBy: "manifest",
    });
    expect(judgeEndpoint([manifest(), live({ payable: false, unpayableReasons: ["x"] })], 402)).toMatchObject(
      {
        payable: false,
        decidedBy: "live_challenge",
      },
    );
  });

  it("when the feed lists one payable option among bad ones, then the feed decides it is payable", () => {
    const verdict = judgeEndpoint([unpayable("asset is missing"), option()], null);
    expect(verdict).toEqual({ payable: true, decidedBy: "feed", reasons: [] });
  });

  it("when every feed option is unpayable, then the reasons name each option's network", () => {
    const verdict = judgeEndpoint(
      [
        unpayable('asset "USDC" is not a token contract address'),
        unpayable("payTo is missing", { network: "solana:x", networkName: "solana" }),
      ],
      null,
    );
    expect(verdict).toEqual({
      payable: false,
      decidedBy: "feed",
      reasons: ['base: asset "USDC" is not a token contract address', "solana: payTo is missing"],
    });
  });

  it("when a live challenge was seen, then it decides over a listing, also when it is worse", () => {
    const verdict = judgeEndpoint(
      [option(), live({ payable: false, unpayableReasons: ["payTo is missing"] })],
      402,
    );
    expect(verdict).toEqual({
      payable: false,
      decidedBy: "live_challenge",
      reasons: ["base: payTo is missing"],
    });
  });

  it("when a live challenge is payable but the listing is not, then the endpoint is payable", () => {
    expect(judgeEndpoint([unpayable("asset is missing"), live()], 402)).toMatchObject({
      payable: true,
      decidedBy: "live_challenge",
    });
  });

  it("when the latest probe got a 402 with no readable options, then it is not payable, decided live", () => {
    expect(judgeEndpoint([option()], 402)).toEqual({
      payable: false,
      decidedBy: "live_challenge",
      reasons: ["the live 402 answer carries no payment requirements an x402 client can read"],
    });
  });

  it("when the latest probe got no 402 (down, or free now), then the listing still decides", () => {
    expect(judgeEndpoint([option()], 500)).toMatchObject({ payable: true, decidedBy: "feed" });
  });

  it("when a feed and a directory both list options, then the feed decides", () => {
    const verdict = judgeEndpoint(
      [unpayable("amount is missing", { sourceKind: "html_directory" }), option()],
      null,
    );
    expect(verdict.decidedBy).toBe("feed");
  });

  it("when only a directory lists options, then the directory decides", () => {
    expect(judgeEndpoint([option({ sourceKind: "html_directory" })], null).decidedBy).toBe("directory");
  });

  it("when nothing is published, then it is not payable and nothing decided", () => {
    expect(judgeEndpoint([], null)).toEqual({
      payable: false,
      decidedBy: null,
      reasons: ["no payment requirements are published for it"],
    });
  });

  it("when an option was stored before verdicts existed, then it says so instead of guessing", () => {
    const verdict = judgeEndpoint([option({ payable: null })], null);
    expect(verdict).toMatchObject({ payable: false, reasons: [expect.stringMatching(/not judged yet/)] });
  });
});
