import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/**
 * Files that read the event outbox's cursor (GET /v1/events). Its visibility rule uses
 * pg_snapshot_xmin, which is cluster-wide: a transaction open in any other test file's database
 * hides newer events for as long as it stays open. These files run after the others, alone.
 */
const EVENT_CURSOR_READERS = [
  "test/integration/events/events-pull.test.ts",
  "test/integration/billing/subscriptions.test.ts",
  "test/integration/billing/unapplied-transfers.test.ts",
  "test/integration/x402-sales/paid-calls.test.ts",
];

/**
 * Files that force full garbage collections to measure retained memory: in a worker that has
 * run other files (isolate: false) each collection walks their leftovers too, and the CSV
 * export test took 27-53 s instead of ~5 s. They get a fresh module graph.
 */
const HEAP_MEASURING = ["test/integration/api/csv-large.test.ts"];

function integration(
  name: string,
  include: string[],
  options: { exclude?: string[]; isolate?: boolean; alone?: boolean } = {},
): TestProjectInlineConfiguration {
  return {
    test: {
      name,
      include,
      exclude: options.exclude ?? [],
      environment: "node",
      globalSetup: ["test/support/global-setup.ts"],
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: "forks",
      // Each file has its own database and closes what it starts; sharing the module graph
      // within a worker saves re-importing the app for every file (import time 53 s -> 8 s).
      isolate: options.isolate ?? false,
      ...(options.alone ? { maxWorkers: 1, sequence: { groupOrder: 1 } } : {}),
    },
  };
}

// Pure unit tests (no database), and integration tests against one embedded Postgres started in
// global setup (shared by the integration projects), a fresh database per test file.
export default defineConfig({
  test: {
    // vitest's default on 2 cores is one worker: the suite ran file after file. Most integration
    // time is spent waiting on spawned processes, Postgres and sockets, so three overlap well.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          // Pure functions with no shared state: one module graph for all files, not one per file.
          isolate: false,
        },
      },
      integration("integration", ["test/integration/**/*.test.ts"], {
        exclude: [...EVENT_CURSOR_READERS, ...HEAP_MEASURING],
      }),
      integration("integration-heap", HEAP_MEASURING, { isolate: true }),
      integration("integration-event-cursor", EVENT_CURSOR_READERS, { alone: true }),
    ],
  },
});
