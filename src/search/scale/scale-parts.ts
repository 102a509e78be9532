import type { ReadPool } from "../../db/read-pool";
import type { Logger } from "../../logging/logger";
import type { StartParts } from "../load/parts";
import type { PassRunner } from "../tables/page-order";
import { partsOnWorkers } from "./build-workers";
import { CatalogueImages } from "./catalogue-images";
import { runPassesInSlices } from "./event-loop-slices";

/**
 * The machinery a very large catalogue needs, given to the catalogue's keeper as one object; the
 * sizes from which each part engages are in thresholds.ts. A keeper given none loads, builds and
 * keeps its catalogue on the answering thread with the plain implementations of load/ and tables/.
 */
export interface ScaleParts {
  /** Builds a load's large parts on worker threads (from BUILD_OFF_THREAD_FROM documents). */
  startParts: StartParts;
  /** Computes sort orders ahead of requests a slice per turn of the event loop. */
  runAhead: PassRunner;
  /** Catalogue images (CATALOGUE_IMAGES): the first load reads one, loads and changes store one. */
  images?: CatalogueImages;
}

export interface ScalePartsOptions {
  pool: ReadPool;
  logger: Logger;
  stopping?: AbortSignal;
  /** Store catalogue images, from `writeFrom` endpoints; omitted: none. */
  images?: { writeFrom: number };
}

/** The scale parts of a process of the product. */
export function scaleParts({ pool, logger, stopping, images }: ScalePartsOptions): ScaleParts {
  return {
    startParts: partsOnWorkers(),
    runAhead: runPassesInSlices,
    images:
      images === undefined
        ? undefined
        : new CatalogueImages({ pool, logger, stopping, writeFrom: images.writeFrom }),
  };
}
