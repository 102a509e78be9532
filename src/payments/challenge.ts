import { decodePaymentRequiredHeader } from "@x402/core/http";
import { parsePaymentRequired } from "@x402/core/schemas";
import { readCallDescription } from "./call-description";
import { readChallengeTraits } from "./challenge-traits";
import { normaliseAccepts } from "./normalise";
import type { PaymentChallenge } from "./types";

export interface ChallengeInput {
  status: number;
  headers: Record<string, string | undefined>;
  bodyText: string | null;
  /**
   * "mcp": the body is the PaymentRequired an MCP tool result carried (src/mcp-tools), which the
   * MCP transport puts in the result, not in a header. Absent: an HTTP answer.
   */
  transport?: "mcp";
}

type Payload = Record<string, unknown>;

const isRecord = (value: unknown): value is Payload =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function getHeader(headers: ChallengeInput["headers"], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

function jsonOf(text: string | null): unknown {
  try {
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Decodes the v2 PAYMENT-REQUIRED header with @x402/core's helper. That helper only accepts the
 * standard base64 alphabet, so a base64url header (which some servers send) is retried after
 * translating the alphabet, with a warning.
 */
function decodeHeader(value: string, warnings: string[]): unknown {
  const trimmed = value.trim();
  try {
    return decodePaymentRequiredHeader(trimmed);
  } catch (error) {
    if (!/^[A-Za-z0-9_-]+=*$/.test(trimmed) || !/[-_]/.test(trimmed)) throw error;
    const standard = trimmed.replace(/-/g, "+").replace(/_/g, "/");
    const decoded: unknown = decodePaymentRequiredHeader(standard);
    warnings.push("PAYMENT-REQUIRED header is base64url, not standard base64");
    return decoded;
  }
}

/** The challenge object and where it was found. */
export interface LocatedChallenge {
  payload: Payload;
  channel: "header" | "body" | "mcp";
}

/**
 * Finds the challenge object: v2 header first, then a v1 JSON body. Returns an error string
 * otherwise. Oddities go to `warnings`.
 */
export function locateChallengePayload(
  input: ChallengeInput,
  warnings: string[] = [],
): LocatedChallenge | string {
  if (input.transport === "mcp") {
    const payload = jsonOf(input.bodyText);
    return isRecord(payload)
      ? { payload, channel: "mcp" }
      : "the tool result carries no x402 payment requirements";
  }
  const header = getHeader(input.headers, "payment-required");
  const hasHeader = header !== undefined && header.trim() !== "";
  if (hasHeader) {
    try {
      const decoded = decodeHeader(header ?? "", warnings);
      if (isRecord(decoded)) return { payload: decoded, channel: "header" };
      warnings.push("PAYMENT-REQUIRED header does not hold a JSON object");
    } catch (error) {
      warnings.push(`PAYMENT-REQUIRED header could not be decoded: ${message(error)}`);
    }
  }
  const noHeader = hasHeader ? "an unusable PAYMENT-REQUIRED header" : "no PAYMENT-REQUIRED header";
  const body = input.bodyText?.trim() ?? "";
  if (body === "") return `${noHeader} and an empty body`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Typically an HTML error or paywall page: a 402 that no x402 client can act on.
    return `${noHeader} and the body is not JSON`;
  }
  if (!isRecord(parsed) || !("accepts" in parsed)) return `${noHeader} and the body JSON has no accepts`;
  if (parsed.x402Version === 2)
    warnings.push("v2 challenge sent in the body instead of the PAYMENT-REQUIRED header");
  return { payload: parsed, channel: "body" };
}

/**
 * Spec problems of the envelope itself (x402Version, resource, ...). Issues inside accepts are
 * left out because each option carries its own.
 */
function envelopeIssues(payload: Payload): string | null {
  const result = parsePaymentRequired(payload);
  if (result.success) return null;
  const issues = result.error.issues
    .filter((i) => i.path[0] !== "accepts" || i.path.length === 1)
    .map((i) => `${i.path.join(".") || "(challenge)"}: ${i.message}`);
  return issues.length === 0 ? null : `not a valid x402 PaymentRequired: ${issues.join("; ")}`;
}

/** Reads a live response to an unpaid request and says whether it is a usable x402 challenge. */
export function parsePaymentChallenge(input: ChallengeInput): PaymentChallenge {
  const warnings: string[] = [];
  const located = locateChallengePayload(input, warnings);
  const notPaymentRequired = input.status === 402 ? null : `status is ${input.status}, not 402`;
  if (typeof located === "string") {
    return {
      valid: false,
      x402Version: null,
      options: [],
      error: notPaymentRequired ?? located,
      warnings,
      call: null,
      traits: readChallengeTraits(null),
    };
  }

  const { payload } = located;
  const x402Version = typeof payload.x402Version === "number" ? payload.x402Version : null;
  const envelope = envelopeIssues(payload);
  if (envelope !== null) warnings.push(envelope);

  const accepts = normaliseAccepts(payload.accepts, x402Version);
  warnings.push(...accepts.warnings);

  const traits = readChallengeTraits(payload);
  let error = notPaymentRequired;
  if (error === null && traits.auth_only) error = "authentication only: a sign-in challenge without a price";
  if (error === null && accepts.options.length === 0) error = "no payment options";
  if (error === null && accepts.wellFormedCount === 0) error = "no well-formed payment option";
  const call = readCallDescription({ extensions: payload.extensions, accepts: payload.accepts }, warnings);
  return { valid: error === null, x402Version, options: accepts.options, error, warnings, call, traits };
}
