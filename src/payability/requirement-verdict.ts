import { OFFICIAL_V1_NETWORKS, resolveNetwork, usdcNetworkOf } from "../payments/networks";

/**
 * Whether the official x402 clients (@x402/fetch with @x402/evm and @x402/svm; x402-fetch for
 * v1) build a payment from one "accepts" entry exactly as published; the referee test
 * (test/integration/probe/payability-referee.test.ts) holds every rule here against them. The normaliser is lenient on purpose (it reads "$0.01" or
 * "Base" so that prices and networks can be shown); this verdict is strict, because a client signs
 * what is written: an asset "USDC" or an amount "0.01" cannot be signed.
 */
export interface Payability {
  payable: boolean;
  /** Why not, one reason per missing or unusable field; empty when payable. */
  reasons: string[];
}

/**
 * Payment schemes the official clients implement: `exact` (v1 and v2) and `upto` (v2; the
 * amount is a ceiling, see price_kind).
 */
const KNOWN_SCHEMES = new Set(["exact", "upto"]);

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_ZERO = /^0x0{40}$/;
// Solana public keys: 32 bytes in base58, 32 to 44 characters.
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;
const ATOMIC = /^\d+$/;

type Family = "evm" | "solana";

interface AddressRule {
  valid(address: string): boolean;
  /** What the address should look like, for the reason text. */
  shape: string;
}

const ADDRESS_RULES: Record<Family, AddressRule> = {
  evm: { valid: (a) => EVM_ADDRESS.test(a), shape: "a 0x-prefixed 20-byte hex address" },
  solana: { valid: (a) => BASE58_KEY.test(a), shape: "a base58 public key" },
};

/** True when `address` is an account address on the CAIP-2 network's chain family (and not EVM zero). */
export function addressValidOn(caip2: string, address: string): boolean {
  const family = familyOf(caip2);
  if (family === null) return true;
  return ADDRESS_RULES[family].valid(address) && !(family === "evm" && EVM_ZERO.test(address));
}

function familyOf(caip2: string): Family | null {
  if (caip2.startsWith("eip155:")) return "evm";
  if (caip2.startsWith("solana:")) return "solana";
  return null;
}

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : null;

const shown = (value: unknown): string => (typeof value === "string" ? JSON.stringify(value) : String(value));

function judgeScheme(raw: unknown, version: 1 | 2, reasons: string[]): string | null {
  const scheme = text(raw);
  if (scheme === null) reasons.push("scheme is missing");
  else if (!KNOWN_SCHEMES.has(scheme))
    reasons.push(`scheme ${shown(scheme)} is not one the official x402 clients implement (exact, upto)`);
  else if (scheme === "upto" && version === 1)
    reasons.push('scheme "upto" is a v2 scheme; the official clients implement it for x402Version 2 only');
  return scheme;
}

/** The CAIP-2 id a strict client would read, or null with a reason. */
function judgeNetwork(raw: unknown, version: 1 | 2, reasons: string[]): string | null {
  const network = text(raw);
  if (network === null) {
    reasons.push("network is missing");
    return null;
  }
  if (network.includes(":")) {
    if (CAIP2.test(network)) return network;
    reasons.push(`network ${shown(network)} is not a CAIP-2 chain id`);
    return null;
  }
  const resolved = resolveNetwork(network);
  if (resolved.network === null) {
    reasons.push(`network ${shown(network)} is neither CAIP-2 nor a known x402 network name`);
    return null;
  }
  if (resolved.warning !== null) {
    reasons.push(`network ${shown(network)} is not a standard x402 network name (${resolved.network_name})`);
    return null;
  }
  // v2 clients match requirements by CAIP-2 id; a v1 name there is read by no client.
  if (version === 2) {
    reasons.push(`network ${shown(network)} is a v1 name in a v2 entry (expected ${resolved.network})`);
    return null;
  }
  if (!OFFICIAL_V1_NETWORKS.has(network)) {
    reasons.push(
      `network ${shown(network)} (${resolved.network}) is not in the official x402 clients' v1 network table`,
    );
    return null;
  }
  return resolved.network;
}

