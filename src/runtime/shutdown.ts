import type { Logger } from "../logging/logger";

type Closer = { name: string; close: () => Promise<void> };

/**
 * Runs registered closers in reverse order of registration on SIGINT/SIGTERM (or when asked),
 * once. A second signal while closing forces exit, so an operator is never stuck.
 */
export class Shutdown {
  private readonly closers: Closer[] = [];
  private closing: Promise<void> | null = null;
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();

  constructor(private readonly logger: Logger) {
    this.signal = this.controller.signal;
  }

  register(name: string, close: () => Promise<void>): void {
    this.closers.push({ name, close });
  }

  /** On SIGINT/SIGTERM: close everything, then exit (0 unless a closer failed). */
  listenForSignals(): void {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.on(signal, () => {
        if (this.closing) {
          this.logger.warn({ signal }, "second signal: exiting now");
          process.exit(1);
        }
        this.logger.info({ signal }, `${signal}: shutting down`);
        void this.close().then(() => process.exit(process.exitCode ?? 0));
      });
    }
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

  close(): Promise<void> {
    this.closing ??= this.runClosers();
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
