import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { parsePaymentChallenge } from "../../../src/payments/challenge";
import { v1Entry, v2Entry, v2SolanaEntry } from "./fixtures";

const v1Body = (accepts: unknown[]) =>
  JSON.stringify({ x402Version: 1, error: "X-PAYMENT header is required", accepts });

// The fixtures are plain records; the encoder only stringifies, so the cast is safe.
const v2Header = (payload: Record<string, unknown>) =>
  encodePaymentRequiredHeader(payload as PaymentRequired);

const v2Payload = (accepts: unknown[]) => ({
  x402Version: 2,
  error: "Payment required",
  resource: {
    url: "https://api.searchly.example/v2/search",
    description: "Web search",
    mimeType: "application/json",
  },
  accepts,
});

describe("parsePaymentChallenge: v1", () => {
  it("accepts a 402 with a v1 JSON body", () => {
    const result = parsePaymentChallenge({ status: 402, headers: {}, bodyText: v1Body([v1Entry()]) });
    expect(result).toMatchObject({ valid: true, x402Version: 1, error: null, warnings: [] });
    expect(result.options).toHaveLength(1);
    expect(result.options[0]?.price_usdc).toBe("0.01");
  });

  it("is not valid when the only option has a non-atomic amount, but keeps the option", () => {
    const body = v1Body([v1Entry({ maxAmountRequired: "$0.01" })]);
    const result = parsePaymentChallenge({ status: 402, headers: {}, bodyText: body });
    expect(result.valid).toBe(false);
    expect(result.error).toBe("no well-formed payment option");
    expect(result.options[0]?.price_usdc).toBe("0.01");
  });

  it("is not valid with an empty accepts list", () => {
    const result = parsePaymentChallenge({ status: 402, headers: {}, bodyText: v1Body([]) });
    expect(result).toMatchObject({ valid: false, error: "no payment options" });
  });

  it("reports skipped non-object entries as challenge warnings", () => {
    const result = parsePaymentChallenge({ status: 402, headers: {}, bodyText: v1Body(["base", v1Entry()]) });
    expect(result.valid).toBe(true);
    expect(result.warnings).toContain("accepts[0] skipped: not an object (string)");
  });
});

describe("parsePaymentChallenge: v2", () => {
  it("decodes the base64 PAYMENT-REQUIRED header, whatever its case", () => {
    const header = v2Header(v2Payload([v2Entry(), v2SolanaEntry()]));
    const result = parsePaymentChallenge({
      status: 402,
      headers: { "Payment-Required": header },
      bodyText: "{}",
    });
    expect(result).toMatchObject({ valid: true, x402Version: 2, error: null, warnings: [] });
    expect(result.options.map((o) => [o.network_name, o.price_usdc])).toEqual([
      ["base", "0.0025"],
      ["solana", "1.5"],
    ]);
  });

  it("prefers the header over a v1 body", () => {
    const header = v2Header(v2Payload([v2SolanaEntry()]));
    const result = parsePaymentChallenge({
      status: 402,
      headers: { "payment-required": header },
      bodyText: v1Body([v1Entry()]),
    });
    expect(result.x402Version).toBe(2);
    expect(result.options.map((o) => o.network_name)).toEqual(["solana"]);
  });

  it("decodes a base64url header with a warning", () => {
    // Runs of "?" and ">" put "+" and "/" into standard base64; the expect below guards that.
    const standard = v2Header({ ...v2Payload([v2Entry()]), note: "??>??>???>>>~~~" });
    const urlSafe = standard.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(urlSafe).toMatch(/[-_]/);
    const result = parsePaymentChallenge({
      status: 402,
      headers: { "PAYMENT-REQUIRED": urlSafe },
      bodyText: null,
    });
    expect(result.valid).toBe(true);
    expect(result.warnings).toContain("PAYMENT-REQUIRED header is base64url, not standard base64");
  });

  it("flags a v2 challenge sent in the body but still reads it", () => {
    const body = JSON.stringify(v2Payload([v2Entry()]));
    const result = parsePaymentChallenge({ status: 402, headers: {}, bodyText: body });
    expect(result.valid).toBe(true);
    expect(result.warnings).toContain("v2 challenge sent in the body instead of the PAYMENT-REQUIRED header");
  });

  it("flags envelope problems such as a missing resource without repeating option problems", () => {
    const { resource: _omitted, ...payload } = v2Payload([v2Entry({ amount: 5 })]);
    const result = parsePaymentChallenge({
      status: 402,
      headers: { "payment-required": v2Header(payload) },
      bodyText: null,
    });
    const envelope = result.warnings.filter((w) => w.startsWith("not a valid x402 PaymentRequired"));
    expect(envelope).toHaveLength(1);
    expect(envelope[0]).toMatch(/resource: Required/);
    expect(envelope[0]).not.toMatch(/amount/);
  });

  it("falls back to the body when the header cannot be decoded", () => {
    const result = parsePaymentChallenge({
      status: 402,
      headers: { "payment-required": "not base64 at all!" },
      bodyText: v1Body([v1Entry()]),
    });
    expect(result.valid).toBe(true);
    expect(result.x402Version).toBe(1);
    expect(result.warnings[0]).toMatch(/^PAYMENT-REQUIRED header could not be decoded/);
  });
});

describe("parsePaymentChallenge: not a challenge", () => {
  it("does not accept an HTML 402 page", () => {
    const html = "<!doctype html><html><body><h1>402 Payment Required</h1></body></html>";
    const result = parsePaymentChallenge({
      status: 402,
      headers: { "content-type": "text/html" },
      bodyText: html,
    });
    expect(result).toEqual({
      valid: false,
      x402Version: null,
      options: [],
      error: "no PAYMENT-REQUIRED header and the body is not JSON",
      warnings: [],
      call: null,
      traits: {
        auth_only: false,
        idempotent: false,
        extensions: [],
        self_reported: { service_name: null, tags: [], icon_url: null },
      },
    });
  });

  it("does not accept a well-formed challenge served with status 200, but still reads it", () => {
    const result = parsePaymentChallenge({ status: 200, headers: {}, bodyText: v1Body([v1Entry()]) });
    expect(result.valid).toBe(false);
    expect(result.error).toBe("status is 200, not 402");
    expect(result.options).toHaveLength(1);
  });

  it("does not accept a 402 with an empty body and no header", () => {
    const result = parsePaymentChallenge({ status: 402, headers: {}, bodyText: null });
    expect(result).toMatchObject({ valid: false, error: "no PAYMENT-REQUIRED header and an empty body" });
  });

  it("does not accept JSON without accepts", () => {
    const result = parsePaymentChallenge({ status: 402, headers: {}, bodyText: '{"error":"pay up"}' });
    expect(result).toMatchObject({
      valid: false,
      error: "no PAYMENT-REQUIRED header and the body JSON has no accepts",
    });
  });
});
