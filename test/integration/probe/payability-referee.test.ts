import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePaymentChallenge } from "../../../src/payments/challenge";
import { v1ChallengeBody, v2ChallengeHeader } from "../../support/x402-challenges";
import type { FixtureAnswer } from "../../support/x402-fixture";
import {
  officialV1Answers,
  officialV2Answers,
  SELLER_EVM,
  SELLER_SOLANA,
} from "../../support/x402-official-servers";
import { Referee, type RefereeVerdict } from "../../support/x402-referee";
import {
  ARBITRUM_USDC,
  BASE_SEPOLIA_USDC,
  BASE_USDC,
  v1Entry,
  v2Entry,
  v2SolanaEntry,
} from "../../unit/payments/fixtures";

/**
 * The official clients are the referee of `payable`: for each 402 answer, our verdict must equal
 * whether the official client built a payment for it. Answers come from the official server
 * libraries, from a seller's published document, and from variants seen on catalogued origins.
 */
interface Variant {
  name: string;
  answer: () => Promise<FixtureAnswer>;
  /** v1 answers are also refereed by the v1 client (x402-fetch); both must sign. */
  legacyToo?: boolean;
}

const SOLANA_DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const SOLANA_DEVNET_USDC = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
const OTHER_TOKEN = "0x4200000000000000000000000000000000000042";

const v2 = (entry: Record<string, unknown>, extra: Record<string, unknown> = {}): FixtureAnswer => {
  const header = v2ChallengeHeader("https://seller.example/paid", [entry]);
  const decoded = { ...JSON.parse(Buffer.from(header, "base64").toString("utf8")), ...extra };
  return {
    status: 402,
    headers: { "payment-required": Buffer.from(JSON.stringify(decoded)).toString("base64") },
    body: "{}",
  };
};
const v1 = (entry: Record<string, unknown>): FixtureAnswer => ({
  status: 402,
  body: v1ChallengeBody([entry]),
});

let officialV2: FixtureAnswer[] = [];
let officialV1: FixtureAnswer[] = [];
const official = (list: () => FixtureAnswer[], index: number) => async () => {
  const answer = list()[index];
  if (answer === undefined) throw new Error(`no official answer ${index}`);
  return answer;
};

