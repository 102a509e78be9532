/**
 * Why probes failed, grouped so a summary can say "135 network_error (90 DNS: host not found,
 * 45 timed out)" instead of a bare count. A probe's error names hosts and addresses; the group is
 * the error's code (ENOTFOUND, ECONNREFUSED, a TLS certificate code) or its message with numbers
 * and hosts left out.
 */
const CODE_NAMES: Record<string, string> = {
  ENOTFOUND: "DNS: host not found",
  EAI_AGAIN: "DNS: lookup failed for now",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ETIMEDOUT: "connect timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EPIPE: "connection closed while sending",
};

const CODE = /\b(E[A-Z_]{3,}|ERR_[A-Z0-9_]+|[A-Z_]*CERT[A-Z_]*|UNABLE_TO_[A-Z_]+)\b/;

/** The group a probe's error belongs to, worded for a person. */
export function failureReason(error: string | null): string {
  if (error === null || error.trim() === "") return "no reason recorded";
  const code = CODE.exec(error)?.[1];
  if (code) return CODE_NAMES[code] ? `${CODE_NAMES[code]} (${code})` : code;
  if (error.startsWith("no complete answer within")) return "timed out (no complete answer)";
  if (/^HTTP \d{3}$/.test(error)) return error;
  return error
    .replace(/\bhttps?:\/\/\S+/g, "<url>")
    .replace(/\d+(\.\d+)*/g, "N")
    .slice(0, 80);
}

export interface ReasonCount {
  reason: string;
  count: number;
}

/** Counts per reason, most frequent first (ties by reason), for each failing outcome. */
export class FailureReasons {
  private readonly counts = new Map<string, Map<string, number>>();

  add(outcome: string, error: string | null): void {
    const reasons = this.counts.get(outcome) ?? new Map<string, number>();
    const reason = failureReason(error);
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    this.counts.set(outcome, reasons);
  }

  byOutcome(): Record<string, ReasonCount[]> {
    return Object.fromEntries(
      [...this.counts].map(([outcome, reasons]) => [
        outcome,
        [...reasons]
          .map(([reason, count]) => ({ reason, count }))
          .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
      ]),
    );
  }
}

/** "90 DNS: host not found (ENOTFOUND), 45 timed out (no complete answer), 3 other". */
export function topReasons(reasons: readonly ReasonCount[], top = 3): string {
  const shown = reasons.slice(0, top).map(({ reason, count }) => `${count} ${reason}`);
  const rest = reasons.slice(top).reduce((sum, { count }) => sum + count, 0);
  return [...shown, ...(rest > 0 ? [`${rest} other`] : [])].join(", ");
}
