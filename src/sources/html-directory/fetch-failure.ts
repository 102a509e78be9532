import { STATUS_CODES } from "node:http";

/**
 * A page fetch's failure in words an operator can act on. Crawlee's own texts mislead: a
 * refused connection reads "Detected a session error, rotating session..." (there are no
 * sessions here), and every 5xx reads "503 - Internal Server Error: <body>" whatever the status.
 */
export function describeFetchFailure(message: string): string {
  const text = message.replace(/^Detected a session error, rotating session\.\.\.\s*/, "").trim();
  const status = /^(\d{3}) - /.exec(text);
  if (status) return `HTTP ${status[1]} ${STATUS_CODES[Number(status[1])] ?? ""}`.trim();
  const firstLine = text.split("\n")[0]?.trim() ?? "";
  for (const [pattern, meaning] of NETWORK_FAILURES)
    if (pattern.test(text)) return `${meaning} (${firstLine})`;
  return firstLine;
}

const NETWORK_FAILURES: [RegExp, string][] = [
  [/ECONNREFUSED/, "connection refused"],
  [/ENOTFOUND|EAI_AGAIN|EAI_NONAME/, "host not found (DNS)"],
  [/ECONNRESET|socket hang up/, "connection reset"],
  [/EHOSTUNREACH|ENETUNREACH/, "host unreachable"],
  [/ETIMEDOUT|timed out|Timeout/i, "timed out"],
  [/CERT_|certificate|SSL|TLS/i, "TLS error"],
];