function judgeAsset(raw: unknown, network: string | null, family: Family | null, reasons: string[]): void {
  const asset = text(raw);
  if (asset === null) {
    reasons.push("asset is missing");
    return;
  }
  if (family === null) {
    // Without a network we cannot tell what a valid address is; a symbol is wrong everywhere.
    if (!EVM_ADDRESS.test(asset) && !BASE58_KEY.test(asset)) {
      reasons.push(`asset ${shown(asset)} is not a token contract address`);
    }
    return;
  }
  const rule = ADDRESS_RULES[family];
  if (!rule.valid(asset)) {
    reasons.push(
      `asset ${shown(asset)} is not a token contract address on ${network} (expected ${rule.shape})`,
    );
    return;
  }
  if (family === "evm" && EVM_ZERO.test(asset)) {
    reasons.push("asset is the zero address (native coin), not a token contract");
    return;
  }
  const usdcHome = usdcNetworkOf(asset);
  if (usdcHome !== null && usdcHome !== network) {
    reasons.push(`asset is the USDC contract of ${usdcHome}, not of ${network}`);
  }
}

function judgeAmount(entry: Record<string, unknown>, version: 1 | 2, reasons: string[]): void {
  const [own, other] = version === 1 ? ["maxAmountRequired", "amount"] : ["amount", "maxAmountRequired"];
  const raw = entry[own];
  if (raw === undefined || raw === null || raw === "") {
    reasons.push(
      entry[other] === undefined
        ? `${own} is missing`
        : `${own} is missing (the entry has ${other}, the other protocol version's field)`,
    );
    return;
  }
  if (typeof raw !== "string") {
    reasons.push(`${own} is a ${typeof raw}, not an atomic amount string`);
    return;
  }
  if (!ATOMIC.test(raw)) reasons.push(`${own} ${shown(raw)} is not an atomic integer amount`);
}

function judgePayTo(raw: unknown, network: string | null, family: Family | null, reasons: string[]): void {
  const payTo = text(raw);
  if (payTo === null) {
    reasons.push("payTo is missing");
    return;
  }
  if (family === null) return;
  const rule = ADDRESS_RULES[family];
  if (!rule.valid(payTo))
    reasons.push(`payTo ${shown(payTo)} is not valid on ${network} (expected ${rule.shape})`);
  else if (family === "evm" && EVM_ZERO.test(payTo)) reasons.push("payTo is the zero address");
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/**
 * What the scheme's client reads from `extra`: the EIP-712 domain of the token for EVM `exact`
 * by authorisation (Permit2 signs Permit2's own domain), the facilitator for EVM `upto`, the
 * fee payer for Solana `exact`.
 */
function judgeExtra(
  rawExtra: unknown,
  scheme: string | null,
  family: Family | null,
  reasons: string[],
): void {
  const extra = record(rawExtra);
  if (family === "evm" && scheme === "exact" && extra.assetTransferMethod !== "permit2") {
    const missing = ["name", "version"].filter((key) => text(extra[key]) === null);
    if (missing.length > 0)
      reasons.push(
        `extra.${missing.join(" and extra.")} missing: the client cannot sign the token's EIP-712 domain`,
      );
  }
  if (family === "evm" && scheme === "upto") {
    const facilitator = text(extra.facilitatorAddress);
    if (facilitator === null || !EVM_ADDRESS.test(facilitator))
      reasons.push("extra.facilitatorAddress missing or not an address: the upto client needs it");
  }
  if (family === "solana" && scheme === "exact") {
    const feePayer = text(extra.feePayer);
    if (feePayer === null || !BASE58_KEY.test(feePayer))
      reasons.push("extra.feePayer missing or not a public key: the Solana client needs a fee payer");
  }
}

/**
 * The verdict on one entry as published. `version` is the entry's protocol version (1: v1 names
 * and maxAmountRequired; 2: CAIP-2 and amount), as the normaliser detected it.
 */
export function judgeRequirement(entry: Record<string, unknown>, version: 1 | 2): Payability {
  const reasons: string[] = [];
  const scheme = judgeScheme(entry.scheme, version, reasons);
  const network = judgeNetwork(entry.network, version, reasons);
  const family = network === null ? null : familyOf(network);
  if (network !== null && family === null) {
    reasons.push(`network ${network} is a chain family x402 clients do not pay on`);
  }
  judgeAsset(entry.asset, network, family, reasons);
  judgeAmount(entry, version, reasons);
  judgePayTo(entry.payTo, network, family, reasons);
  judgeExtra(entry.extra, scheme, family, reasons);
  return { payable: reasons.length === 0, reasons };
}

export type PriceKind = "exact" | "maximum";

/** `upto` lets the seller charge less than the amount, which is then a ceiling, not the price. */
export function priceKindOf(scheme: string | null): PriceKind {
  return scheme === "upto" ? "maximum" : "exact";
}
