import pino from "pino";

export type Logger = pino.Logger;

/** JSON lines for machines; pretty output when a person watches a terminal. */
export function createLogger(level: string, pretty = process.stdout.isTTY === true): Logger {
  return pino({
    level,
    base: { service: "x402-catalogue" },
    ...(pretty ? { transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l" } } } : {}),
  });
}

/**
 * JSON lines on stderr: for `npm run mcp`, whose stdout carries the MCP protocol and must hold
 * nothing else.
 */
export function createStderrLogger(level: string): Logger {
  return pino({ level, base: { service: "x402-catalogue" } }, pino.destination(2));
}
