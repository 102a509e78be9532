import pino from "pino";
import { redactSecrets, safeError } from "./safe-error";

export type Logger = pino.Logger;

/** Keys whose values never reach a log line, wherever they appear in the first levels of an object. */
const SECRET_KEYS = [
  "password",
  "secretKey",
  "connectionString",
  "databaseUrl",
  "DATABASE_URL",
  "credential",
];

/**
 * JSON lines for machines; pretty output when a person watches a terminal. Errors are logged as
 * type + message + code + short cause (stacks only at debug and trace), and credentials are
 * removed from messages and known keys.
 */
export function createLogger(
  level: string,
  pretty = process.stdout.isTTY === true,
  destination?: pino.DestinationStream,
  /** Where pretty output goes: stdout (1), or stderr (2) for a command whose stdout is its result. */
  prettyTo: 1 | 2 = 1,
): Logger {
  const withStack = level === "debug" || level === "trace";
  const paths = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);
  const options: pino.LoggerOptions = {
    level,
    base: { service: "x402-catalogue" },
    serializers: {
      err: (error: unknown) => safeError(error, withStack),
      error: (error: unknown) => safeError(error, withStack),
    },
    redact: { paths, censor: "***" },
    hooks: {
      logMethod(args, method) {
        // The message itself (the last string argument) may quote a URL with credentials.
        const last = args.length - 1;
        if (typeof args[last] === "string") args[last] = redactSecrets(args[last] as string);
        method.apply(this, args);
      },
    },
    // On a terminal one event is one line: context a person does not need there (ids, the
    // progress numbers already in the message) stays in the JSON form only.
    ...(pretty
      ? {
          transport: {
            target: "pino-pretty",
            options: {
              destination: prettyTo,
              translateTime: "SYS:HH:MM:ss.l",
              ignore: "pid,hostname,service,component,crawlRun,progress",
            },
          },
        }
      : {}),
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/**
 * Logs on stderr (pretty on a terminal, JSON lines otherwise): for commands whose stdout carries
 * their result (`npm run keys`, `npm run probe`) or a protocol (`npm run mcp`) and nothing else.
 */
export function createStderrLogger(level: string): Logger {
  return process.stderr.isTTY === true
    ? createLogger(level, true, undefined, 2)
    : createLogger(level, false, pino.destination(2));
}
