import { describe, expect, it } from "vitest";
import { dailyOf, observedOf } from "../../../src/activity/figures";
import { type TransferFlag, transferKey } from "../../../src/activity/wash-rules";
import { transferMaker } from "../../support/transfers";

const PAY_TO = "0x00000000000000000000000000000000000000a1";
const asOf = new Date("2026-11-30T12:00:00.000Z");
const transfer = transferMaker(asOf);
const payment = (from: string, value: bigint, hoursBeforeAsOf: number) =>
  transfer(from, PAY_TO, value, hoursBeforeAsOf);
const payer = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const noClaims = {
  directory: { volumeUsdc30d: null, txCount30d: null, uniquePayers30d: null },
  feed: { txCount30d: null, uniquePayers30d: null },
};

describe("observed figures", () => {
  const recent = payment(payer(1), 1_500_000n, 2);
  const week = payment(payer(2), 250_001n, 24 * 5);
  const month = payment(payer(1), 3n, 24 * 20);
  const old = payment(payer(3), 9_000_000n, 24 * 31);
  const flagged = payment(payer(4), 700_000n, 3);
  const flags = new Map<string, TransferFlag[]>([
    [transferKey(flagged), [{ rule: "self_payment", transactions: [flagged.txHash], transactionCount: 1 }]],
  ]);
  const payments = [old, month, week, flagged, recent];

  it("when payments fall in each window, then raw figures are exact and adjusted ones leave flagged transfers out", () => {
    const observed = observedOf({ payments, flags, payTo: [], sharedWith: [], claimed: noClaims, asOf });
    expect(observed.raw).toEqual({
      "24h": { volume_usdc: "2.200000", tx_count: 2, unique_payers: 2 },
      "7d": { volume_usdc: "2.450001", tx_count: 3, unique_payers: 3 },
      "30d": { volume_usdc: "2.450004", tx_count: 4, unique_payers: 3 },
    });
    expect(observed.adjusted).toEqual({
      "24h": { volume_usdc: "1.500000", tx_count: 1, unique_payers: 1 },
      "7d": { volume_usdc: "1.750001", tx_count: 2, unique_payers: 2 },
      "30d": { volume_usdc: "1.750004", tx_count: 3, unique_payers: 2 },
    });
    expect(observed.last_payment_at).toBe(recent.blockTime.toISOString());
    expect(observed.flags).toEqual([
      {
        rule: "self_payment",
        transfer_count: 1,
        volume_usdc: "0.700000",
        transfers: [
          {
            chain: "eip155:8453",
            tx_hash: flagged.txHash,
            log_index: 0,
            payer: payer(4),
            pay_to: PAY_TO,
            value_usdc: "0.700000",
            at: flagged.blockTime.toISOString(),
            evidence: [flagged.txHash],
            evidence_count: 1,
          },
        ],
      },
    ]);
    expect(observed.warnings).toEqual([]);
    expect(observed.claim_ratio).toBeNull();
  });

  it("when a directory claims more than twice the adjusted volume, then the ratio says how much and claims_exceed_observed warns", () => {
    const claimed = {
      directory: { volumeUsdc30d: "3.500008", txCount30d: 6, uniquePayers30d: null },
      feed: { txCount30d: null, uniquePayers30d: 5 },
    };
    const observed = observedOf({ payments, flags, payTo: [], sharedWith: [], claimed, asOf });
    expect(observed.claims).toEqual([
      { source: "directory", figure: "volume_usdc", claimed: "3.500008", observed: "1.750004", ratio: 2 },
      { source: "directory", figure: "tx_count", claimed: "6", observed: "3", ratio: 2 },
      { source: "feed", figure: "unique_payers", claimed: "5", observed: "2", ratio: 2.5 },
    ]);
    expect(observed.claim_ratio).toBe(2.5);
    expect(observed.warnings).toEqual(["claims_exceed_observed"]);
  });

  it("when claims are at most twice what was observed, then there is no warning", () => {
    const claimed = {
      directory: { volumeUsdc30d: "3.500008", txCount30d: 6, uniquePayers30d: 4 },
      feed: { txCount30d: null, uniquePayers30d: null },
    };
    const observed = observedOf({ payments, flags, payTo: [], sharedWith: [], claimed, asOf });
    expect(observed.warnings).toEqual([]);
  });

  it("when a claim meets no observed payment, then its ratio is null and it exceeds", () => {
    const claimed = {
      directory: { volumeUsdc30d: null, txCount30d: 1, uniquePayers30d: null },
      feed: { txCount30d: null, uniquePayers30d: null },
    };
    const observed = observedOf({ payments: [], flags, payTo: [], sharedWith: [], claimed, asOf });
    expect(observed.claims[0]?.ratio).toBeNull();
    expect(observed.warnings).toEqual(["claims_exceed_observed"]);
  });

  it("when payments span days, then the daily series has one row per UTC day, raw and adjusted", () => {
    const daily = dailyOf([week, flagged, recent], flags);
    expect(daily).toEqual([
      {
        day: week.blockTime.toISOString().slice(0, 10),
        raw: { volume_usdc: "0.250001", tx_count: 1, unique_payers: 1 },
        adjusted: { volume_usdc: "0.250001", tx_count: 1, unique_payers: 1 },
      },
      {
        day: "2026-11-30",
        raw: { volume_usdc: "2.200000", tx_count: 2, unique_payers: 2 },
        adjusted: { volume_usdc: "1.500000", tx_count: 1, unique_payers: 1 },
      },
    ]);
  });
});
