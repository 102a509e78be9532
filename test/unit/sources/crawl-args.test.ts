import { describe, expect, it } from "vitest";
import { parseCrawlArgs } from "../../../src/sources/crawl-args";

const UNSET = { SOURCES: undefined, DIRECTORY_URL: undefined };

describe("npm run crawl arguments", () => {
  it("when a feed URL is given, then its kind is read from the path", () => {
    expect(parseCrawlArgs(["https://f.example/v2/x402/discovery/resources"], UNSET)).toEqual({
      sources: [{ kind: "bazaar", url: "https://f.example/v2/x402/discovery/resources" }],
    });
  });

  it("when a directory URL is given, then it is crawled as an HTML directory", () => {
    expect(parseCrawlArgs(["https://dir.example/services"], UNSET)).toEqual({
      sources: [{ kind: "html_directory", url: "https://dir.example/services" }],
    });
  });

  it.each([[["--kind", "bazaar", "https://f.example/feed"]], [["https://f.example/feed", "--kind=bazaar"]]])(
    "when --kind is given (%j), then it wins over the path",
    (argv) => {
      expect(parseCrawlArgs(argv, UNSET)).toEqual({
        sources: [{ kind: "bazaar", url: "https://f.example/feed" }],
      });
    },
  );

  it("when no URL is given, then the configured sources are crawled", () => {
    expect(parseCrawlArgs([], { SOURCES: undefined, DIRECTORY_URL: "https://dir.example/" })).toEqual({
      sources: [{ kind: "html_directory", url: "https://dir.example/" }],
    });
  });

  it.each([
    [["--kind", "rss", "https://f.example/"], /--kind must be bazaar, html_directory or origin_manifest/],
    [["ftp://f.example/"], /not an http\(s\) URL/],
    [["https://a.example/", "https://b.example/"], /one URL at most/],
    [["--kind", "bazaar"], /--kind needs a URL/],
    [["--deep", "https://a.example/"], /deep/],
  ])("when the arguments are %j, then an error explains why", (argv, message) => {
    expect(parseCrawlArgs(argv, UNSET)).toEqual({ error: expect.stringMatching(message) });
  });

  it("when --kind origin_manifest is given alone, then the configured manifest source is read with its origins", () => {
    const SOURCES = [
      { kind: "bazaar" as const, url: "https://f.example/discovery/resources" },
      { kind: "origin_manifest" as const, origins: ["https://a.example"] },
    ];
    expect(parseCrawlArgs(["--kind", "origin_manifest"], { SOURCES, DIRECTORY_URL: undefined })).toEqual({
      sources: [{ kind: "origin_manifest", origins: ["https://a.example"] }],
    });
    expect(parseCrawlArgs(["--kind", "origin_manifest"], UNSET)).toEqual({
      sources: [{ kind: "origin_manifest", origins: [] }],
    });
  });

  it("when --kind origin_manifest is given with a URL, then its origin is read in this run beside the configured ones", () => {
    const SOURCES = [{ kind: "origin_manifest" as const, origins: ["https://a.example"] }];
    expect(
      parseCrawlArgs(["--kind", "origin_manifest", "https://b.example/some/path"], {
        SOURCES,
        DIRECTORY_URL: undefined,
      }),
    ).toEqual({
      sources: [{ kind: "origin_manifest", origins: ["https://a.example", "https://b.example"] }],
    });
  });

  it("when SOURCES is none and no URL is given, then there is nothing to crawl", () => {
    expect(parseCrawlArgs([], { SOURCES: [], DIRECTORY_URL: undefined })).toEqual({
      error: expect.stringMatching(/nothing to crawl/),
    });
  });
});
