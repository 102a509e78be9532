import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = new URL("../../../src/", import.meta.url).pathname;
/** The one place an Express router is made, with case-sensitive and strict routing. */
const ROUTER_FACTORY = path.join("http", "router.ts");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("routers of the HTTP API", () => {
  it("when a file makes an Express router, then it is the router factory (one canonical path form for the guard)", () => {
    const makers = sourceFiles(SRC).filter((file) => {
      const text = readFileSync(file, "utf8");
      return /from "express"/.test(text) && /(?<![\w.])(?:express\.)?Router\s*\(/.test(text);
    });
    expect(makers.map((file) => path.relative(SRC, file))).toEqual([ROUTER_FACTORY]);
  });
});
