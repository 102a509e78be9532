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
