import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { judgeRequirement } from "../../../src/payability/requirement-verdict";
import { parsePaymentChallenge } from "../../../src/payments/challenge";
import { parseBazaarItem } from "../../../src/sources/bazaar/parse";
import {
  ARBITRUM_USDC,
  BASE_USDC,
  PAY_TO_EVM,
  PAY_TO_SOLANA,
  POLYGON_USDC,
  SOLANA_MAINNET,
  v1Entry,
  v2Entry,
  v2SolanaEntry,
} from "../payments/fixtures";

const v2Payload = (accepts: unknown[]) => ({
  x402Version: 2,
  error: "Payment required",
  resource: { url: "https://api.example/v2/search", description: "Web search", mimeType: "application/json" },
  accepts,
});

describe("judgeRequirement: entries a standard client can pay", () => {
  it.each([
    ["a v1 entry with a network name, USDC contract and atomic amount", v1Entry(), 1],
    ["a v1 entry with a CAIP-2 network", v1Entry({ network: "eip155:8453" }), 1],
    ["a v2 entry on Base", v2Entry(), 2],
    ["a v2 entry on Solana", v2SolanaEntry(), 2],
    [
      "a v2 entry in a token that is not USDC",
      v2Entry({ asset: "0x4200000000000000000000000000000000000006" }),
      2,
    ],
    [
      "a v2 entry on a CAIP-2 chain we have no name for",
      v2Entry({ network: "eip155:999999", asset: "0x4200000000000000000000000000000000000006" }),
      2,
    ],
    ["a free entry (amount 0)", v2Entry({ amount: "0" }), 2],
    ["a lower-case EVM asset", v2Entry({ asset: BASE_USDC.toLowerCase() }), 2],
  ] as const)("when %s, then it is payable", (_name, entry, version) => {
    expect(judgeRequirement(entry, version)).toEqual({ payable: true, reasons: [] });
  });
});

describe("judgeRequirement: entries it cannot pay, with the reason", () => {
  it.each([
    [
      "the asset is the symbol USDC",
      v1Entry({ asset: "USDC" }),
      1,
      /asset "USDC" is not a token contract address/,
    ],
    ["the asset is missing", v2Entry({ asset: undefined }), 2, /^asset is missing$/],
    ["the asset is the zero address", v2Entry({ asset: `0x${"0".repeat(40)}` }), 2, /zero address/],
    [
      "the asset is Polygon's USDC on Base",
      v2Entry({ asset: POLYGON_USDC }),
      2,
      /USDC contract of eip155:137/,
    ],
    ["the asset is an EVM address on Solana", v2SolanaEntry({ asset: BASE_USDC }), 2, /base58 public key/],
    ["the amount is a dollar price", v1Entry({ maxAmountRequired: "$0.01" }), 1, /"\$0.01" is not an atomic/],
    ["the amount is a decimal", v2Entry({ amount: "0.01" }), 2, /"0.01" is not an atomic integer/],
    ["the amount is a JSON number", v2Entry({ amount: 10000 }), 2, /amount is a number/],
    ["the amount is missing", v2Entry({ amount: undefined }), 2, /^amount is missing$/],
    [
      "a v2 entry uses v1's amount field",
      v2Entry({ amount: undefined, maxAmountRequired: "10" }),
      2,
      /other protocol/,
    ],
    ["the network is missing", v2Entry({ network: undefined }), 2, /^network is missing$/],
    [
      "the network is an unknown name",
      v1Entry({ network: "base-goerli-2" }),
      1,
      /neither CAIP-2 nor a known/,
    ],
    ["the network is spelt Base", v1Entry({ network: "Base" }), 1, /not a standard x402 network name/],
    ["a v2 entry names its network base", v2Entry({ network: "base" }), 2, /v1 name in a v2 entry/],
    ["the network is a malformed CAIP-2", v2Entry({ network: "eip155:" }), 2, /not a CAIP-2 chain id/],
    [
      "the network is a chain family without x402 clients",
      v2Entry({ network: "cosmos:cosmoshub-4" }),
      2,
      /chain family/,
    ],
    ["the scheme is unknown", v2Entry({ scheme: "subscription" }), 2, /scheme "subscription" is not one/],
    ["the scheme is missing", v2Entry({ scheme: undefined }), 2, /^scheme is missing$/],
    ["payTo is missing", v2Entry({ payTo: undefined }), 2, /^payTo is missing$/],
    [
      "payTo is a Solana key on Base",
      v2Entry({ payTo: PAY_TO_SOLANA }),
      2,
      /payTo .* is not valid on eip155:8453/,
    ],
    ["payTo is an EVM address on Solana", v2SolanaEntry({ payTo: PAY_TO_EVM }), 2, /not valid on solana:/],
    ["payTo is an ENS name", v2Entry({ payTo: "merchant.eth" }), 2, /payTo "merchant.eth" is not valid/],
    ["payTo is the zero address", v2Entry({ payTo: `0x${"0".repeat(40)}` }), 2, /payTo is the zero address/],
  ] as const)("when %s, then it is not payable", (_name, entry, version, reason) => {
    const verdict = judgeRequirement(entry, version);
    expect(verdict.payable).toBe(false);
    expect(verdict.reasons).toEqual([expect.stringMatching(reason)]);
  });

  it("when several fields are wrong, then every reason is given", () => {
    const verdict = judgeRequirement(
      { scheme: "exact", network: "Base", asset: "USDC", maxAmountRequired: "0.01" },
      1,
    );
    expect(verdict.reasons).toEqual([
      expect.stringMatching(/network "Base"/),
      expect.stringMatching(/asset "USDC"/),
      expect.stringMatching(/maxAmountRequired "0.01"/),
      "payTo is missing",
    ]);
  });
});

