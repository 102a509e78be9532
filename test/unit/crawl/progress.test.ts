import { describe, expect, it } from "vitest";
import { describeProgress } from "../../../src/sources/html-directory/progress";

describe("describeProgress", () => {
  it("when the listing states its size, then the line says page N of M, the pages left, the rate and an ETA", () => {
    const { message, progress } = describeProgress({
      pagesDone: 600,
      pagesTotal: 2040,
      pagesFound: 700,
      listing: { read: 12, of: 40 },
      servicesStored: 580,
      elapsedMs: 150_000,
    });
    expect(message).toBe(
      "crawl progress: listing page 12 of 40, 600 of ~2040 pages, 4.0 pages/s, ETA 6m 00s; 580 services stored",
    );
    expect(progress).toEqual({
      pagesDone: 600,
      pagesTotal: 2040,
      pagesRemaining: 1440,
      pagesPerSecond: 4,
      etaSeconds: 360,
      servicesStored: 580,
    });
  });

  it("when the size is unknown, then the line says what was found so far and gives no ETA", () => {
    const { message, progress } = describeProgress({
      pagesDone: 30,
      pagesTotal: null,
      pagesFound: 75,
      listing: { read: 2, of: null },
      servicesStored: 25,
      elapsedMs: 10_000,
    });
    expect(message).toBe(
      "crawl progress: listing page 2, 30 pages done, 45 more found so far, 3.0 pages/s; 25 services stored",
    );
    expect(progress.etaSeconds).toBeNull();
  });

  it("when a long crawl has hours left, then the ETA is in hours and minutes", () => {
    const { message } = describeProgress({
      pagesDone: 100,
      pagesTotal: 10_100,
      pagesFound: 200,
      servicesStored: 90,
      elapsedMs: 100_000,
    });
    expect(message).toContain("ETA 2h 46m");
  });

  it("when more is read than the listing stated, then the totals grow to match and never fall below what is done", () => {
    const { message, progress } = describeProgress({
      pagesDone: 62,
      pagesTotal: 48,
      pagesFound: 70,
      listing: { read: 4, of: 3 },
      servicesStored: 50,
      elapsedMs: 31_000,
    });
    expect(message).toBe(
      "crawl progress: listing page 4 of 4, 62 of ~70 pages, 2.0 pages/s, ETA 4s; 50 services stored",
    );
    expect(progress).toMatchObject({ pagesDone: 62, pagesTotal: 70, pagesRemaining: 8 });
  });
});
