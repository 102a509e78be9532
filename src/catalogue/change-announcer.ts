import type { Logger } from "../logging/logger";

/**
 * Announces a steady writer's catalogue changes to API processes at most once per interval: a
 * probe sweep records hundreds of probes a second, and each announcement makes every API process
 * look for what changed. The last change of a burst is always announced, at most one interval
 * late.
 */
export class ChangeAnnouncer {
  private timer: NodeJS.Timeout | null = null;
  private pending = false;

  constructor(
    private readonly announce: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  /** A change committed. */
  changed(): void {
    if (this.timer !== null) {
      this.pending = true;
      return;
    }
    void this.send();
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.pending) {
        this.pending = false;
        this.changed();
      }
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Announces a change still waiting for its turn now (before the writer stops). */
  async flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending) return;
    this.pending = false;
    await this.send();
  }

  private async send(): Promise<void> {
    await this.announce().catch((err: unknown) =>
      // API processes still find the change at their periodic check.
      this.logger.warn({ err }, "announcing a catalogue change failed"),
    );
  }
}
