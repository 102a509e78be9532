import { describe, expect, it } from "vitest";
import { flagTransfers, type ObservedTransfer, transferKey } from "../../../src/activity/wash-rules";
import { transferMaker } from "../../support/transfers";

const PAY_TO = "0x00000000000000000000000000000000000000a1";
const OTHER_PAY_TO = "0x00000000000000000000000000000000000000a2";
const FOREIGN_PAY_TO = "0x00000000000000000000000000000000000000f1";
const ALICE = "0x0000000000000000000000000000000000000b01";
const BOB = "0x0000000000000000000000000000000000000b02";
const ZERO = "0x0000000000000000000000000000000000000000";
const asOf = new Date("2026-11-30T00:00:00.000Z");

/** PAY_TO and OTHER_PAY_TO belong to service s1; FOREIGN_PAY_TO to s2. */
const watched = new Map<string, readonly string[]>([
  [PAY_TO, ["s1"]],
  [OTHER_PAY_TO, ["s1"]],
  [FOREIGN_PAY_TO, ["s2"]],
]);

const transfer = transferMaker(asOf);
const rulesOf = (flags: ReturnType<typeof flagTransfers>, t: ObservedTransfer) =>
  (flags.get(transferKey(t)) ?? []).map((flag) => flag.rule);

describe("the wash-trading rules", () => {
  it("when honest payers pay, then nothing is flagged (and a mint is no payment)", () => {
    const transfers = [
      transfer(ZERO, ALICE, 1_000_000n, 100),
      transfer(ALICE, PAY_TO, 10_000n, 50),
      transfer(BOB, PAY_TO, 10_000n, 40),
      transfer(PAY_TO, "0x0000000000000000000000000000000000000c01", 15_000n, 30),
    ];
    expect(flagTransfers(transfers, watched, asOf).size).toBe(0);
  });

  it("when a pay_to pays itself or another pay_to of its service, then self_payment names that transaction", () => {
    const itself = transfer(PAY_TO, PAY_TO, 5_000n, 10);
    const sibling = transfer(OTHER_PAY_TO, PAY_TO, 5_000n, 9);
    const foreign = transfer(FOREIGN_PAY_TO, PAY_TO, 5_000n, 8);
    const flags = flagTransfers([itself, sibling, foreign], watched, asOf);
    expect(flags.get(transferKey(itself))).toEqual([
      { rule: "self_payment", transactions: [itself.txHash], transactionCount: 1 },
    ]);
    expect(rulesOf(flags, sibling)).toEqual(["self_payment"]);
    // Another service's pay_to paying is a customer like any other.
    expect(rulesOf(flags, foreign)).toEqual([]);
  });

  it("when the pay_to sends back at least half of a payer's payments within 24 h, then round_trip lists the returns", () => {
    const first = transfer(ALICE, PAY_TO, 10_000n, 60);
    const second = transfer(ALICE, PAY_TO, 10_000n, 50);
    const back = transfer(PAY_TO, ALICE, 10_000n, 30); // 20 h after the second payment: half of 20,000
    const flags = flagTransfers([first, second, back], watched, asOf);
    for (const payment of [first, second]) {
      expect(flags.get(transferKey(payment))?.find((flag) => flag.rule === "round_trip")).toEqual({
        rule: "round_trip",
        transactions: [back.txHash],
        transactionCount: 1,
      });
    }
  });

  it("when less than half comes back, or it comes back after 24 h, then there is no round_trip", () => {
    const paid = transfer(BOB, PAY_TO, 10_000n, 100);
    const little = transfer(PAY_TO, BOB, 4_999n, 99);
    const late = transfer(PAY_TO, BOB, 10_000n, 75); // 25 h after the payment
    const flags = flagTransfers([paid, little, late], watched, asOf);
    expect(rulesOf(flags, paid)).toEqual([]);
  });

  it("when the payer received USDC from the pay_to within 7 days before paying, then funded_by_pay_to names the funding", () => {
    const funding = transfer(PAY_TO, ALICE, 50_000n, 24 * 6);
    const paid = transfer(ALICE, PAY_TO, 10_000n, 1);
    const oldFunding = transfer(PAY_TO, BOB, 50_000n, 24 * 9);
    const paidLater = transfer(BOB, PAY_TO, 10_000n, 1); // 8 days after its funding
    const flags = flagTransfers([funding, oldFunding, paid, paidLater], watched, asOf);
    expect(flags.get(transferKey(paid))).toEqual([
      { rule: "funded_by_pay_to", transactions: [funding.txHash], transactionCount: 1 },
    ]);
    expect(rulesOf(flags, paidLater)).toEqual([]);
  });

  it("when one payer makes at least 80 % of the 30-day volume over at least 20 payments, then concentration flags its payments", () => {
    const dominant = Array.from({ length: 20 }, (_, i) => transfer(ALICE, PAY_TO, 4_000n, 200 + i));
    const others = Array.from({ length: 5 }, (_, i) =>
      transfer(`0x${(0xd00 + i).toString(16).padStart(40, "0")}`, PAY_TO, 4_000n, 300 + i),
    );
    // 80,000 of 100,000: exactly 80 %.
    const flags = flagTransfers([...dominant, ...others], watched, asOf);
    for (const payment of dominant) {
      const flag = flags.get(transferKey(payment))?.[0];
      expect(flag?.rule).toBe("concentration");
      expect(flag?.transactionCount).toBe(20);
      expect(flag?.transactions).toHaveLength(10);
    }
    for (const payment of others) expect(rulesOf(flags, payment)).toEqual([]);
  });

  it("when the dominant payer made 19 payments, or less than 80 %, then there is no concentration", () => {
    const nineteen = Array.from({ length: 19 }, (_, i) => transfer(ALICE, PAY_TO, 10_000n, 10 + i));
    expect(flagTransfers(nineteen, watched, asOf).size).toBe(0);
    const many = Array.from({ length: 20 }, (_, i) => transfer(BOB, OTHER_PAY_TO, 3_999n, 10 + i));
    const rest = [transfer(ALICE, OTHER_PAY_TO, 20_021n, 5)]; // Bob: 79,980 of 100,001
    expect(flagTransfers([...many, ...rest], watched, asOf).size).toBe(0);
  });

  it("when the dominant payments are older than 30 days, then they are outside the concentration window", () => {
    const old = Array.from({ length: 25 }, (_, i) => transfer(ALICE, PAY_TO, 4_000n, 24 * 31 + i));
    expect(flagTransfers(old, watched, asOf).size).toBe(0);
  });
});
