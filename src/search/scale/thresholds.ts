/**
 * From what size the machinery for very large catalogues engages. Below these a catalogue is
 * loaded, built and kept on the answering thread alone, which at that size takes a few seconds
 * at most; every threshold of that machinery is here.
 */

/**
 * From how many documents a part of a load (the endpoints list, the services' text index) is
 * built on a worker thread with its own connection to the same snapshot: a thread costs ~0.5 s to
 * start, so small catalogues (tests, a first directory) build in place.
 */
export const BUILD_OFF_THREAD_FROM = 20_000;

/**
 * From how many endpoints a process with CATALOGUE_IMAGES stores catalogue images: below that a
 * load from the database takes a few seconds at most.
 */
export const IMAGES_WRITTEN_FROM = 20_000;

/** How often changes in place may lead to an image being written (a check of the newest image). */
export const IMAGE_CHECK_MS = 10 * 60 * 1000;

/** Items a pass of work computed ahead (an order) walks between two turns of the event loop (~1-3 ms). */
export const ITEMS_PER_SLICE = 16_384;
