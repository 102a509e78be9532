import { describe, expect, it } from "vitest";
import { FailureReasons, failureReason, topReasons } from "../../../src/probe/failure-reasons";
import { type SweepSummary, sweepSummaryLine } from "../../../src/probe/sweep-once";

describe("probe failure reasons", () => {
  it.each([
    ["getaddrinfo ENOTFOUND api.example.com", "DNS: host not found (ENOTFOUND)"],
    ["connect ECONNREFUSED 10.0.0.1:443", "connection refused (ECONNREFUSED)"],
    ["certificate has expired (CERT_HAS_EXPIRED)", "CERT_HAS_EXPIRED"],
    ["no complete answer within 10000 ms", "timed out (no complete answer)"],
    ["HTTP 503", "HTTP 503"],
    ["the address 10.1.2.3 is private (https://a.example/x)", "the address N is private (<url>"],
    [null, "no reason recorded"],
  ])("when a probe failed with %j, then its reason is %j", (error, reason) => {
    expect(failureReason(error)).toBe(reason);
  });

  it("when many probes failed, then the summary names the top three reasons with counts, and the rest as other", () => {
    const reasons = new FailureReasons();
    const add = (n: number, error: string) => {
      for (let i = 0; i < n; i++) reasons.add("network_error", `${error} host${i}.example`);
    };
    add(90, "getaddrinfo ENOTFOUND");
    add(30, "connect ECONNREFUSED");
    add(10, "read ECONNRESET");
    add(5, "connect EHOSTUNREACH");
    const byOutcome = reasons.byOutcome();
    expect(topReasons(byOutcome.network_error ?? [])).toBe(
      "90 DNS: host not found (ENOTFOUND), 30 connection refused (ECONNREFUSED), 10 connection reset (ECONNRESET), 5 other",
    );
    const summary: SweepSummary = {
      endpoints: 140,
      probed: 140,
      outcomes: { network_error: 135, challenge: 5 },
      reasons: byOutcome,
      skipped: 0,
      aborted: false,
      durationMs: 2100,
    };
    expect(sweepSummaryLine(summary)).toBe(
      "probe sweep finished in 2.1 s: 140 of 140 endpoints probed (135 network_error: 90 DNS: host not found (ENOTFOUND), " +
        "30 connection refused (ECONNREFUSED), 10 connection reset (ECONNRESET), 5 other; 5 challenge)",
    );
  });
});
