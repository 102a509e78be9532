import { describe, expect, it } from "vitest";
import { storablePaymentOption } from "../../../src/catalogue/payment-options";
import type { PaymentOption } from "../../../src/payments/types";

const OPTION: PaymentOption = {
  scheme: "exact",
  network: "eip155:8453",
  network_name: "base",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  asset_symbol: "USDC",
  amount_atomic: "10000",
  price_usdc: "0.01",
  pay_to: "0xabc",
  max_timeout_seconds: 60,
  warnings: ["asset is a symbol"],
  payable: false,
  unpayable_reasons: [
    'asset "USDC" is not a token contract address on eip155:8453 (expected a 0x-prefixed 20-byte hex address)',
  ],
};

describe("storablePaymentOption", () => {
  it("when every value fits its column, then the option is stored as it is", () => {
    expect(storablePaymentOption(OPTION)).toEqual(OPTION);
  });

  it("when the amount has more digits than the column holds, then it is dropped with a warning", () => {
    const stored = storablePaymentOption({ ...OPTION, amount_atomic: "9".repeat(79), price_usdc: null });
    expect(stored.amount_atomic).toBeNull();
    expect(stored.warnings).toEqual(["asset is a symbol", expect.stringMatching(/more than 78 digits/)]);
  });

  it("when the USDC price is too large for the column, then it is dropped with a warning", () => {
    const stored = storablePaymentOption({ ...OPTION, price_usdc: `${"9".repeat(33)}.5` });
    expect(stored.price_usdc).toBeNull();
    expect(stored.warnings.at(-1)).toMatch(/too large to store/);
  });

  it("when the timeout is fractional or huge, then it is rounded or dropped, with a warning", () => {
    expect(storablePaymentOption({ ...OPTION, max_timeout_seconds: 30.6 })).toMatchObject({
      max_timeout_seconds: 31,
      warnings: ["asset is a symbol", expect.stringMatching(/not a whole number/)],
    });
    expect(storablePaymentOption({ ...OPTION, max_timeout_seconds: 1e12 }).max_timeout_seconds).toBeNull();
  });

  it("when a value is changed, then the caller's option is left untouched", () => {
    const input = { ...OPTION, max_timeout_seconds: 1e12, warnings: [] };
    storablePaymentOption(input);
    expect(input).toMatchObject({ max_timeout_seconds: 1e12, warnings: [] });
  });
});
