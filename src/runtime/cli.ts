import { ConfigError } from "../config/config";

/** Runs a command-line entry point: configuration errors print plainly, anything else with its stack. */
export async function runCli(main: () => Promise<unknown>): Promise<void> {
  try {
    const code = await main();
    process.exitCode = typeof code === "number" ? code : 0;
  } catch (error) {
    process.exitCode = 1;
    if (error instanceof ConfigError) console.error(error.message);
    else console.error(error);
  }
}
