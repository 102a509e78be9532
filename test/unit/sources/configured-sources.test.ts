import { describe, expect, it } from "vitest";
import { configuredSources } from "../../../src/sources/configured-sources";
import { DEFAULT_BAZAAR_FEED_URL } from "../../../src/sources/source-spec";

const FEED = { kind: "bazaar" as const, url: "https://feed.example/discovery/resources" };

describe("configuredSources", () => {
  it("when SOURCES is set, then it is the list, and DIRECTORY_URL is not added", () => {
    expect(configuredSources({ SOURCES: [FEED], DIRECTORY_URL: "https://dir.example/" })).toEqual([FEED]);
  });

  it("when SOURCES is none, then nothing is crawled, even with DIRECTORY_URL set", () => {
    expect(configuredSources({ SOURCES: [], DIRECTORY_URL: "https://dir.example/" })).toEqual([]);
  });

  it("when only DIRECTORY_URL is set, then it is the one source, as an HTML directory", () => {
    expect(configuredSources({ SOURCES: undefined, DIRECTORY_URL: "https://dir.example/list" })).toEqual([
      { kind: "html_directory", url: "https://dir.example/list" },
    ]);
  });

  it("when neither is set, then the public CDP Bazaar feed is crawled, then every catalogued origin's manifest", () => {
    expect(configuredSources({ SOURCES: undefined, DIRECTORY_URL: undefined })).toEqual([
      { kind: "bazaar", url: "https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources" },
      { kind: "origin_manifest", origins: [] },
    ]);
    expect(DEFAULT_BAZAAR_FEED_URL).toBe("https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources");
  });
});
