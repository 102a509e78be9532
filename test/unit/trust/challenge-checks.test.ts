import { describe, expect, it } from "vitest";
import { challengeChecks } from "../../../src/trust/checks/challenge";
import type { Check } from "../../../src/trust/types";
import { v1ChallengeBody, v2ChallengeHeader } from "../../support/x402-challenges";
import {
  ARBITRUM_USDC,
  BASE_SEPOLIA_USDC,
  POLYGON_USDC,
  v1Entry,
  v2Entry,
  v2SolanaEntry,
} from "../payments/fixtures";

const results = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c.result]));
const v2 = (accepts: Record<string, unknown>[]) => ({
  status: 402,
  headers: { "payment-required": v2ChallengeHeader("https://seller.example/a", accepts) },
  bodyText: "",
});

describe("challengeChecks", () => {
  it("when a v2 header challenge is complete, then every challenge check passes", () => {
    expect(results(challengeChecks(v2([v2Entry()])))).toMatchObject({
      answers_402: "pass",
      challenge_valid: "pass",
      version_channel: "pass",
      atomic_amount: "pass",
      known_network: "pass",
      canonical_asset: "pass",
      signing_domain: "pass",
      svm_fee_payer: "not_applicable",
      pay_to_valid: "pass",
    });
  });

  it("when the endpoint answers 404, then answers_402 fails and the rest is not applicable", () => {
    const checks = results(challengeChecks({ status: 404, headers: {}, bodyText: "not found" }));
    expect(checks.answers_402).toBe("fail");
    expect(checks.signing_domain).toBe("not_applicable");
  });

  it("when a v2 challenge is in the body, then version_channel warns", () => {
    const body = JSON.stringify({
      x402Version: 2,
      resource: { url: "https://s.example/a" },
      accepts: [v2Entry()],
    });
    expect(results(challengeChecks({ status: 402, headers: {}, bodyText: body })).version_channel).toBe(
      "warn",
    );
  });

  it("when a mainnet listing asks for the Base Sepolia USDC, then canonical_asset fails as a testnet token", () => {
    const checks = challengeChecks(v2([v2Entry({ asset: BASE_SEPOLIA_USDC })]));
    const asset = checks.find((c) => c.id === "canonical_asset");
    expect(asset?.result).toBe("fail");
    expect(asset?.reason).toMatch(/testnet USDC of eip155:84532/);
  });

  it("when Polygon's USDC is asked on Base, then canonical_asset fails as another chain's USDC", () => {
    expect(results(challengeChecks(v2([v2Entry({ asset: POLYGON_USDC })]))).canonical_asset).toBe("fail");
  });

  it("when EVM exact lacks extra, then signing_domain fails; Solana without feePayer fails svm_fee_payer", () => {
    expect(results(challengeChecks(v2([v2Entry({ extra: undefined })]))).signing_domain).toBe("fail");
    expect(results(challengeChecks(v2([v2SolanaEntry({ extra: {} })]))).svm_fee_payer).toBe("fail");
  });

  it("when a v1 body names arbitrum, then known_network fails (outside the official v1 table)", () => {
    const input = {
      status: 402,
      headers: {},
      bodyText: v1ChallengeBody([v1Entry({ network: "arbitrum", asset: ARBITRUM_USDC })]),
    };
    expect(results(challengeChecks(input))).toMatchObject({
      known_network: "fail",
      version_channel: "pass",
      input_described: "pass",
    });
  });

  it("when the amount is in dollars, then atomic_amount fails", () => {
    expect(results(challengeChecks(v2([v2Entry({ amount: "$0.01" })]))).atomic_amount).toBe("fail");
  });
});
