import { PaymentRequirementsV1Schema, PaymentRequirementsV2Schema } from "@x402/core/schemas";
import { judgeRequirement } from "../payability/requirement-verdict";
import { atomicToDecimal, decimalToAtomic, readAmount } from "./amount";
import { isKnownUsdc, resolveNetwork, USDC_DECIMALS, usdcNetworkOf } from "./networks";
import type { PaymentOption } from "./types";

/** An option plus whether a spec-following client could pay it as written. */
export interface NormalisedRequirement {
  option: PaymentOption;
  /** Passes @x402/core's schema for its version AND the amount is an atomic integer string. */
  wellFormed: boolean;
}

export interface NormalisedAccepts {
  options: PaymentOption[];
  wellFormedCount: number;
  /** Entries that could not be read at all (not an object), and a non-array `accepts`. */
  warnings: string[];
}

type Entry = Record<string, unknown>;

const describe = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value;

const isRecord = (value: unknown): value is Entry =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : null;

/** v1 and v2 differ in the amount field and network spelling; an entry may not say which it is. */
function detectVersion(entry: Entry, declared: number | null): 1 | 2 {
  if (declared === 1 || declared === 2) return declared;
  if ("maxAmountRequired" in entry) return 1;
  if ("amount" in entry) return 2;
  return typeof entry.network === "string" && entry.network.includes(":") ? 2 : 1;
}

/**
 * @x402/core's schemas check presence and types only: "$0.01" passes as an amount and "USDC" as
 * an asset. So they decide spec compliance, and the field readers below catch the rest.
 */
function specIssues(entry: Entry, version: 1 | 2): string | null {
  const schema = version === 1 ? PaymentRequirementsV1Schema : PaymentRequirementsV2Schema;
  const result = schema.safeParse(entry);
  if (result.success) return null;
  const issues = result.error.issues.map((i) => `${i.path.join(".") || "(entry)"}: ${i.message}`);
  return `not valid x402 v${version} payment requirements: ${issues.join("; ")}`;
}

function readAsset(entry: Entry, network: string | null, warnings: string[]) {
  const asset = text(entry.asset);
  if (asset === null) {
    warnings.push("asset is missing");
    return { asset, symbol: null };
  }
  if (isKnownUsdc(network, asset)) return { asset, symbol: "USDC" };
  if (/^usdc$/i.test(asset)) {
    warnings.push(`asset is a symbol, not a token address: ${asset} (assumed 6-decimal USDC)`);
    return { asset, symbol: "USDC" };
  }
  const usdcHome = usdcNetworkOf(asset);
  if (usdcHome !== null && network !== null) {
    warnings.push(`asset is the USDC contract of ${usdcHome}, not of ${network}`);
  }
  return { asset, symbol: null };
}

function readTimeout(raw: unknown, warnings: string[]): number | null {
  if (typeof raw === "number" && Number.isFinite(raw) && raw > 0) return raw;
  if (typeof raw === "string" && /^\d+$/.test(raw.trim()) && Number(raw) > 0) {
    warnings.push(`maxTimeoutSeconds is a string: ${raw}`);
    return Number(raw);
  }
  warnings.push(raw === undefined ? "maxTimeoutSeconds is missing" : "maxTimeoutSeconds is not a number");
  return null;
}

/** The amount field of the entry's version, falling back to the other version's name. */
function amountField(entry: Entry, version: 1 | 2, warnings: string[]): [string, unknown] {
  const [own, other] = version === 1 ? ["maxAmountRequired", "amount"] : ["amount", "maxAmountRequired"];
  if (entry[own] === undefined && entry[other] !== undefined) {
    warnings.push(`v${version} entry uses ${other} instead of ${own}`);
    return [other, entry[other]];
  }
  return [own, entry[own]];
}

function payabilityOf(entry: Entry, version: 1 | 2) {
  const { payable, reasons } = judgeRequirement(entry, version);
  return { payable, unpayable_reasons: reasons };
}

