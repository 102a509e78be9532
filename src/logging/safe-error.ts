/**
 * What an error may put in a log line: its type, message, code and a short chain of causes.
 * Never the error's other properties: a pg error carries its client (host, user, password),
 * an HTTP error its request options, and pino's default serializer would print them all.
 */
export interface SafeError {
  type: string;
  message: string;
  code?: string;
  cause?: string;
  stack?: string;
}

const MAX_CAUSES = 3;
const MAX_TEXT = 500;

// user:password@ in any URL (postgresql://, http://); password=… in libpq key/value strings.
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]+):[^@/\s]*@/gi;
const KEY_VALUE_SECRET =
  /\b(password|secret|secretKey|token|api[_-]?key)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s,;}]+)/gi;

// An origin owner's credential (src/ownership/credential.ts), wherever a message quotes one.
const OWNER_CREDENTIAL = /\bxown_[A-Za-z0-9_-]{43}/g;

// A BIP32 extended private key (xprv/tprv/yprv/zprv …) pasted where an xpub belongs.
const EXTENDED_PRIVATE_KEY = /\b([xtyzuv]prv)[1-9A-HJ-NP-Za-km-z]{100,}/g;

/** Removes credentials from free text (messages quote URLs and connection strings). */
export function redactSecrets(text: string): string {
  return text
    .replace(URL_CREDENTIALS, "$1:***@")
    .replace(KEY_VALUE_SECRET, "$1$2***")
    .replace(EXTENDED_PRIVATE_KEY, "$1***")
    .replace(OWNER_CREDENTIAL, "xown_***");
}

function codeOf(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" || typeof code === "number" ? String(code) : undefined;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = codeOf(error);
    return `${error.message}${code ? ` (${code})` : ""}`;
  }
  return String(error);
}

export function safeError(error: unknown, withStack = false): SafeError {
  if (!(error instanceof Error))
    return { type: typeof error, message: redactSecrets(String(error)).slice(0, MAX_TEXT) };
  const causes: string[] = [];
  // AggregateError (several addresses refused) says nothing in its own message.
  const inner = error instanceof AggregateError ? error.errors : [];
  for (const one of inner.slice(0, MAX_CAUSES)) causes.push(describe(one));
  for (let cause = error.cause; cause !== undefined && causes.length < MAX_CAUSES; ) {
    causes.push(describe(cause));
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  const code = codeOf(error);
  const message = error.message || (inner.length > 0 ? describe(inner[0]) : error.name);
  return {
    type: error.name,
    message: redactSecrets(message).slice(0, MAX_TEXT),
    ...(code ? { code } : {}),
    ...(causes.length > 0 ? { cause: redactSecrets(causes.join("; ")).slice(0, MAX_TEXT) } : {}),
    ...(withStack && error.stack ? { stack: redactSecrets(error.stack) } : {}),
  };
}
