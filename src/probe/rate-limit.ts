/**
 * Per-host politeness inside one process: requests to a host are spaced at least
 * 60 000 / perMinute ms apart (no bursts). The limit is per process; across processes, sweeps
 * already stagger each host's jobs at the same rate (see schedule.ts), so N workers do not
 * multiply it in practice.
 */
export class HostRateLimiter {
  private readonly spacingMs: number;
  /** Earliest time the next request to each host may start. */
  private readonly nextSlot = new Map<string, number>();

  constructor(perMinute: number) {
    this.spacingMs = 60_000 / perMinute;
  }

  /** Resolves when this host's turn has come; rejects when `signal` aborts first. */
  async acquire(host: string, signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot.get(host) ?? 0);
    this.nextSlot.set(host, slot + this.spacingMs);
    this.forgetIdleHosts(now);
    if (slot > now) await sleep(slot - now, signal);
  }

  /** Hosts whose slot has passed carry no state worth keeping; keeps the map bounded. */
  private forgetIdleHosts(now: number): void {
    if (this.nextSlot.size < 10_000) return;
    for (const [host, slot] of this.nextSlot) if (slot <= now) this.nextSlot.delete(host);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
