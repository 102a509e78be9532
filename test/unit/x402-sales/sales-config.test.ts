import { describe, expect, it } from "vitest";
import { type ConfigError, loadConfig } from "../../../src/config/config";
import { priceUnits } from "../../../src/x402-sales/payment-options";
import { salesSettingsFromConfig } from "../../../src/x402-sales/settings";
import { soldRoute } from "../../../src/x402-sales/sold-routes";

const PAY_TO = "0x000000000000000000000000000000000000c0de";

describe("selling settings", () => {
  it("when X402_PAY_TO is unset, then nothing is sold", () => {
    expect(salesSettingsFromConfig(loadConfig({}))).toBeUndefined();
  });

  it("when prices name some groups, then the others keep their defaults, as exact decimal text", () => {
    const settings = salesSettingsFromConfig(
      loadConfig({
        X402_PAY_TO: `eip155:8453=${PAY_TO}`,
        X402_PRICES: "detail=0.005",
        X402_PAID_ROUTES: "detail",
      }),
    );
    expect(Object.fromEntries(settings?.prices ?? [])).toEqual({
      search: "0.001",
      detail: "0.005",
      preflight: "0.002",
      csv: "0.01",
    });
    expect([...(settings?.paidGroups ?? [])]).toEqual(["detail"]);
  });

  it("when a setting is malformed, then every problem is named at once", () => {
    const problems = (() => {
      try {
        loadConfig({
          X402_PAY_TO: "base=0x12",
          X402_PRICES: "search=0.0000001",
          X402_PAID_ROUTES: "everything",
        });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    })();
    expect(problems).toEqual([
      expect.stringMatching(/^X402_PAY_TO=.*eip155:8453=0xYourAddress: base=0x12/),
      expect.stringMatching(/^X402_PRICES=.*search=0\.0000001/),
      expect.stringMatching(/^X402_PAID_ROUTES=/),
    ]);
  });
});

describe("sold routes", () => {
  it.each([
    ["GET", "/v1/services", "search"],
    ["GET", "/v1/endpoints", "search"],
    ["GET", "/v1/services/abc", "detail"],
    ["GET", "/v1/services/abc/history", "detail"],
    ["GET", "/v1/services/abc/history/daily", "detail"],
    ["POST", "/mcp", "search"],
    ["POST", "/v1/preflight", "preflight"],
    ["GET", "/v1/services.csv", "csv"],
    ["GET", "/v1/history.csv", "csv"],
  ])("when %s %s is requested, then it is sold in group %s", (method, path, group) => {
    expect(soldRoute(method, path)?.group).toBe(group);
  });

  it.each([
    ["GET", "/v1/categories"],
    ["HEAD", "/v1/services.csv"],
    ["GET", "/v1/services/"],
    ["POST", "/v1/services"],
    ["GET", "/mcp"],
    ["HEAD", "/v1/services"],
  ])("when %s %s is requested, then it is not sold", (method, path) => {
    expect(soldRoute(method, path)).toBeUndefined();
  });
});

describe("CSV export prices", () => {
  it.each([
    [0, 1],
    [1, 1],
    [1000, 1],
    [1001, 2],
    [2500, 3],
  ])("when an export asks for %i rows, then it costs %i times the price of 1,000", (rows, units) => {
    expect(priceUnits(rows)).toBe(units);
  });
});
