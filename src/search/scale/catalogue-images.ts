import type { ReadPool } from "../../db/read-pool";
import type { Logger } from "../../logging/logger";
import type { Catalogue } from "../load/catalogue";
import { readCatalogueImage, writeCatalogueImage } from "./catalogue-image";
import { IMAGE_CHECK_MS, IMAGES_WRITTEN_FROM } from "./thresholds";

export interface CatalogueImagesOptions {
  pool: ReadPool;
  logger: Logger;
  /** Fires when the process shuts down: an image write under way stops. */
  stopping?: AbortSignal;
  /** From how many endpoints a catalogue is stored (IMAGES_WRITTEN_FROM unless given). */
  writeFrom?: number;
}

/**
 * Catalogue images as the catalogue's keeper uses them (the format is catalogue-image.ts): the
 * first load reads the newest usable one, and a catalogue of at least `writeFrom` endpoints is
 * stored after a load (and at most every IMAGE_CHECK_MS after changes in place) when the newest
 * image is out of date. Writes run one at a time in the background; a failure is only logged.
 */
export class CatalogueImages {
  /** The image being written, if any: nothing changes the catalogue in place meanwhile. */
  private writing: Promise<void> = Promise.resolve();
  private checkedAt = 0;
  /** The newest image failed to read: the next write replaces it. */
  private unreadable = false;
  private readonly writeFrom: number;

  constructor(private readonly options: CatalogueImagesOptions) {
    this.writeFrom = options.writeFrom ?? IMAGES_WRITTEN_FROM;
  }

  /** The newest usable image's catalogue; null when there is none or it cannot be read (then the database). */
  async read(): Promise<Catalogue | null> {
    try {
      return await readCatalogueImage(this.options.pool);
    } catch (error) {
      this.options.logger.warn(
        { err: error },
        "reading the catalogue image failed; loading from the database",
      );
      this.unreadable = true;
      return null;
    }
  }

  /** Resolves when no image is being written (a change in place waits for it). */
  idle(): Promise<void> {
    return this.writing;
  }

  /** The catalogue was changed in place: stored again if the last check is IMAGE_CHECK_MS old. */
  changedInPlace(catalogue: Catalogue): void {
    if (Date.now() - this.checkedAt >= IMAGE_CHECK_MS) this.write(catalogue);
  }

  /** Stores an image of the catalogue in the background (see writeCatalogueImage). */
  write(catalogue: Catalogue): void {
    const { pool, logger, stopping } = this.options;
    if (catalogue.endpoints.size < this.writeFrom) return;
    this.checkedAt = Date.now();
    this.writing = this.writing.then(async () => {
      const started = performance.now();
      try {
        const written = await writeCatalogueImage(pool, catalogue, {
          signal: stopping,
          replaceNewest: this.unreadable,
        });
        if (written) this.unreadable = false;
        const ms = Math.round(performance.now() - started);
        if (written) logger.info({ ms }, "catalogue image written");
        else
          logger.debug(
            { ms },
            "catalogue image not written: another process writes one, or the newest is current",
          );
      } catch (error) {
        if (stopping?.aborted !== true) logger.warn({ err: error }, "writing the catalogue image failed");
      }
    });
  }
}
