/**
 * x402 over MCP (the spec's MCP transport): a paid tool answers an unpaid `tools/call` with a tool
 * result marked `isError: true` that carries the x402 `PaymentRequired`. Servers write it in more
 * than one place, so it is looked for, in order, where the spec tells clients to look and then
 * where real servers put it:
 *
 * 1. `structuredContent` as the `PaymentRequired` itself (the spec's SHOULD; @x402/mcp's wrapper);
 * 2. `structuredContent["x402/error"].data` (the spec's wrapped form);
 * 3. `content[0].text` holding JSON: the `PaymentRequired`, or the `{"x402/error": {code: 402, data}}`
 *    wrapper (the spec's MUST);
 * 4. `_meta["x402/error"]` (the Cloudflare Agents SDK's `paidTool`);
 * 5. a JSON-RPC error with code 402 and the `PaymentRequired` in `error.data` (the MCP transport's
 *    first draft, still sent by servers built on it).
 *
 * Pure: no I/O. The payload found is then read like any challenge (src/payments/challenge.ts).
 */

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What one unpaid `tools/call` came back with. */
export type ToolCallAnswer =
  /** A tool result (`CallToolResult`), as the server sent it. */
  | { kind: "result"; result: unknown }
  /** A JSON-RPC error instead of a result. */
  | { kind: "error"; code: number; message: string; data: unknown };

export type PaymentRequiredLocation =
  | "structuredContent"
  | "structuredContent.x402/error"
  | "content.text"
  | "content.text.x402/error"
  | "_meta.x402/error"
  | "jsonrpc_error";

export interface ToolPaymentRequired {
  /** The `PaymentRequired` object; null when the answer carries none. */
  payload: Json | null;
  location: PaymentRequiredLocation | null;
  /** Whether the tool result said it is an error (a JSON-RPC error counts as one). */
  isError: boolean;
  /** Deviations from the spec's form, said rather than refused. */
  warnings: string[];
  /** The tool's own words when it answered an error without payment requirements (first text, cut short). */
  errorText: string | null;
}

const WRAPPER = "x402/error";

/** Looks like an x402 PaymentRequired: it has `accepts` (the rest is judged by the challenge reader). */
const asPaymentRequired = (value: unknown): Json | null =>
  isRecord(value) && "accepts" in value ? value : null;

/** The `PaymentRequired` inside an `{"x402/error": {code, message, data}}` wrapper. */
function unwrapped(value: unknown, warnings: string[]): Json | null {
  if (!isRecord(value) || !isRecord(value[WRAPPER])) return null;
  const wrapper = value[WRAPPER];
  const found = asPaymentRequired(wrapper.data);
  if (found !== null && wrapper.code !== 402)
    warnings.push(`x402/error code is ${String(wrapper.code)}, not 402`);
  return found;
}

function firstText(result: Json): string | null {
  const content = Array.isArray(result.content) ? result.content : [];
  const first: unknown = content[0];
  return isRecord(first) && first.type === "text" && typeof first.text === "string" ? first.text : null;
}

function parsedJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function fromResult(result: unknown): ToolPaymentRequired {
  const warnings: string[] = [];
  const answer = isRecord(result) ? result : {};
  const isError = answer.isError === true;
  const text = firstText(answer);
  const found = (payload: Json | null, location: PaymentRequiredLocation): ToolPaymentRequired | null =>
    payload === null ? null : { payload, location, isError, warnings, errorText: null };
  const meta = isRecord(answer._meta) ? answer._meta : {};
  const textJson = parsedJson(text);
  const hit =
    found(asPaymentRequired(answer.structuredContent), "structuredContent") ??
    found(unwrapped(answer.structuredContent, warnings), "structuredContent.x402/error") ??
    found(asPaymentRequired(textJson), "content.text") ??
    found(unwrapped(textJson, warnings), "content.text.x402/error") ??
    found(asPaymentRequired(meta[WRAPPER]), "_meta.x402/error");
  if (hit === null) {
    return {
      payload: null,
      location: null,
      isError,
      warnings,
      errorText: isError ? (text?.slice(0, 200) ?? null) : null,
    };
  }
  if (!isError) warnings.push("payment requirements in a tool result not marked isError");
  if (hit.location === "_meta.x402/error")
    warnings.push('payment requirements only in _meta["x402/error"], not in structuredContent or content');
  else if (hit.location !== "structuredContent")
    warnings.push(`payment requirements in ${hit.location}, not in structuredContent`);
  return hit;
}

/** Reads one unpaid `tools/call` answer for x402 payment requirements. */
export function readToolPaymentRequired(answer: ToolCallAnswer): ToolPaymentRequired {
  if (answer.kind === "result") return fromResult(answer.result);
  const payload = answer.code === 402 ? asPaymentRequired(answer.data) : null;
  if (payload === null) {
    return {
      payload: null,
      location: null,
      isError: true,
      warnings: [],
      errorText: answer.message.slice(0, 200),
    };
  }
  const warnings = [
    "payment requirements in a JSON-RPC error 402, not in a tool result (x402 MCP transport)",
  ];
  return { payload, location: "jsonrpc_error", isError: true, warnings, errorText: null };
}