describe("payability through the dialects a seller publishes in", () => {
  it("when a v1 402 body lists USDC by symbol, then its option is not payable while a good one is", () => {
    const body = JSON.stringify({ x402Version: 1, accepts: [v1Entry({ asset: "USDC" }), v1Entry()] });
    const { options } = parsePaymentChallenge({ status: 402, headers: {}, bodyText: body });
    expect(options.map((o) => o.payable)).toEqual([false, true]);
    expect(options[0]?.unpayable_reasons).toEqual([expect.stringMatching(/asset "USDC"/)]);
  });

  it("when only the v2 PAYMENT-REQUIRED header carries the challenge (empty body), then it is judged", () => {
    const header = encodePaymentRequiredHeader(v2Payload([v2SolanaEntry()]) as PaymentRequired);
    const { options } = parsePaymentChallenge({
      status: 402,
      headers: { "payment-required": header },
      bodyText: "",
    });
    expect(options).toMatchObject([{ network: SOLANA_MAINNET, payable: true, unpayable_reasons: [] }]);
  });

  it("when v2 fields come in the body instead of the header, then they are judged as v2", () => {
    const body = JSON.stringify(v2Payload([v2Entry({ network: "base" })]));
    const { options } = parsePaymentChallenge({ status: 402, headers: {}, bodyText: body });
    expect(options[0]?.payable).toBe(false);
    expect(options[0]?.unpayable_reasons).toEqual([expect.stringMatching(/v1 name in a v2 entry/)]);
  });

  it("when a feed item lists a human price, then its option says why it cannot be paid", () => {
    const item = parseBazaarItem(
      {
        resource: "https://api.example/v1/x",
        x402Version: 1,
        accepts: [v1Entry({ maxAmountRequired: "0.01" })],
      },
      1,
    );
    if (typeof item === "string") throw new Error(item);
    expect(item.paymentOptions[0]).toMatchObject({ price_usdc: "0.01", payable: false });
  });
});

describe("judgeRequirement against the official clients' rules", () => {
  const reasonsOf = (entry: Record<string, unknown>, version: 1 | 2) =>
    judgeRequirement(entry, version).reasons;

  it("when an EVM exact entry lacks the EIP-712 version, then it is not payable and says why", () => {
    expect(reasonsOf(v2Entry({ extra: { name: "USD Coin" } }), 2)).toEqual([
      "extra.version missing: the client cannot sign the token's EIP-712 domain",
    ]);
  });

  it("when an EVM exact entry pays through Permit2, then the token's domain is not needed", () => {
    expect(reasonsOf(v2Entry({ extra: { assetTransferMethod: "permit2" } }), 2)).toEqual([]);
  });

  it("when a v1 entry names arbitrum, then it is not payable: the official v1 table lacks it", () => {
    expect(reasonsOf(v1Entry({ network: "arbitrum", asset: ARBITRUM_USDC }), 1)).toEqual([
      `network "arbitrum" (eip155:42161) is not in the official x402 clients' v1 network table`,
    ]);
  });

  it("when an entry is upto, then its reason never says that no client implements it", () => {
    const reasons = reasonsOf(v2Entry({ scheme: "upto" }), 2);
    expect(reasons).toEqual(["extra.facilitatorAddress missing or not an address: the upto client needs it"]);
    expect(reasonsOf(v2Entry({ scheme: "upto", extra: { facilitatorAddress: PAY_TO_EVM } }), 2)).toEqual([]);
  });

  it("when a Solana exact entry has no feePayer, then it is not payable", () => {
    expect(reasonsOf(v2SolanaEntry({ extra: {} }), 2)).toEqual([
      "extra.feePayer missing or not a public key: the Solana client needs a fee payer",
    ]);
  });
});
