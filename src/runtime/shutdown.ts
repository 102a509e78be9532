import type { Logger } from "../logging/logger";

type Closer = { name: string; close: () => Promise<void> };

/** The signals that ask a process to stop: Ctrl-C, a supervisor, a closed terminal. */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * How long after the first stop signal another one is the same request. A Ctrl-C in the
 * terminal reaches npm and node at once, and npm forwards it to node again a few milliseconds
 * later: that pair is one request to stop, not an operator insisting.
 */
export const REPEATED_SIGNAL_WINDOW_MS = 1_000;

/**
 * Runs registered closers in reverse order of registration, once, on a stop signal, when the
 * input of a stdio server ends, or when asked. Signals within REPEATED_SIGNAL_WINDOW_MS of the
 * first are one request; a signal after that, while closing, forces exit 1, so an operator is
 * never stuck.
 */
export class Shutdown {
  private readonly closers: Closer[] = [];
  private closing: Promise<void> | null = null;
  private stopping = false;
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();

  constructor(private readonly logger: Logger) {
    this.signal = this.controller.signal;
  }

  register(name: string, close: () => Promise<void>): void {
    this.closers.push({ name, close });
  }

  /**
   * On SIGINT/SIGTERM/SIGHUP: `onStop` (by default close everything, then exit 0 unless a
   * closer failed). A command that winds its work down itself (a crawl) passes `abort`.
   */
  listenForSignals(onStop: () => void = () => this.stop()): void {
    let firstAt: number | null = null;
    for (const signal of STOP_SIGNALS) {
      process.on(signal, () => {
        if (firstAt === null) {
          firstAt = Date.now();
          this.logger.info({ signal }, `${signal}: shutting down`);
          onStop();
        } else if (Date.now() - firstAt < REPEATED_SIGNAL_WINDOW_MS) {
          this.logger.debug({ signal }, `${signal} again: already shutting down`);
        } else {
          this.logger.warn({ signal }, "second signal: exiting now");
          process.exit(1);
        }
      });
    }
  }

  /** Closes everything, then exits (0 unless a closer failed or an exit code was set). */
  stop(): void {
    if (this.stopping) return;
    this.stopping = true;
    void this.close().then(() => process.exit(process.exitCode ?? 0));
  }

  /** Something this process cannot work without is gone: close what is left and exit 1. */
  fail(reason: string): void {
    this.logger.error(reason);
    process.exitCode = 1;
    void this.close().then(() => process.exit(1));
  }

  /** Asks running work to stop (the signal fires) without running the closers yet. */
  abort(): void {
    this.controller.abort();
  }

  /**
   * Runs the closers once. A closer may call back here (an MCP transport's onclose fires while
   * the server closes it): `closing` is set before any closer runs, so such a call gets the
   * same promise instead of starting the closers again.
   */
  close(): Promise<void> {
    this.closing ??= Promise.resolve().then(() => this.runClosers());
    return this.closing;
  }

  private async runClosers(): Promise<void> {
    this.controller.abort();
    for (const closer of [...this.closers].reverse()) {
      try {
        await closer.close();
      } catch (error) {
        process.exitCode = 1;
        this.logger.error({ err: error, closer: closer.name }, "error while shutting down");
      }
    }
  }
}

export const DATABASE_LOST =
  "the embedded postgres this process used has stopped (another process or an operator stopped it); " +
  "exiting with code 1 so a supervisor can restart it";
