import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { settings } from "../../../src/config/config";
import { renderConfigurationDoc } from "../../../src/config/settings-doc";

const committed = readFileSync(new URL("../../../docs/configuration.md", import.meta.url), "utf8");

describe("docs/configuration.md", () => {
  it("when the settings change, then the committed file is rendered again (npm run docs)", () => {
    expect(committed, "docs/configuration.md is out of date: run `npm run docs`").toBe(
      renderConfigurationDoc(),
    );
  });

  it.each(Object.keys(settings))("when %s is a setting, then the file documents it", (name) => {
    expect(committed).toContain(`| \`${name}\` |`);
  });
});
