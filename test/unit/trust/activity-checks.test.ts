import { describe, expect, it } from "vitest";
import { type ClaimedFigures, type ObservedJson, observedOf } from "../../../src/activity/figures";
import type { ObservedTransfer, TransferFlag } from "../../../src/activity/wash-rules";
import { activityChecks } from "../../../src/trust/checks/activity";
import { gradeOf } from "../../../src/trust/grade";
import { CHECK_IDS } from "../../../src/trust/types";
import { warningsOf } from "../../../src/trust/warnings";

const AS_OF = new Date("2026-11-28T12:00:00Z");
const NO_CLAIMS: ClaimedFigures = {
  directory: { volumeUsdc30d: null, txCount30d: null, uniquePayers30d: null },
  feed: { txCount30d: null, uniquePayers30d: null },
};

/** Payments of `units` micro-USDC an hour before AS_OF; those at `flagged` indexes carry a round_trip flag. */
function observed(units: bigint[], flagged: number[] = [], claimed = NO_CLAIMS): ObservedJson {
  const flags = new Map<string, TransferFlag[]>();
  const payments: ObservedTransfer[] = units.map((value, i) => {
    const txHash = `0x${(i + 1).toString(16).padStart(64, "0")}`;
    if (flagged.includes(i))
      flags.set(`eip155:8453:${txHash}:0`, [
        { rule: "round_trip", transactions: [`0x${"f".repeat(64)}`], transactionCount: 1 },
      ]);
    return {
      chain: "eip155:8453",
      txHash,
      logIndex: 0,
      blockNumber: BigInt(i + 1),
      blockTime: new Date(AS_OF.getTime() - 3_600_000),
      from: `0x${String(i).padStart(40, "0")}`,
      to: `0x${"a".repeat(40)}`,
      value,
    };
  });
  return observedOf({ payments, flags, payTo: [], sharedWith: [], claimed, asOf: AS_OF });
}

const resultOf = (checks: ReturnType<typeof activityChecks>, id: string) => checks.find((c) => c.id === id);

describe("activityChecks: the observed payments as checks of the grade", () => {
  it("when no chain reads the pay_tos, then both checks are not applicable and the grade is untouched", () => {
    const checks = activityChecks({ endpoint: null, service: null });
    expect(checks.map((c) => c.result)).toEqual(["not_applicable", "not_applicable"]);
  });

  it("when nothing is flagged and nothing claimed, then self_dealing passes and claims_observed does not apply", () => {
    const checks = activityChecks({ endpoint: observed([1_000_000n, 2_000_000n]), service: null });
    expect(resultOf(checks, "self_dealing")?.result).toBe("pass");
    expect(resultOf(checks, "claims_observed")?.result).toBe("not_applicable");
  });

  it("when under half the raw volume is flagged, then self_dealing warns with each rule's transactions as evidence", () => {
    const check = resultOf(
      activityChecks({ endpoint: observed([3_000_000n, 1_000_000n], [1]), service: null }),
      "self_dealing",
    );
    expect(check?.result).toBe("warn");
    expect(check?.evidence).toEqual({
      raw_volume_usdc: "4.000000",
      adjusted_volume_usdc: "3.000000",
      raw_tx_count: 2,
      adjusted_tx_count: 1,
      rules: [
        {
          rule: "round_trip",
          transfer_count: 1,
          volume_usdc: "1.000000",
          transactions: [`0x${"2".padStart(64, "0")}`],
        },
      ],
    });
  });

  it("when half the raw volume or more is flagged, then self_dealing fails and caps the grade at D", () => {
    const checks = activityChecks({ endpoint: observed([1_000_000n, 1_000_000n], [1]), service: null });
    expect(resultOf(checks, "self_dealing")?.result).toBe("fail");
    const others = CHECK_IDS.filter((id) => id !== "self_dealing").map((id) => ({
      id,
      result: "pass" as const,
    }));
    expect(gradeOf([...others, { id: "self_dealing", result: "fail" }]).grade).toBe("D");
  });

  it("when a claim is more than twice the adjusted observed figure, then claims_observed warns and names it; at twice it passes", () => {
    const claimed = (volume: string): ClaimedFigures => ({
      ...NO_CLAIMS,
      directory: { ...NO_CLAIMS.directory, volumeUsdc30d: volume },
    });
    const over = resultOf(
      activityChecks({
        endpoint: observed([1_000_000n]),
        service: observed([1_000_000n], [], claimed("2.000001")),
      }),
      "claims_observed",
    );
    expect(over?.result).toBe("warn");
    expect(over?.evidence).toMatchObject({
      factor: 2,
      claims: [{ of: "service", source: "directory", figure: "volume_usdc", claimed: "2.000001" }],
    });
    const within = resultOf(
      activityChecks({ endpoint: observed([1_000_000n]), service: observed([1_000_000n], [], claimed("2")) }),
      "claims_observed",
    );
    expect(within?.result).toBe("pass");
  });

  it("when the checks warn, then the warnings claims_exceed_observed and self_dealing follow them", () => {
    const checks = activityChecks({
      endpoint: observed([3_000_000n, 1_000_000n], [1], {
        ...NO_CLAIMS,
        feed: { txCount30d: 100, uniquePayers30d: null },
      }),
      service: null,
    });
    const warnings = warningsOf({
      health: "live",
      checks,
      zombieSince: null,
      livePayable: true,
      authOnly: false,
      slowP99: false,
      serviceFirstSeenAt: new Date("2026-01-01T00:00:00Z"),
      payToChangedAt: null,
      zombieAfterMs: 86_400_000,
      now: AS_OF,
    });
    expect(warnings).toEqual(["claims_exceed_observed", "self_dealing"]);
  });
});
