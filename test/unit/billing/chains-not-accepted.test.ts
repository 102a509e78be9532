import { describe, expect, it } from "vitest";
import { chainsNotAcceptedMessage } from "../../../src/billing/settlement-chains";

describe("chainsNotAcceptedMessage", () => {
  it("when no settlement chain is configured, then the refusal says so and names SETTLEMENT_CHAINS", () => {
    expect(chainsNotAcceptedMessage(["base"], [])).toBe(
      "accepted_assets: chain base is not accepted here; accepted: none " +
        "(no chain is configured: the operator sets SETTLEMENT_CHAINS, see docs/billing.md)",
    );
  });

  it("when other chains are configured, then the refusal lists them and names the setting", () => {
    expect(chainsNotAcceptedMessage(["solana", "tron"], ["base"])).toBe(
      "accepted_assets: chain solana, tron is not accepted here; accepted: base (the operator's SETTLEMENT_CHAINS)",
    );
  });
});
