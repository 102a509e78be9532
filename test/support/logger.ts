import { createLogger } from "../../src/logging/logger";

/** Quiet logs in tests; set TEST_LOG_LEVEL=debug to watch them. */
export const testLogger = createLogger(process.env.TEST_LOG_LEVEL ?? "silent", false);
