import { addressValidOn } from "../../payability/requirement-verdict";
import { type ChallengeInput, locateChallengePayload, parsePaymentChallenge } from "../../payments/challenge";
import {
  isKnownNetwork,
  isKnownUsdc,
  isTestnet,
  OFFICIAL_V1_NETWORKS,
  usdcNetworkOf,
} from "../../payments/networks";
import type { PaymentChallenge, PaymentOption } from "../../payments/types";
import { type Check, check, OPTION_CHECK_IDS } from "../types";

/**
 * The checks one live answer decides on its own: whether it is a 402 with a usable x402
 * challenge, and whether each payment option is one the official clients can sign as written.
 * An answer without a challenge leaves the option checks not_applicable (answers_402 fails).
 */
type Entry = Record<string, unknown>;

const record = (value: unknown): Entry =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Entry) : {};

const present = (value: unknown): boolean => typeof value === "string" && value.trim() !== "";

function answers402(status: number | null): Check {
  if (status === null) return check("answers_402", "fail", "no HTTP answer");
  if (status === 402) return check("answers_402", "pass", "answers 402 Payment Required", { status });
  return check("answers_402", "fail", `answers ${status}, not 402`, { status });
}

function versionChannel(version: number | null, channel: "header" | "body" | "mcp" | null): Check {
  const evidence = { x402_version: version, channel };
  if (channel === null) return check("version_channel", "not_applicable", "no challenge", evidence);
  if (channel === "mcp") return check("version_channel", "pass", "in the MCP tool result", evidence);
  if (version === 2 && channel === "header")
    return check("version_channel", "pass", "v2 in the PAYMENT-REQUIRED header", evidence);
  if (version === 1 && channel === "body")
    return check("version_channel", "pass", "v1 in the body", evidence);
  const expected = version === 2 ? "the PAYMENT-REQUIRED header" : "the body";
  return check(
    "version_channel",
    "warn",
    `v${version ?? "?"} challenge in the ${channel}, expected in ${expected}`,
    evidence,
  );
}

function atomicAmount(entries: Entry[], version: number | null): Check {
  const field = version === 1 ? "maxAmountRequired" : "amount";
  const bad = entries
    .map((e) => e[field])
    .filter((amount) => typeof amount !== "string" || !/^\d+$/.test(amount));
  if (bad.length === 0) return check("atomic_amount", "pass", `every ${field} is an atomic integer string`);
  return check("atomic_amount", "fail", `${field} not an atomic integer string`, { amounts: bad });
}

function knownNetwork(options: PaymentOption[], entries: Entry[], version: number | null): Check {
  const networks = options.map((o) => o.network ?? o.network_name);
  const unknown = options.filter((o) => o.network === null || !isKnownNetwork(o.network));
  const outsideV1 =
    version === 1
      ? entries.map((e) => e.network).filter((n) => typeof n !== "string" || !OFFICIAL_V1_NETWORKS.has(n))
      : [];
  if (outsideV1.length > 0)
    return check("known_network", "fail", "a v1 network name outside the official clients' table", {
      networks: outsideV1,
    });
  if (unknown.length === 0)
    return check("known_network", "pass", "networks the official clients know", { networks });
  // v2 clients register every EVM chain by wildcard; an unlisted chain id signs, but is unusual.
  const evmOnly = unknown.every((o) => o.network?.startsWith("eip155:"));
  return check(
    "known_network",
    evmOnly ? "warn" : "fail",
    evmOnly ? "an EVM chain outside the known networks" : "a network the official clients do not know",
    { networks },
  );
}

function canonicalAsset(options: PaymentOption[]): Check {
  const problems: string[] = [];
  let unknownTokens = 0;
  for (const option of options) {
    const { network, asset } = option;
    if (network === null || asset === null) continue;
    if (isKnownUsdc(network, asset)) continue;
    const home = usdcNetworkOf(asset);
    if (home !== null && isTestnet(home) && !isTestnet(network))
      problems.push(`${asset} is the testnet USDC of ${home}, on mainnet ${network}`);
    else if (home !== null) problems.push(`${asset} is the USDC of ${home}, not of ${network}`);
    else unknownTokens += 1;
  }
  const assets = options.map((o) => o.asset);
  if (problems.length > 0) return check("canonical_asset", "fail", problems.join("; "), { assets });
  if (unknownTokens > 0)
    return check("canonical_asset", "warn", "a token that is not the network's canonical USDC", { assets });
  return check("canonical_asset", "pass", "the network's canonical USDC", { assets });
}