/**
 * Normalises one "accepts" entry. Returns a reason string instead when the entry is not an
 * object, since there is nothing to keep.
 */
export function normaliseRequirement(
  entry: unknown,
  declaredVersion: number | null,
): NormalisedRequirement | string {
  if (!isRecord(entry)) return `not an object (${describe(entry)})`;

  const version = detectVersion(entry, declaredVersion);
  const warnings: string[] = [];
  const spec = specIssues(entry, version);
  if (spec !== null) warnings.push(spec);

  const scheme = text(entry.scheme);
  if (scheme === null) warnings.push("scheme is missing");

  const rawNetwork = text(entry.network);
  const resolved = rawNetwork === null ? null : resolveNetwork(rawNetwork);
  if (resolved === null) warnings.push("network is missing");
  else if (resolved.warning !== null) warnings.push(resolved.warning);
  const network = resolved?.network ?? null;

  const { asset, symbol } = readAsset(entry, network, warnings);

  const [field, rawAmount] = amountField(entry, version, warnings);
  const reading = readAmount(field, rawAmount);
  let atomic: string | null = null;
  if (reading.kind === "atomic") {
    atomic = reading.atomic;
    if (reading.warning !== null) warnings.push(reading.warning);
  } else if (reading.kind === "decimal") {
    // A decimal only has a meaning once the token is known; for USDC we can convert exactly.
    atomic = symbol === "USDC" ? decimalToAtomic(reading.decimal, USDC_DECIMALS) : null;
    const shown = String(rawAmount).trim();
    warnings.push(
      atomic === null
        ? `${field} is not an atomic integer: ${shown} (unit unknown)`
        : `${field} is not an atomic integer: ${shown} (read as ${atomicToDecimal(atomic, USDC_DECIMALS)} USDC)`,
    );
  } else {
    warnings.push(reading.warning);
  }

  const payTo = text(entry.payTo);
  if (payTo === null) warnings.push("payTo is missing");
  const flow = isRecord(entry.extra) ? entry.extra.paymentFlow : undefined;
  if (flow !== undefined && flow !== "authorization") {
    // The official clients sign a transfer authorisation; another flow asks something else of the payer.
    warnings.push(`extra.paymentFlow is ${JSON.stringify(flow)}, not "authorization"`);
  }

  const option: PaymentOption = {
    scheme,
    network,
    network_name: resolved?.network_name ?? null,
    asset,
    asset_symbol: symbol,
    amount_atomic: atomic,
    price_usdc: symbol === "USDC" && atomic !== null ? atomicToDecimal(atomic, USDC_DECIMALS) : null,
    pay_to: payTo,
    max_timeout_seconds: readTimeout(entry.maxTimeoutSeconds, warnings),
    warnings,
    ...payabilityOf(entry, version),
  };
  const strictAmount = reading.kind === "atomic" && reading.strict;
  return { option, wellFormed: spec === null && strictAmount };
}

/** Normalises an "accepts" array; unreadable entries are skipped and reported, never thrown. */
export function normaliseAccepts(accepts: unknown, declaredVersion: number | null): NormalisedAccepts {
  if (!Array.isArray(accepts)) {
    const why =
      accepts === undefined ? "accepts is missing" : `accepts is not an array (${describe(accepts)})`;
    return { options: [], wellFormedCount: 0, warnings: [why] };
  }
  const result: NormalisedAccepts = { options: [], wellFormedCount: 0, warnings: [] };
  accepts.forEach((entry, index) => {
    const normalised = normaliseRequirement(entry, declaredVersion);
    if (typeof normalised === "string") {
      result.warnings.push(`accepts[${index}] skipped: ${normalised}`);
      return;
    }
    result.options.push(normalised.option);
    if (normalised.wellFormed) result.wellFormedCount += 1;
  });
  return result;
}
