/** Why an export found no slot: its caller has its most at once, or this process has. */
export type ExportSlotRefusal = "caller" | "process";

export interface ExportSlot {
  /** Gives the slot back; calling it again does nothing. */
  release(): void;
}

/**
 * How many CSV exports this process streams at once, in all and per caller (an organisation's
 * environment, or a client address): each holds a database cursor, a connection and a batch of
 * rows in memory, so many at once would exhaust the pool and the heap.
 */
export class ExportSlots {
  private inFlight = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(
    readonly perCaller: number,
    readonly perProcess: number,
  ) {}

  take(caller: string): ExportSlot | ExportSlotRefusal {
    const callers = this.byCaller.get(caller) ?? 0;
    if (callers >= this.perCaller) return "caller";
    if (this.inFlight >= this.perProcess) return "process";
    this.inFlight += 1;
    this.byCaller.set(caller, callers + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        const left = (this.byCaller.get(caller) ?? 1) - 1;
        if (left > 0) this.byCaller.set(caller, left);
        else this.byCaller.delete(caller);
      },
    };
  }
}
