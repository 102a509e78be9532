import { describe, expect, it } from "vitest";
import { parsePaymentChallenge } from "../../../src/payments/challenge";
import { v2Entry } from "./fixtures";

const header = (challenge: Record<string, unknown>) => ({
  status: 402,
  headers: { "PAYMENT-REQUIRED": Buffer.from(JSON.stringify(challenge)).toString("base64") },
  bodyText: "{}",
});

describe("challenge traits", () => {
  it("when a 402 has empty accepts and a sign-in-with-x extension, then it is auth only, not unpayable", () => {
    const challenge = parsePaymentChallenge(
      header({
        x402Version: 2,
        resource: { url: "https://seller.example/me" },
        accepts: [],
        extensions: { "sign-in-with-x": { info: { domain: "seller.example" } } },
      }),
    );
    expect(challenge.traits.auth_only).toBe(true);
    expect(challenge.options).toEqual([]);
    expect(challenge.error).toMatch(/^authentication only/);
  });

  it("when the resource names itself and offers payment-identifier, then both are kept as self-reported", () => {
    const challenge = parsePaymentChallenge(
      header({
        x402Version: 2,
        resource: {
          url: "https://seller.example/a",
          serviceName: "Weather Pro",
          tags: ["weather", " ", "forecast"],
          iconUrl: "https://seller.example/icon.png",
        },
        accepts: [v2Entry()],
        extensions: { "payment-identifier": { info: { required: false } } },
      }),
    );
    expect(challenge.traits).toEqual({
      auth_only: false,
      idempotent: true,
      extensions: ["payment-identifier"],
      self_reported: {
        service_name: "Weather Pro",
        tags: ["weather", "forecast"],
        icon_url: "https://seller.example/icon.png",
      },
    });
  });

  it("when an option's paymentFlow is not authorization, then the option carries a warning", () => {
    const challenge = parsePaymentChallenge(
      header({
        x402Version: 2,
        resource: { url: "https://seller.example/a" },
        accepts: [v2Entry({ extra: { name: "USD Coin", version: "2", paymentFlow: "escrow" } })],
      }),
    );
    expect(challenge.options[0]?.warnings).toContain('extra.paymentFlow is "escrow", not "authorization"');
  });
});
