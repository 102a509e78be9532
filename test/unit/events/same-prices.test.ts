import { describe, expect, it } from "vitest";
import { type ListedPrice, samePrices } from "../../../src/events/catalogue-events";

const option = (overrides: Partial<ListedPrice> = {}): ListedPrice => ({
  scheme: "exact",
  network: "eip155:8453",
  asset: "0xA",
  asset_symbol: "USDC",
  amount_atomic: "10000",
  price_usdc: "0.01",
  pay_to: "0xP",
  ...overrides,
});

describe("samePrices", () => {
  it("when the options are the same in another order, then the price did not change", () => {
    const solana = option({ network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", asset: "EPj" });
    expect(samePrices([option(), solana], [solana, option()])).toBe(true);
  });

  it.each([
    ["amount_atomic", "20000"],
    ["asset", "0xB"],
    ["network", "eip155:84532"],
    ["pay_to", "0xQ"],
    ["scheme", "upto"],
  ] as const)("when %s differs, then the price changed", (field, value) => {
    expect(samePrices([option()], [option({ [field]: value })])).toBe(false);
  });

  it("when an option is added or all are removed, then the price changed", () => {
    expect(samePrices([option()], [option(), option({ network: "eip155:1" })])).toBe(false);
    expect(samePrices([option()], [])).toBe(false);
  });

  it("when only a derived field differs, then the price did not change", () => {
    expect(samePrices([option()], [option({ asset_symbol: null, price_usdc: null })])).toBe(true);
  });
});
