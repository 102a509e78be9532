/** Pure: how to call an endpoint, as text for people to copy (shown escaped, never run). */

interface CallInput {
  method: string;
  url: string;
  call: { input: Record<string, unknown> | null } | null;
}

/** A shell word: single-quoted, with each quote closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The example body the call description gives (its input's body), if any. */
export function exampleBody(endpoint: CallInput): unknown {
  const input = endpoint.call?.input;
  if (!isRecord(input)) return undefined;
  return input.body ?? input.bodyFields ?? undefined;
}

/** The unpaid first request: it answers 402 with the payment challenge. */
export function curlExample(endpoint: CallInput): string {
  const body = exampleBody(endpoint);
  const lines = [`curl -i -X ${endpoint.method} ${shellQuote(endpoint.url)}`];
  if (body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`, `  --data ${shellQuote(JSON.stringify(body))}`);
  }
  return lines.join(" \\\n");
}

/** The same call through an x402 client that pays the challenge and repeats the request. */
export function clientSnippet(endpoint: CallInput): string {
  const body = exampleBody(endpoint);
  const init =
    body === undefined
      ? `{ method: ${JSON.stringify(endpoint.method)} }`
      : `{\n  method: ${JSON.stringify(endpoint.method)},\n  headers: { "Content-Type": "application/json" },\n  body: JSON.stringify(${JSON.stringify(body)}),\n}`;
  return [
    `import { wrapFetchWithPayment } from "x402-fetch";`,
    `import { privateKeyToAccount } from "viem/accounts";`,
    "",
    "const account = privateKeyToAccount(process.env.PRIVATE_KEY);",
    "const pay = wrapFetchWithPayment(fetch, account);",
    `const response = await pay(${JSON.stringify(endpoint.url)}, ${init});`,
    "console.log(response.status, await response.text());",
  ].join("\n");
}
