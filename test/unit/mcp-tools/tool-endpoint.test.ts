import { describe, expect, it } from "vitest";
import { unpaidCallArguments } from "../../../src/mcp-tools/tool-arguments";
import { mcpToolUrl, readMcpToolUrl, transportOf } from "../../../src/mcp-tools/tool-url";

describe("an MCP tool's endpoint URL", () => {
  it("when made and read back, then it gives the server URL and the tool, whatever its characters", () => {
    for (const tool of ["financial_analysis", "get-weather.v2", "name with spaces/and#hash"]) {
      const url = mcpToolUrl("https://api.example.com/mcp?key=1#old", tool);
      expect(readMcpToolUrl(url)).toEqual({ serverUrl: "https://api.example.com/mcp?key=1", tool });
    }
  });

  it("when a URL has no fragment, then it names no tool", () => {
    expect(readMcpToolUrl("https://api.example.com/mcp")).toBeNull();
    expect(readMcpToolUrl("not a url")).toBeNull();
  });

  it("the method decides the transport", () => {
    expect(transportOf("MCP")).toBe("mcp");
    expect(transportOf("POST")).toBe("http");
  });
});

describe("unpaidCallArguments: what an unpaid tools/call sends", () => {
  it("when the schema requires properties, then each gets the plainest value its schema allows", () => {
    const schema = {
      type: "object",
      properties: {
        ticker: { type: "string" },
        depth: { type: "string", enum: ["quick", "deep"] },
        days: { type: "integer", minimum: 1 },
        units: { type: "string", default: "metric" },
        live: { type: "boolean" },
        place: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        either: { anyOf: [{ type: "number" }, { type: "string" }] },
        optional: { type: "string" },
      },
      required: ["ticker", "depth", "days", "units", "live", "place", "either"],
    };
    expect(unpaidCallArguments(schema)).toEqual({
      ticker: "",
      depth: "quick",
      days: 1,
      units: "metric",
      live: false,
      place: { city: "" },
      either: 0,
    });
  });

  it("when nothing is required or there is no schema, then no arguments", () => {
    expect(unpaidCallArguments({ type: "object", properties: { q: { type: "string" } } })).toEqual({});
    expect(unpaidCallArguments(undefined)).toEqual({});
  });
});
