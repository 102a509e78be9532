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

  it("when a setting is rendered, then its default and allowed values come from its schema", () => {
    const rendered = renderConfigurationDoc();
    expect(rendered).toContain(
      "| `PORT` | `3000` | a whole number from 0 to 65535 | Port of the HTTP API. |",
    );
    expect(rendered).toContain(
      "| `LOG_LEVEL` | `info` | one of fatal, error, warn, info, debug, trace, silent |",
    );
    expect(rendered).toContain(
      "| `PROBE_ENABLED` | `true` | true or false (also 1/0, yes/no, on/off, in any case) |",
    );
    expect(rendered).toMatch(/\| `DATABASE_URL` \| unset \| a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(rendered).toMatch(/\| `PROBE_ALLOWED_NETWORKS` \| empty \| comma-separated CIDR ranges/);
    expect(rendered).toMatch(/\| `CRAWL_SCHEDULE` \| `0 \* \* \* \*` \| a five-field cron expression/);
  });

  it.each(Object.keys(settings))("when %s is a setting, then the file documents it", (name) => {
    expect(committed).toContain(`| \`${name}\` |`);
  });
});
