import { ConfigError, loadConfig } from "../../src/config/config";

/** The problems loadConfig reports for one JSON setting, one per line; fails when it accepts the value. */
export function jsonSettingProblems(name: string, value: unknown): string {
  try {
    loadConfig({ [name]: JSON.stringify(value) });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join("\n");
    throw error;
  }
  throw new Error(`expected ${name} to be rejected`);
}
