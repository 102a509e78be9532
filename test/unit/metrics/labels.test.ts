import { describe, expect, it } from "vitest";
import { sourceLabel, statusLabel } from "../../../src/metrics/labels";

describe("sourceLabel", () => {
  it.each([
    ["https://directory.example/services?page=1", "directory.example"],
    ["https://user:secret@feed.example:8443/discovery/resources?api_key=k", "feed.example:8443"],
    ["http://127.0.0.1:4010/", "127.0.0.1:4010"],
    ["not a url", "unknown"],
  ])("when a source's base URL is %s, then its label is %s", (url, label) => {
    expect(sourceLabel("html_directory", url)).toBe(label);
  });

  it("when the source is the origin manifests, then its label is origins", () => {
    expect(sourceLabel("origin_manifest", "/.well-known/x402")).toBe("origins");
  });
});

describe("statusLabel", () => {
  it("when the answer ended, then the label is its code; when the client left, aborted", () => {
    expect(statusLabel(200, true)).toBe("200");
    expect(statusLabel(200, false)).toBe("aborted");
  });
});
