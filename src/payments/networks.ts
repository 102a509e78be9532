/**
 * Networks x402 facilitators name, mapped between the v1 short names and v2 CAIP-2 ids, plus
 * the USDC contracts we can price. @x402/core ships no such table (each scheme package keeps
 * its own), so it lives here.
 */

interface NetworkInfo {
  caip2: string;
  name: string;
}

const SOLANA_MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const SOLANA_DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";

/** Every network the catalogue names, v1 name and CAIP-2 id. */
export const NETWORKS: readonly NetworkInfo[] = [
  { name: "base", caip2: "eip155:8453" },
  { name: "base-sepolia", caip2: "eip155:84532" },
  { name: "ethereum", caip2: "eip155:1" },
  { name: "optimism", caip2: "eip155:10" },
  { name: "polygon", caip2: "eip155:137" },
  { name: "polygon-amoy", caip2: "eip155:80002" },
  { name: "arbitrum", caip2: "eip155:42161" },
  { name: "arbitrum-sepolia", caip2: "eip155:421614" },
  { name: "avalanche", caip2: "eip155:43114" },
  { name: "avalanche-fuji", caip2: "eip155:43113" },
  { name: "sei", caip2: "eip155:1329" },
  { name: "sei-testnet", caip2: "eip155:1328" },
  { name: "iotex", caip2: "eip155:4689" },
  { name: "peaq", caip2: "eip155:3338" },
  { name: "solana", caip2: SOLANA_MAINNET },
  { name: "solana-devnet", caip2: SOLANA_DEVNET },
  { name: "sepolia", caip2: "eip155:11155111" },
  { name: "abstract", caip2: "eip155:2741" },
  { name: "abstract-testnet", caip2: "eip155:11124" },
  { name: "story", caip2: "eip155:1514" },
  { name: "educhain", caip2: "eip155:41923" },
  { name: "skale-base-sepolia", caip2: "eip155:324705682" },
  { name: "megaeth", caip2: "eip155:4326" },
  { name: "monad", caip2: "eip155:143" },
  { name: "stable", caip2: "eip155:988" },
  { name: "stable-testnet", caip2: "eip155:2201" },
  { name: "celo", caip2: "eip155:42220" },
  { name: "flare", caip2: "eip155:14" },
];

/**
 * The v1 network names both official v1 clients pay on: the `x402` package's network enum
 * (x402-fetch, 1.2) intersected with @x402/evm's and @x402/svm's v1 tables (2.27). A v1 entry
 * naming another network ("arbitrum", "optimism", "ethereum") keeps its normalised network for
 * display but is not payable.
 */
export const OFFICIAL_V1_NETWORKS: ReadonlySet<string> = new Set([
  "abstract",
  "abstract-testnet",
  "base",
  "base-sepolia",
  "avalanche",
  "avalanche-fuji",
  "iotex",
  "sei",
  "sei-testnet",
  "polygon",
  "polygon-amoy",
  "peaq",
  "story",
  "educhain",
  "skale-base-sepolia",
  "solana",
  "solana-devnet",
]);

/** Testnets among the networks above: a testnet token on a mainnet listing is a mistake. */
const TESTNETS: ReadonlySet<string> = new Set([
  "base-sepolia",
  "polygon-amoy",
  "arbitrum-sepolia",
  "avalanche-fuji",
  "sei-testnet",
  "solana-devnet",
  "sepolia",
  "abstract-testnet",
  "skale-base-sepolia",
  "stable-testnet",
]);

/** True for a CAIP-2 id of a known testnet. */
export function isTestnet(network: string): boolean {
  const name = BY_CAIP2.get(network)?.name;
  return name !== undefined && TESTNETS.has(name);
}

/** True when the CAIP-2 id is one of the networks named above. */
export function isKnownNetwork(network: string): boolean {
  return BY_CAIP2.has(network);
}

const BY_NAME = new Map(NETWORKS.map((n) => [n.name, n]));
const BY_CAIP2 = new Map(NETWORKS.map((n) => [n.caip2, n]));

/**
 * Known USDC contracts (Circle's native deployments, all 6 decimals), keyed by CAIP-2. Only
 * networks x402 sellers use and whose contract is certain: an asset not listed here keeps its
 * atomic amount but gets no USDC price, since pricing an unknown token as USDC would be a guess.
 */
const USDC_BY_NETWORK: ReadonlyMap<string, string> = new Map([
  ["eip155:8453", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"],
  ["eip155:84532", "0x036CbD53842c5426634e7929541eC2318f3dCF7e"],
  ["eip155:1", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"],
  ["eip155:10", "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85"],
  ["eip155:137", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"],
  ["eip155:42161", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"],
  ["eip155:421614", "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d"],
  ["eip155:43114", "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E"],
  ["eip155:43113", "0x5425890298aed601595a70AB815c96711a31Bc65"],
  [SOLANA_MAINNET, "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"],
  [SOLANA_DEVNET, "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU"],
]);

export const USDC_DECIMALS = 6;

export interface ResolvedNetwork {
  network: string | null;
  network_name: string | null;
  warning: string | null;
}

/**
 * Maps a network as written (v1 name or CAIP-2) to both forms. Spellings seen in the wild
 * such as "Base" or "base-mainnet" are resolved but flagged, since a strict client would
 * reject them.
 */
export function resolveNetwork(raw: string): ResolvedNetwork {
  const trimmed = raw.trim();
  if (trimmed.includes(":")) {
    // CAIP-2 references are case-sensitive (Solana's genesis hash), so only an exact match counts.
    const known = BY_CAIP2.get(trimmed);
    return { network: trimmed, network_name: known?.name ?? null, warning: null };
  }
  const exact = BY_NAME.get(trimmed);
  if (exact) return { network: exact.caip2, network_name: exact.name, warning: null };

  const lowered = trimmed.toLowerCase();
  const alias = BY_NAME.get(lowered) ?? BY_NAME.get(lowered.replace(/[-_ ]?mainnet(-beta)?$/, ""));
  if (alias) {
    return {
      network: alias.caip2,
      network_name: alias.name,
      warning: `network is not a standard x402 name: ${raw} (read as ${alias.name})`,
    };
  }
  return { network: null, network_name: lowered, warning: `unknown network: ${raw}` };
}

const isEvm = (network: string | null): boolean => network?.startsWith("eip155:") ?? false;

function sameAddress(a: string, b: string, evm: boolean): boolean {
  // EVM addresses are hex with an optional checksum case; Solana base58 is case-sensitive.
  return evm ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** True when `asset` is the USDC contract of `network`. */
export function isKnownUsdc(network: string | null, asset: string): boolean {
  if (network === null) return false;
  const usdc = USDC_BY_NETWORK.get(network);
  return usdc !== undefined && sameAddress(usdc, asset, isEvm(network));
}

/** The network whose USDC contract `asset` is, if any; used to flag a contract on the wrong chain. */
export function usdcNetworkOf(asset: string): string | null {
  for (const [network, usdc] of USDC_BY_NETWORK) {
    if (sameAddress(usdc, asset, isEvm(network))) return network;
  }
  return null;
}