function schemeFamily(
  entry: Entry,
  option: PaymentOption | undefined,
): { scheme: unknown; family: string | null } {
  const network = option?.network ?? null;
  const family = network?.startsWith("eip155:") ? "evm" : network?.startsWith("solana:") ? "solana" : null;
  return { scheme: entry.scheme, family };
}

function signingDomain(entries: Entry[], options: PaymentOption[]): Check {
  const relevant = entries.filter((e, i) => {
    const { scheme, family } = schemeFamily(e, options[i]);
    return scheme === "exact" && family === "evm" && record(e.extra).assetTransferMethod !== "permit2";
  });
  if (relevant.length === 0)
    return check("signing_domain", "not_applicable", "no EVM exact option by authorisation");
  const missing = relevant.filter((e) => !present(record(e.extra).name) || !present(record(e.extra).version));
  if (missing.length === 0) return check("signing_domain", "pass", "extra.name and extra.version present");
  return check("signing_domain", "fail", "EVM exact without extra.name and extra.version (EIP-712 domain)", {
    extra: missing.map((e) => e.extra ?? null),
  });
}

function svmFeePayer(entries: Entry[], options: PaymentOption[]): Check {
  const relevant = entries.filter((e, i) => {
    const { scheme, family } = schemeFamily(e, options[i]);
    return scheme === "exact" && family === "solana";
  });
  if (relevant.length === 0) return check("svm_fee_payer", "not_applicable", "no Solana exact option");
  const missing = relevant.filter((e) => !present(record(e.extra).feePayer));
  if (missing.length === 0) return check("svm_fee_payer", "pass", "extra.feePayer present");
  return check("svm_fee_payer", "fail", "Solana exact without extra.feePayer");
}

function payToValid(options: PaymentOption[]): Check {
  const invalid = options.filter(
    (o) => o.pay_to === null || (o.network !== null && !addressValidOn(o.network, o.pay_to)),
  );
  const payTo = options.map((o) => o.pay_to);
  if (invalid.length === 0)
    return check("pay_to_valid", "pass", "every pay_to is an address on its network", { pay_to: payTo });
  return check("pay_to_valid", "fail", "a pay_to missing or not an address on its network", {
    pay_to: payTo,
  });
}

function inputDescribed(challenge: PaymentChallenge): Check {
  if (challenge.call !== null)
    return check("input_described", "pass", "the challenge describes how to call it");
  return check("input_described", "warn", "no Bazaar extension or v1 outputSchema describes the input");
}

function challengeValid(challenge: PaymentChallenge): Check {
  if (challenge.valid)
    return check("challenge_valid", "pass", "a well-formed x402 challenge", {
      x402_version: challenge.x402Version,
    });
  // A sign-in challenge is well-formed for what it asks; it is just not a price.
  const result = challenge.traits.auth_only ? "warn" : "fail";
  return check("challenge_valid", result, challenge.error ?? "not a valid challenge");
}

function optionChecks(entries: Entry[], challenge: PaymentChallenge): Check[] {
  const { options, x402Version } = challenge;
  if (options.length === 0)
    return OPTION_CHECK_IDS.map((id) => check(id, "not_applicable", "no payment options"));
  return [
    atomicAmount(entries, x402Version),
    knownNetwork(options, entries, x402Version),
    canonicalAsset(options),
    signingDomain(entries, options),
    svmFeePayer(entries, options),
    payToValid(options),
  ];
}

/** The checks of one answer; null when nothing answered (every check but answers_402 is then not applicable). */
export function challengeChecks(input: ChallengeInput | null): Check[] {
  const status = input?.status ?? null;
  const located = input === null || status !== 402 ? null : locateChallengePayload(input);
  if (input === null || located === null || typeof located === "string") {
    const none = "no x402 challenge to read";
    return [
      answers402(status),
      check(
        "challenge_valid",
        status === 402 ? "fail" : "not_applicable",
        typeof located === "string" ? located : none,
      ),
      versionChannel(null, null),
      ...OPTION_CHECK_IDS.map((id) => check(id, "not_applicable", none)),
      check("input_described", "not_applicable", none),
    ];
  }
  const challenge = parsePaymentChallenge(input);
  const accepts = located.payload.accepts;
  const entries = (Array.isArray(accepts) ? accepts : []).filter(
    (e): e is Entry => typeof e === "object" && e !== null && !Array.isArray(e),
  );
  return [
    answers402(status),
    challengeValid(challenge),
    versionChannel(challenge.x402Version, located.channel),
    ...optionChecks(entries, challenge),
    inputDescribed(challenge),
  ];
}
