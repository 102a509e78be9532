import { z } from "zod";
import { parseUsdcAmount } from "../billing/usdc-amount";
import { pairList, secretKey, secretKeyList } from "./setting-schemas";

/** Signed answers (src/answer-signing): read with the rest of the settings in config.ts. */
export const answerSigningSettings = {
  ANSWER_SIGNING_KEY: {
    schema: secretKey.optional(),
    secret: true,
    description:
      "Ed25519 seed (32 bytes) that signs the answers of the data routes (docs/agents.md, Verifying answers). Unset: a seed generated at the first start and kept in CATALOGUE_DATA_DIR/answer-signing.key (mode 0600). Processes behind one address must all set the same key.",
  },
  ANSWER_SIGNING_OLD_KEYS: {
    schema: secretKeyList,
    secret: true,
    description:
      "Seeds ANSWER_SIGNING_KEY replaced: their public keys stay published as retiring at /.well-known/x402-catalogue-keys.json, so answers signed before a rotation keep verifying; they never sign.",
  },
} as const;

const network = z.string().regex(/^eip155:\d{1,12}$/, "a network is a CAIP-2 EVM chain such as eip155:8453");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "an address is 0x and 40 hex digits");

const usdc = z
  .string()
  .refine((text) => parseUsdcAmount(text) !== null, "a price is USDC with at most 6 decimals");
export const PRICE_GROUPS = ["search", "detail", "preflight", "csv"] as const;
const priceGroup = z.enum(PRICE_GROUPS);
export type PriceGroup = (typeof PRICE_GROUPS)[number];

const DEFAULT_PRICES = new Map<PriceGroup, string>([
  ["search", "0.001"],
  ["detail", "0.001"],
  ["preflight", "0.002"],
  ["csv", "0.01"],
]);

/** Selling the API over x402 (src/x402-sales): off unless X402_PAY_TO names a network. */
export const x402SellingSettings = {
  X402_PAY_TO: {
    schema: pairList(network, address, "eip155:8453=0xYourAddress"),
    description:
      "Where x402 payments for the catalogue's own API go, per network (CAIP-2); the networks named are the accepted ones. Unset: nothing is sold and requests past the anonymous allowance get 429 (docs/operations.md, Selling the API over x402).",
  },
  X402_PRICES: {
    schema: pairList(priceGroup, usdc, "search=0.001,detail=0.001").transform(
      (prices) => new Map([...DEFAULT_PRICES, ...prices]),
    ),
    description:
      "Price in USDC per call of each route group: search (the lists and MCP tool calls), detail (a service and its history), preflight, csv (per 1,000 rows). Unnamed groups keep their defaults: search=0.001, detail=0.001, preflight=0.002, csv=0.01.",
  },
  X402_PAID_ROUTES: {
    schema: z
      .string()
      .default("")
      .transform((text) =>
        text
          .split(",")
          .map((part) => part.trim())
          .filter((part) => part !== ""),
      )
      .pipe(z.array(priceGroup))
      .meta({ allowed: `a comma-separated list of ${PRICE_GROUPS.join(", ")}` }),
    description:
      "Route groups a caller without a key always pays for (after the free trial), not only past the anonymous allowance. Default: none.",
  },
  X402_ASSETS: {
    schema: pairList(network, address, "eip155:1337=0xTokenAddress"),
    description:
      "The USDC contract per network when it is not the one x402 knows (test chains): an EIP-3009 token of 6 decimals whose EIP-712 domain is X402_ASSET_DOMAIN.",
  },
  X402_ASSET_DOMAIN: {
    schema: z
      .string()
      .default("USD Coin,2")
      .transform((text, ctx) => {
        const [name = "", version = ""] = text.split(",").map((part) => part.trim());
        if (name && version) return { name, version };
        ctx.addIssue({ code: "custom", message: "must be the EIP-712 name and version, e.g. USD Coin,2" });
        return z.NEVER;
      }),
    description: "EIP-712 domain name and version of the tokens in X402_ASSETS.",
  },
  X402_FACILITATOR_URL: {
    schema: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    description:
      "An x402 facilitator that verifies and settles the payments (e.g. https://x402.org/facilitator). Unset: the built-in facilitator (X402_FACILITATOR_KEY, X402_RPC_URLS).",
  },
  X402_FACILITATOR_KEY: {
    schema: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte private key")
      .optional()
      .meta({ allowed: "a 0x-prefixed 32-byte private key (hex)" }),
    secret: true,
    description:
      "Private key of the built-in facilitator's account: it only pays gas to submit transferWithAuthorization; the money goes from the payer straight to X402_PAY_TO. Keep little ETH on it.",
  },
  X402_RPC_URLS: {
    schema: pairList(network, z.url({ protocol: /^https?$/ }), "eip155:8453=https://mainnet.base.org"),
    description:
      "JSON-RPC URL per network: the built-in facilitator submits through it, and with any facilitator a failed settlement is looked up on chain through it (a network without one is retried through the facilitator only).",
  },
  X402_OPERATOR_ORG: {
    schema: z.string().trim().min(1).max(200).default("operator"),
    description:
      "The organisation (created if missing) whose events and webhooks receive x402_payment.settled and x402_payment.failed, in its live environment.",
  },
  X402_FREE_CALLS_PER_WALLET: {
    schema: z.coerce.number().int().min(0).max(1000).default(3),
    description:
      "Free calls per day a wallet named in X-WALLET gets before it pays; each also counts against the calling address's own trial allowance of the same size, so rotating wallets from one address gains nothing.",
  },
  X402_SETTLE_WAIT_SECONDS: {
    schema: z.coerce.number().int().min(0).max(60).default(10),
    description:
      "How long a paid answer, once ready, waits for its settlement: settled in time, it carries PAYMENT-RESPONSE; else it is sent without, and the payment stays pending until a retry settles it.",
  },
  X402_SETTLE_RETRY_SECONDS: {
    schema: z.coerce.number().int().min(1).max(600).default(15),
    description:
      "First pause before a failed settlement is tried again; each further pause doubles, while the payer's authorisation is valid (10 minutes from signing). Also how often each API process looks for payments due.",
  },
} as const;

/** Signed answers and selling over x402, as config.ts reads them. */
export const x402CatalogueSettings = { ...answerSigningSettings, ...x402SellingSettings } as const;