const VARIANTS: Variant[] = [
  { name: "@x402/express exact EVM, price in dollars", answer: official(() => officialV2, 0) },
  {
    name: "@x402/express exact EVM, a token amount without EIP-712 domain",
    answer: official(() => officialV2, 1),
  },
  { name: "@x402/express exact Solana with a fee payer", answer: official(() => officialV2, 2) },
  { name: "@x402/express upto EVM", answer: official(() => officialV2, 3) },
  { name: "x402-express exact EVM (v1)", answer: official(() => officialV1, 0), legacyToo: true },
  {
    name: "v2 exact on Arbitrum (CAIP-2)",
    answer: async () => v2(v2Entry({ network: "eip155:42161", asset: ARBITRUM_USDC })),
  },
  { name: "v2 exact without extra", answer: async () => v2(v2Entry({ extra: undefined })) },
  { name: "v2 exact with only extra.name", answer: async () => v2(v2Entry({ extra: { name: "USD Coin" } })) },
  {
    name: "v2 exact through Permit2, no EIP-712 token domain",
    answer: async () => v2(v2Entry({ extra: { assetTransferMethod: "permit2" } })),
  },
  { name: "v2 with a v1 network name", answer: async () => v2(v2Entry({ network: "base" })) },
  { name: "v2 with a dollar amount", answer: async () => v2(v2Entry({ amount: "$0.01" })) },
  {
    name: "v2 Solana exact without feePayer",
    answer: async () => v2(v2SolanaEntry({ network: SOLANA_DEVNET, asset: SOLANA_DEVNET_USDC, extra: {} })),
  },
  {
    name: "v2 Solana exact with feePayer",
    answer: async () =>
      v2(v2SolanaEntry({ network: SOLANA_DEVNET, asset: SOLANA_DEVNET_USDC, payTo: SELLER_SOLANA })),
  },
  {
    name: "v2 upto without facilitatorAddress",
    answer: async () => v2(v2Entry({ scheme: "upto", network: "eip155:84532", asset: BASE_SEPOLIA_USDC })),
  },
  { name: "v2 unknown scheme", answer: async () => v2(v2Entry({ scheme: "stream" })) },
  {
    name: "v2 empty accepts with sign-in-with-x (auth only)",
    answer: async () => {
      const header = Buffer.from(
        JSON.stringify({
          x402Version: 2,
          error: "Sign in required",
          resource: { url: "https://seller.example/paid" },
          accepts: [],
          extensions: { "sign-in-with-x": { info: { domain: "seller.example", statement: "Sign in" } } },
        }),
      ).toString("base64");
      return { status: 402, headers: { "payment-required": header }, body: "{}" };
    },
  },
  {
    // The shape key0's x402 access gateway documents (docs.key0.ai, "x402-access"): two plans on
    // Base Sepolia, a plan id beside the EIP-712 domain in extra; its placeholder payTo is a real address here.
    name: "key0 gateway (third-party middleware), as documented",
    answer: async () => {
      const plan = (planId: string, amount: string) => ({
        scheme: "exact",
        network: "eip155:84532",
        asset: BASE_SEPOLIA_USDC,
        amount,
        payTo: SELLER_EVM,
        maxTimeoutSeconds: 900,
        extra: { name: "USDC", version: "2", planId, description: `${planId} plan` },
      });
      const challenge = {
        x402Version: 2,
        resource: {
          url: "https://api.example.com/x402/access",
          method: "POST",
          mimeType: "application/json",
        },
        accepts: [plan("basic", "100000"), plan("pro", "500000")],
        extensions: { key0: { inputSchema: { type: "object", required: ["planId"] } } },
        error: "Payment required",
      };
      const header = Buffer.from(JSON.stringify(challenge)).toString("base64");
      return { status: 402, headers: { "payment-required": header }, body: JSON.stringify(challenge) };
    },
  },
  {
    // The challenge shape stackit.ai documents (stackit.ai/docs/x402): a price in dollars and a
    // chain name under an "x402" key, no accepts.
    name: "a seller's own 402 body without accepts",
    answer: async () => ({
      status: 402,
      body: JSON.stringify({
        error: "payment_required",
        x402: { price_usd: 0.02, token: "USDC", chain: "base", payment_target: SELLER_EVM },
      }),
    }),
  },
  {
    name: "v1 exact on ethereum (only the current client's v1 table)",
    answer: async () =>
      v1(v1Entry({ network: "ethereum", asset: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48" })),
    legacyToo: true,
  },
  {
    name: "v1 upto",
    answer: async () =>
      v1(
        v1Entry({
          scheme: "upto",
          extra: { name: "USD Coin", version: "2", facilitatorAddress: SELLER_EVM },
        }),
      ),
    legacyToo: true,
  },
  { name: "v1 exact on base", answer: async () => v1(v1Entry()), legacyToo: true },
  {
    name: "v1 exact on arbitrum (outside the official table)",
    answer: async () => v1(v1Entry({ network: "arbitrum", asset: ARBITRUM_USDC })),
    legacyToo: true,
  },
  { name: "v1 exact without extra", answer: async () => v1(v1Entry({ extra: undefined })), legacyToo: true },
  {
    name: "v1 exact with a checksum-less token",
    answer: async () => v1(v1Entry({ asset: BASE_USDC.toLowerCase() })),
    legacyToo: true,
  },
  {
    name: "v1 exact on solana-devnet with feePayer",
    answer: async () =>
      v1(
        v1Entry({
          network: "solana-devnet",
          asset: SOLANA_DEVNET_USDC,
          payTo: SELLER_SOLANA,
          extra: { feePayer: SELLER_SOLANA },
        }),
      ),
  },
  {
    name: "v1 exact with a token of unknown chain",
    answer: async () => v1(v1Entry({ asset: OTHER_TOKEN })),
    legacyToo: true,
  },
];

let referee: Referee;
const officialOutcomes: boolean[] = [];

beforeAll(async () => {
  referee = await new Referee().start();
  officialV2 = await officialV2Answers({
    "GET /dollars": {
      accepts: { scheme: "exact", price: "$0.01", network: "eip155:84532", payTo: SELLER_EVM },
    },
    "GET /token": {
      accepts: {
        scheme: "exact",
        price: { amount: "10000", asset: OTHER_TOKEN },
        network: "eip155:84532",
        payTo: SELLER_EVM,
      },
    },
    "GET /solana": {
      accepts: { scheme: "exact", price: "$0.01", network: SOLANA_DEVNET, payTo: SELLER_SOLANA },
    },
    "GET /upto": { accepts: { scheme: "upto", price: "$0.10", network: "eip155:84532", payTo: SELLER_EVM } },
  });
  officialV1 = await officialV1Answers({ "/v1": { price: "$0.01", network: "base-sepolia" } });
});

afterAll(async () => {
  await referee?.stop();
});

describe("payable equals what the official x402 clients sign", () => {
  it.each(VARIANTS)("$name", async (variant) => {
    const answer = await variant.answer();
    const verdicts: RefereeVerdict[] = [await referee.current(answer)];
    if (variant.legacyToo) verdicts.push(await referee.legacyEvm(answer));
    const signed = verdicts.every((v) => v.signed);
    officialOutcomes.push(signed);
    const challenge = parsePaymentChallenge({
      status: answer.status,
      headers: answer.headers ?? {},
      bodyText: typeof answer.body === "string" ? answer.body : null,
    });
    const ours = challenge.options.some((o) => o.payable);
    const why = {
      official: verdicts,
      ours: challenge.options.map((o) => o.unpayable_reasons),
      error: challenge.error,
    };
    expect({ ours, why }).toMatchObject({ ours: signed });
  });

  it("when the table has run, then the official clients signed some variants and refused others", () => {
    expect(officialOutcomes.filter(Boolean).length).toBeGreaterThanOrEqual(8);
    expect(officialOutcomes.filter((signed) => !signed).length).toBeGreaterThanOrEqual(8);
  });
});
