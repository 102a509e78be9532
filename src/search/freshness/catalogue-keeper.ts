import { changesSince } from "../../catalogue/catalogue-changes";
import type { ReadPool } from "../../db/read-pool";
import type { Logger } from "../../logging/logger";
import { type Catalogue, loadCatalogue, prepareOrders } from "../load/catalogue";
import type { ScaleParts } from "../scale/scale-parts";
import { refreshInPlace } from "./in-place-refresh";

/** What changed since a catalogue's snapshot: its shape (load it whole), or what is brought in place. */
type Change = "shape" | "in place" | null;

async function changeSince(pool: ReadPool, snapshot: string): Promise<Change> {
  const { shape, seen, probes } = await changesSince(pool, snapshot);
  if (shape) return "shape";
  return seen || probes ? "in place" : null;
}

/** A newer catalogue in place: loaded whole (from the database or an image) or refreshed in place. */
export interface CatalogueLoad {
  way: "database" | "image" | "in place";
  services: number;
  endpoints: number;
  ms: number;
}

export interface CatalogueKeeperOptions {
  pool: ReadPool;
  logger: Logger;
  /**
   * How often to ask the database whether the catalogue changed. 0: before every request, which
   * then waits for a changed catalogue to load (tests, and anyone who needs read-your-writes).
   * Otherwise the check runs at most this often and a changed catalogue loads in the background
   * while the previous catalogue keeps answering.
   */
  refreshMs: number;
  /** Called after each newer catalogue is in place (the response cache drops answers of the old one). */
  onLoaded?: (load: CatalogueLoad) => void;
  /**
   * Fires when the process shuts down: a load under way stops at its next batch (and its worker
   * threads end), so its connections go back to the pool, which shutdown then closes.
   */
  stopping?: AbortSignal;
  /** The machinery of very large catalogues (build workers, orders computed in slices, images); none: all here. */
  scale?: ScaleParts;
}

const sizeOf = (catalogue: Catalogue) => ({
  services: catalogue.services.size,
  endpoints: catalogue.endpoints.size,
});

/**
 * Keeps the in-memory catalogue current. Loading is single-flight: concurrent requests share
 * one load. A failed background reload is logged and the previous catalogue keeps answering.
 */
export class CatalogueKeeper {
  private loaded: Catalogue | null = null;
  private checkedAt = 0;
  private loading: Promise<Catalogue> | null = null;
  private checking: Promise<void> | null = null;
  /**
   * A writer announced a change while a check or an update was under way, which may have read
   * the database before that change committed: check again once it has ended.
   */
  private checkAgain = false;

  constructor(private readonly options: CatalogueKeeperOptions) {}

  async current(): Promise<Catalogue> {
    let catalogue = this.loaded ?? (await this.load());
    if (this.options.refreshMs === 0) {
      // A load under way may have started before the caller's write: check again after it.
      for (let change = await changeSince(this.options.pool, catalogue.snapshot); change !== null; ) {
        catalogue = await this.update(change);
        change = await changeSince(this.options.pool, catalogue.snapshot);
      }
      return catalogue;
    }
    if (Date.now() - this.checkedAt >= this.options.refreshMs) await this.checkInBackground();
    return this.loaded ?? catalogue;
  }

  /**
   * Checks now, whatever the interval, and reloads in the background if the catalogue changed: a
   * writer announced a change (see catalogue-changes.ts). Before the first load there is nothing
   * to refresh: the first request loads the current catalogue.
   */
  refreshNow(): void {
    if (this.loaded === null || this.options.refreshMs === 0) return;
    if (this.checking !== null || this.loading !== null) this.checkAgain = true;
    void this.checkInBackground().catch((error: unknown) => {
      // Stopping closes the pool under a check: nothing failed.
      if (this.options.stopping?.aborted === true) return;
      this.options.logger.warn({ err: error }, "checking for a newer catalogue failed");
    });
  }

  private checkInBackground(): Promise<void> {
    this.checking ??= (async () => {
      try {
        const catalogue = this.loaded;
        const change = catalogue === null ? null : await changeSince(this.options.pool, catalogue.snapshot);
        this.checkedAt = Date.now();
        if (change !== null) {
          this.update(change).catch((error: unknown) => {
            // Stopping ends a reload under way on purpose: nothing failed.
            if (this.options.stopping?.aborted === true) return;
            this.options.logger.error(
              { err: error },
              "reloading the catalogue index failed; the previous one keeps answering",
            );
          });
        }
      } finally {
        this.checking = null;
        this.checkAgainIfAsked();
      }
    })();
    return this.checking;
  }

  /** A change announced during a check or an update that has just ended is looked for now. */
  private checkAgainIfAsked(): void {
    if (!this.checkAgain || this.checking !== null || this.loading !== null) return;
    this.checkAgain = false;
    setImmediate(() => this.refreshNow());
  }

  /**
   * Probe results and seen times are brought into the loaded catalogue in place; any other
   * change (or a probe result that moves an entry in an order) loads it whole. One update at a
   * time, shared.
   */
  private update(change: Exclude<Change, null>): Promise<Catalogue> {
    const current = this.loaded;
    if (change === "shape" || current === null) return this.load();
    return this.singleFlight(async () => {
      await this.options.scale?.images?.idle();
      const started = performance.now();
      try {
        if (await refreshInPlace(this.options.pool, current)) {
          this.checkedAt = Date.now();
          const ms = Math.round(performance.now() - started);
          this.options.onLoaded?.({ way: "in place", ...sizeOf(current), ms });
          this.options.logger.debug({ ms }, "catalogue index refreshed in place");
          // Orders the update dropped (probes moved prices) are computed before a request needs them.
          await prepareOrders(current, this.options.scale?.runAhead);
          this.options.scale?.images?.changedInPlace(current);
          return current;
        }
      } finally {
        this.loading = null;
      }
      return this.load();
    });
  }

  private load(): Promise<Catalogue> {
    return this.singleFlight(async () => {
      const started = performance.now();
      try {
        const imaged = this.loaded === null ? ((await this.options.scale?.images?.read()) ?? null) : null;
        const catalogue =
          imaged ??
          (await loadCatalogue(this.options.pool, {
            signal: this.options.stopping,
            onePartAtATime: this.loaded !== null,
            startParts: this.options.scale?.startParts,
          }));
        await prepareOrders(catalogue, this.options.scale?.runAhead);
        this.loaded = catalogue;
        this.checkedAt = Date.now();
        const load: CatalogueLoad = {
          way: imaged === null ? "database" : "image",
          ...sizeOf(catalogue),
          ms: Math.round(performance.now() - started),
        };
        this.options.onLoaded?.(load);
        this.options.logger.info(
          { services: load.services, endpoints: load.endpoints, ms: load.ms, from: load.way },
          "catalogue index loaded",
        );
        if (imaged === null) this.options.scale?.images?.write(catalogue);
        // What changed since the image was taken is caught up at once, once this load has ended.
        else setImmediate(() => this.refreshNow());
        return catalogue;
      } finally {
        this.loading = null;
      }
    });
  }

  /** The update under way, or `work` started as the one (it clears `loading` when it ends). */
  private singleFlight(work: () => Promise<Catalogue>): Promise<Catalogue> {
    if (this.loading !== null) return this.loading;
    const loading = work();
    this.loading = loading;
    loading.finally(() => this.checkAgainIfAsked()).catch(() => undefined);
    return loading;
  }
}
