import { describe, expect, it } from "vitest";
import { Shutdown } from "../../../src/runtime/shutdown";
import { testLogger } from "../../support/logger";

describe("Shutdown", () => {
  it("when a closer asks to close again (a transport's onclose), then every closer runs once, without error", async () => {
    const shutdown = new Shutdown(testLogger);
    const ran: string[] = [];
    shutdown.register("pool", async () => {
      ran.push("pool");
    });
    // As the MCP server does: closing it closes its transport, whose onclose asks to shut down.
    shutdown.register("mcp server", async () => {
      ran.push("mcp server");
      void shutdown.close();
    });

    await shutdown.close();

    expect(ran).toEqual(["mcp server", "pool"]);
    expect(process.exitCode ?? 0).toBe(0);
  });
});
