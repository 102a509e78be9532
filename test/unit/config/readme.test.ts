import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { settings } from "../../../src/config/config";

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const documented = new Set([...readme.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1] ?? ""));

describe("the README's configuration table", () => {
  it.each(Object.keys(settings))("when %s is a setting, then the README documents it", (name) => {
    expect(documented.has(name)).toBe(true);
  });

  it("when the README documents a variable, then it is a real setting", () => {
    expect([...documented].filter((name) => !(name in settings))).toEqual([]);
  });
});
