import { describe, expect, it } from "vitest";
import { badgeMessage } from "../../../src/pages/badge";
import { clientSnippet, curlExample, shellQuote } from "../../../src/pages/call-snippets";
import { niceMax } from "../../../src/pages/charts";
import {
  clip,
  compareDecimals,
  decimal,
  priceRange,
  queryString,
  safeHref,
  withoutEmpty,
} from "../../../src/pages/format";

describe("the pages' formatting", () => {
  it.each([
    ["https://api.test/x?a=1", "https://api.test/x?a=1"],
    ["http://api.test/", "http://api.test/"],
    ["javascript:alert(1)", undefined],
    ["JaVaScRiPt:alert(1)", undefined],
    [" javascript:alert(1)", undefined],
    ["data:text/html,<script>1</script>", undefined],
    ["//evil.test/x", undefined],
    ["not a url", undefined],
    [null, undefined],
  ])("when a crawled URL is %s, then its link target is %s", (url, href) => {
    expect(safeHref(url)).toBe(href);
  });

  it("when text is longer than the limit, then it is cut on a code point with an ellipsis", () => {
    expect(clip("N".repeat(5_000), 80)).toHaveLength(80);
    expect(clip("😀😀😀", 2)).toBe("😀…");
    expect(clip("short", 80)).toBe("short");
  });

  it("when decimals are compared and shown, then no float is involved", () => {
    expect(decimal("12300.000000")).toBe("12300");
    expect(decimal("0.010000")).toBe("0.01");
    expect(compareDecimals("0.1", "0.09")).toBeGreaterThan(0);
    expect(compareDecimals("10", "9.99")).toBeGreaterThan(0);
    expect(compareDecimals("0.10", "0.1")).toBe(0);
    expect(priceRange(["0.05", null, "0.01"])).toBe("0.01 – 0.05 USDC");
    expect(priceRange(["0.01", "0.010"])).toBe("0.01 USDC");
    expect(priceRange([null])).toBe("–");
  });

  it("when a form is submitted with empty fields, then they leave the query and the links", () => {
    expect(withoutEmpty({ q: "", category: "Finance", tag: ["", "a"], limit: "" })).toEqual({
      category: "Finance",
      tag: "a",
    });
    expect(queryString({ q: "a b", category: "" }, { offset: "50" })).toBe("?q=a+b&offset=50");
    expect(queryString({})).toBe("");
  });

  it("when a URL holds a quote, then the curl example keeps it one shell word", () => {
    expect(shellQuote("https://x.test/a'b")).toBe(`'https://x.test/a'\\''b'`);
    expect(
      curlExample({ method: "POST", url: "https://x.test/", call: { input: { body: { city: "Paris" } } } }),
    ).toBe(
      `curl -i -X POST 'https://x.test/' \\\n  -H 'Content-Type: application/json' \\\n  --data '{"city":"Paris"}'`,
    );
  });

  it("when the endpoint is an MCP tool, then the snippets call tools/call at its server, not an HTTP method", () => {
    const tool = { method: "MCP", url: "https://api.test/mcp#financial_analysis", call: null };
    expect(curlExample(tool)).toBe(
      `curl -i -X POST 'https://api.test/mcp' \\\n  -H 'Content-Type: application/json' \\\n` +
        `  -H 'Accept: application/json, text/event-stream' \\\n` +
        `  --data '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"financial_analysis","arguments":{}}}'`,
    );
    const snippet = clientSnippet(tool);
    expect(snippet).toContain('new StreamableHTTPClientTransport(new URL("https://api.test/mcp"))');
    expect(snippet).toContain('client.callTool({ name: "financial_analysis", arguments: {} })');
  });

  it("when the badge has health, grade and uptime, then it says all three; without health it says whether our probe verified it", () => {
    expect(badgeMessage({ health: "healthy", grade: "A", verified: true, uptimePct: 99.9 })).toBe(
      "healthy · grade A · 99.9% up",
    );
    expect(badgeMessage({ health: null, grade: null, verified: false, uptimePct: null })).toBe("unverified");
  });

  it.each([
    [0, 1],
    [0.3, 0.5],
    [99.5, 100],
    [1250.5, 2000],
    [7, 10],
  ])("when the largest value is %s, then the axis ends at %s", (max, top) => {
    expect(niceMax(max)).toBeCloseTo(top);
  });
});
