import { type Config, ConfigError, loadConfig } from "../config/config";
import { createLogger, createStderrLogger, type Logger } from "../logging/logger";
import { redactSecrets } from "../logging/safe-error";

export interface CliContext {
  config: Config;
  logger: Logger;
}

/**
 * Runs a command-line entry point so that every way out says why: a configuration error prints
 * the `Invalid configuration:` list; a failure, an uncaught error or an unhandled rejection is
 * logged (message, code, short cause) before exiting 1; and the last line names the exit code.
 * `main` returns the exit code, or nothing for a process that keeps running until a signal.
 */
export async function runCli(
  name: string,
  main: (context: CliContext) => Promise<number | undefined>,
  /** stderr: for a process whose stdout carries a protocol (the MCP stdio server). */
  logTo: "stdout" | "stderr" = "stdout",
): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    process.exitCode = 1;
    console.error(error instanceof ConfigError ? error.message : redactSecrets(String(error)));
    return;
  }
  const logger = logTo === "stderr" ? createStderrLogger(config.LOG_LEVEL) : createLogger(config.LOG_LEVEL);
  process.once("exit", (code) => {
    if (code === 0) logger.info({ exitCode: code }, `${name} exited`);
    else logger.warn({ exitCode: code }, `${name} exited with code ${code}`);
  });
  const fatal = (what: string) => (error: unknown) => {
    logger.fatal({ err: error }, `${name}: ${what}; exiting`);
    process.exit(1);
  };
  process.on("uncaughtException", fatal("uncaught error"));
  process.on("unhandledRejection", fatal("unhandled promise rejection"));
  try {
    const code = await main({ config, logger });
    if (code !== undefined) process.exitCode = code;
  } catch (error) {
    process.exitCode = 1;
    logger.fatal({ err: error }, `${name} failed`);
  }
}
