import { describe, expect, it } from "vitest";
import { drift } from "../../../src/payments/drift";
import { BASE_USDC, probeOption as option, PAY_TO_EVM, SOLANA_MAINNET, SOLANA_USDC } from "./fixtures";

const solana = option({
  network: SOLANA_MAINNET,
  network_name: "solana",
  asset: SOLANA_USDC,
  pay_to: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
});

describe("drift", () => {
  it("finds nothing when the live challenge matches the listing", () => {
    expect(drift([option(), solana], [solana, option()])).toEqual([]);
  });

  it("reports a changed price on the same network", () => {
    expect(drift([option()], [option({ amount_atomic: "20000", price_usdc: "0.02" })])).toEqual([
      {
        kind: "price",
        network: "eip155:8453",
        claimed: "0.01 USDC",
        observed: "0.02 USDC",
        message: "price on eip155:8453 is 0.02 USDC, listing says 0.01 USDC",
      },
    ]);
  });

  it("compares atomic amounts when the asset is not USDC", () => {
    const weth = {
      asset: "0x4200000000000000000000000000000000000006",
      asset_symbol: null,
      price_usdc: null,
    };
    const result = drift(
      [option({ ...weth, amount_atomic: "1" })],
      [option({ ...weth, amount_atomic: "2" })],
    );
    expect(result.map((d) => [d.kind, d.observed])).toEqual([
      ["price", "2 atomic 0x4200000000000000000000000000000000000006"],
    ]);
  });

  it("reports a different asset on the same network, whatever the checksum case", () => {
    const other = "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb";
    expect(drift([option()], [option({ asset: BASE_USDC.toLowerCase() })])).toEqual([]);
    expect(drift([option()], [option({ asset: other })]).map((d) => [d.kind, d.claimed, d.observed])).toEqual(
      [["asset", BASE_USDC, other]],
    );
  });

  it("ignores the checksum case of an EVM pay_to", () => {
    expect(drift([option()], [option({ pay_to: PAY_TO_EVM.toLowerCase() })])).toEqual([]);
  });

  it("reports a different pay_to", () => {
    const other = "0x0000000000000000000000000000000000000001";
    const result = drift([option()], [option({ pay_to: other })]);
    expect(result).toHaveLength(1);
    expect(result[0]).toMatchObject({ kind: "pay_to", claimed: PAY_TO_EVM, observed: other });
  });

  it("treats Solana pay_to addresses as case-sensitive", () => {
    const lowered = { ...solana, pay_to: solana.pay_to?.toLowerCase() ?? null };
    expect(drift([solana], [lowered]).map((d) => d.kind)).toEqual(["pay_to"]);
  });

  it("reports a claimed network that is not offered and an offered one that is not claimed", () => {
    const result = drift([option()], [solana]);
    expect(result.map((d) => [d.kind, d.claimed, d.observed])).toEqual([
      ["network", "eip155:8453", null],
      ["network", null, SOLANA_MAINNET],
    ]);
  });

  it("does not report drift for a price or pay_to the listing does not state", () => {
    const vague = option({ amount_atomic: null, price_usdc: null, pay_to: null });
    expect(drift([vague], [option()])).toEqual([]);
  });
});
