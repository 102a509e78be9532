import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/config";
import { kindForUrl, parseSourcesSetting } from "../../../src/sources/source-spec";

function configProblem(sources: string): string {
  try {
    loadConfig({ SOURCES: sources });
  } catch (error) {
    if (error instanceof ConfigError && error.problems.length === 1) return error.problems[0]!;
    throw error;
  }
  throw new Error("expected SOURCES to be rejected");
}

describe("the SOURCES setting", () => {
  it("when it lists sources, then each comes back with its kind and URL, in order", () => {
    const config = loadConfig({
      SOURCES:
        '[{"kind":"bazaar","url":"https://feed.example/discovery/resources"},{"kind":"html_directory","url":"https://dir.example/services"}]',
    });
    expect(config.SOURCES).toEqual([
      { kind: "bazaar", url: "https://feed.example/discovery/resources" },
      { kind: "html_directory", url: "https://dir.example/services" },
    ]);
  });

  it("when it lists an origin_manifest source, then its origins are kept as origins (paths dropped, duplicates merged)", () => {
    const config = loadConfig({
      SOURCES:
        '[{"kind":"origin_manifest","origins":["https://a.example/x","https://A.example","http://b.example:8080/"]}]',
    });
    expect(config.SOURCES).toEqual([
      { kind: "origin_manifest", origins: ["https://a.example", "http://b.example:8080"] },
    ]);
    expect(loadConfig({ SOURCES: '[{"kind":"origin_manifest"}]' }).SOURCES).toEqual([
      { kind: "origin_manifest", origins: [] },
    ]);
  });

  it.each(["none", " NONE ", "[]"])("when it is %j, then no source is configured", (value) => {
    expect(loadConfig({ SOURCES: value }).SOURCES).toEqual([]);
  });

  it("when it is unset, then it stays undefined so the fallbacks apply", () => {
    expect(loadConfig({}).SOURCES).toBeUndefined();
    expect(loadConfig({ SOURCES: "" }).SOURCES).toBeUndefined();
  });

  it.each([
    ["bazaar", /SOURCES="bazaar": must be "none" or a JSON array .*not valid JSON/],
    ['{"kind":"bazaar","url":"https://f.example"}', /must be "none" or a JSON array such as/],
    [
      '[{"kind":"rss","url":"https://f.example"}]',
      /item 0: kind must be "html_directory", "bazaar" or "origin_manifest"/,
    ],
    [
      '[{"kind":"origin_manifest","url":"https://a.example"}]',
      /item 0: unknown key\(s\) url \(allowed: kind, origins\)/,
    ],
    ['[{"kind":"origin_manifest","origins":["ftp://a.example"]}]', /item 0: origins must be http\(s\) URLs/],
    [
      '[{"kind":"origin_manifest","origins":"https://a.example"}]',
      /item 0: origins must be a list of http\(s\) URLs/,
    ],
    ['[{"kind":"origin_manifest"},{"kind":"origin_manifest"}]', /item 1: only one origin_manifest source/],
    ['[{"kind":"bazaar","url":"ftp://f.example"}]', /item 0: url must be an http\(s\) URL/],
    ['[{"kind":"bazaar"}]', /item 0: url is missing/],
    ['[{"kind":"bazaar","url":"https://f.example","type":"x"}]', /item 0: unknown key\(s\) type/],
    ['[{"kind":"bazaar","url":"https://f.example"}, "https://dir.example"]', /item 1: must be an object/],
  ])("when it is %s, then the message names the variable and the problem", (value, message) => {
    expect(configProblem(value)).toMatch(message);
  });

  it("when several items are wrong, then every problem is listed", () => {
    const result = parseSourcesSetting(
      '[{"kind":"x","url":"https://a.example"},{"kind":"bazaar","url":"nope"}]',
    );
    expect(result).toEqual({ error: expect.stringMatching(/item 0: kind .*; item 1: url/) });
  });
});

describe("kindForUrl", () => {
  it.each([
    ["https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources", "bazaar"],
    ["https://facilitator.example/discovery/resources/?type=http", "bazaar"],
    ["https://dir.example/services?page=2", "html_directory"],
    ["https://dir.example/discovery/resources-guide", "html_directory"],
  ])("when the URL is %s, then it is taken as %s", (url, kind) => {
    expect(kindForUrl(url)).toBe(kind);
  });
});
