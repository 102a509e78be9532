import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, issueKey } from "../../support/accounts";
import { type PublishedKeys, verifyAnswer } from "../../support/answer-signatures";
import { createTestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import type { TestDatabase } from "../../support/database";
import { type Eip3009Chain, NETWORK, PAYER_KEY, POOR_PAYER_KEY } from "../../support/eip3009-chain";
import {
  listen,
  PAY_TO,
  payingFetch,
  type SalesBed,
  salesFor,
  startSalesBed,
} from "../../support/x402-sales";

const SEARCH_PRICE = 1000n; // 0.001 USDC

describe("the catalogue sells its API over x402", () => {
  let bed: SalesBed;
  let database: TestDatabase;
  let chain: Eip3009Chain;
  let baseUrl: string;
  let keys: PublishedKeys;
  let reader: string;

  beforeAll(async () => {
    bed = await startSalesBed({ accountSettings: { anonymousRequestsPerMinute: 2 } });
    ({ database, chain, baseUrl } = bed);
    await seedServices(database.db, [{ name: "Stock Quotes", domain: "quotes.test", category: "Finance" }]);
    // Read with a key: the anonymous allowance (2 a minute here) is the tests' to spend.
    reader = (await issueKey(database.db, "reader", "live", ["catalogue:read"])).key;
    keys = (await (
      await fetch(`${baseUrl}/.well-known/x402-catalogue-keys.json`, { headers: bearer(reader) })
    ).json()) as PublishedKeys;
  }, 120_000);
  afterAll(async () => {
    await bed?.close();
  });

  it("when the allowance is used up, then a 402 challenge comes, the @x402/fetch client pays, and USDC moves on chain", async () => {
    const url = `${baseUrl}/v1/services?q=stock`;
    for (let i = 0; i < 2; i += 1) expect((await fetch(url)).status).toBe(200);
    const challenge = await fetch(url);
    expect(challenge.status).toBe(402);
    const required = decodePaymentRequiredHeader(String(challenge.headers.get("payment-required")));
    expect(required.x402Version).toBe(2);
    expect(required.accepts).toEqual([
      expect.objectContaining({
        scheme: "exact",
        network: NETWORK,
        amount: "1000",
        payTo: PAY_TO,
        asset: chain.usdc,
      }),
    ]);
    expect(await challenge.json()).toEqual(
      expect.objectContaining({ x402Version: 2, accepts: required.accepts }),
    );
    expect(JSON.stringify(required.extensions?.bazaar)).toContain('"q"');

    const before = await chain.balanceOf(PAY_TO);
    const sent: Headers[] = [];
    const paid = await payingFetch(PAYER_KEY, sent)(url);
    expect(paid.status).toBe(200);
    const paidBody = paid.arrayBuffer();
    expect((JSON.parse(Buffer.from(await paidBody).toString("utf8")) as { total: number }).total).toBe(1);
    const settlement = decodePaymentResponseHeader(String(paid.headers.get("payment-response")));
    expect(settlement.success).toBe(true);
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + SEARCH_PRICE);
    expect(
      verifyAnswer(keys, {
        method: "GET",
        target: "/v1/services?q=stock",
        status: 200,
        body: new Uint8Array(await paidBody),
        header: paid.headers.get("x-catalogue-signature"),
      }),
    ).toBe(true);

    // The same payment again: the authorisation's nonce is spent on chain, so it is refused.
    const signature = sent.map((headers) => headers.get("payment-signature")).find((value) => value !== null);
    expect(signature).toBeTruthy();
    const replay = await fetch(url, { headers: { "PAYMENT-SIGNATURE": String(signature) } });
    expect(replay.status).toBe(402);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + SEARCH_PRICE);

    // The operator's record: one settled payment, with its transaction; a key without x402:read is refused.
    const { key } = await issueKey(database.db, "operator", "live", ["x402:read"]);
    const recorded = (await (
      await fetch(`${baseUrl}/v1/x402-payments`, { headers: bearer(key) })
    ).json()) as {
      items: Record<string, unknown>[];
      total: number;
    };
    expect(recorded.total).toBe(1);
    expect(recorded.items[0]).toEqual(
      expect.objectContaining({
        status: "settled",
        route: "GET /v1/services",
        network: NETWORK,
        payer: privateKeyToAccount(PAYER_KEY).address.toLowerCase(),
        pay_to: PAY_TO,
        amount: "0.001000",
        transaction: settlement.transaction,
      }),
    );
    const csv = await (await fetch(`${baseUrl}/v1/x402-payments.csv`, { headers: bearer(key) })).text();
    expect(csv.split("\r\n")[1]).toContain(settlement.transaction);
    expect((await fetch(`${baseUrl}/v1/x402-payments`, { headers: bearer(reader) })).status).toBe(403);

    // The settlement is an event of the operator's organisation (X402_OPERATOR_ORG, default "operator").
    const { key: operatorEvents } = await issueKey(database.db, "operator", "live", ["catalogue:read"]);
    const events = (await (
      await fetch(`${baseUrl}/v1/events?types=x402_payment.settled`, { headers: bearer(operatorEvents) })
    ).json()) as { items: { type: string; data: { x402_payment: { transaction: string } } }[] };
    expect(events.items.map((event) => [event.type, event.data.x402_payment.transaction])).toEqual([
      ["x402_payment.settled", settlement.transaction],
    ]);
  });

  it("when a wallet is named in X-WALLET, then it gets its free calls, and other wallets from the same address get none", async () => {
    const url = `${baseUrl}/v1/services?q=stock`;
    const wallet = { "X-WALLET": "0x00000000000000000000000000000000000000a1" };
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await fetch(url, { headers: wallet });
      expect(answer.status).toBe(200);
      remaining.push(answer.headers.get("x-free-calls-remaining"));
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    expect((await fetch(url, { headers: wallet })).status).toBe(402);
    const other = { "X-WALLET": "0x00000000000000000000000000000000000000a2" };
    expect((await fetch(url, { headers: other })).status).toBe(402);
  });

  it("when the OpenAPI document and llms.txt are read, then the paid operations carry their prices", async () => {
    // A key: this address has used up its anonymous allowance, and these routes are not sold.
    const { key } = await issueKey(database.db, "docs-reader", "live", ["catalogue:read"]);
    const document = (await (await fetch(`${baseUrl}/openapi.json`, { headers: bearer(key) })).json()) as {
      paths: Record<
        string,
        Record<string, { "x-x402"?: { price_usdc: string }; responses: Record<string, unknown> }>
      >;
    };
    expect(document.paths["/v1/services/{id}"]?.get?.["x-x402"]?.price_usdc).toBe("0.001000");
    expect(document.paths["/v1/services/{id}"]?.get?.responses["402"]).toBeDefined();
    expect(document.paths["/v1/categories"]?.get?.["x-x402"]).toBeUndefined();
    const llms = await (await fetch(`${baseUrl}/llms.txt`, { headers: bearer(key) })).text();
    expect(llms).toContain("## Paying per call (x402)");
    expect(llms).toContain("`GET /v1/services/:id`: 0.001000 USDC a call, past the anonymous allowance");
  });

  it("when the payer holds too little USDC, then the payment is refused with 402 and the reason", async () => {
    const before = await chain.balanceOf(PAY_TO);
    const answer = await payingFetch(POOR_PAYER_KEY, [])(`${baseUrl}/v1/endpoints?q=quote`);
    expect(answer.status).toBe(402);
    const required = decodePaymentRequiredHeader(String(answer.headers.get("payment-required")));
    expect(required.error).toMatch(/insufficient/i);
    expect(await chain.balanceOf(PAY_TO)).toBe(before);
  });

  it("when a request carries a valid API key, then it is never asked to pay, past the anonymous allowance too", async () => {
    const { key } = await issueKey(database.db, "acme", "live", ["catalogue:read"]);
    for (let i = 0; i < 3; i += 1) {
      const answer = await fetch(`${baseUrl}/v1/services`, { headers: bearer(key) });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("payment-required")).toBeNull();
    }
  });

  it("when the route is not sold, then past the allowance it is 429 as without selling", async () => {
    expect((await fetch(`${baseUrl}/v1/categories`)).status).toBe(429);
  });

  it("when the manifest is read, then it lists every sold route with its price", async () => {
    const manifest = (await (
      await fetch(`${baseUrl}/.well-known/x402`, { headers: bearer(reader) })
    ).json()) as {
      resources: { resource: string; method: string; accepts: { amount: string; network: string }[] }[];
    };
    expect(manifest.resources.map((r) => `${r.method} ${new URL(r.resource).pathname}`)).toEqual([
      "GET /v1/services",
      "GET /v1/endpoints",
      "GET /v1/services/:id/history",
      "GET /v1/services/:id/history/daily",
      "GET /v1/services/:id",
      "POST /v1/preflight",
      "POST /mcp",
      "GET /v1/services.csv",
      "GET /v1/history.csv",
    ]);
    const accepts = (path: string) =>
      manifest.resources.find((r) => `${r.method} ${new URL(r.resource).pathname}` === path)?.accepts;
    expect(accepts("GET /v1/services")).toEqual([
      expect.objectContaining({ amount: "1000", network: NETWORK }),
    ]);
    // Preflight is priced as its own group (0.002 USDC).
    expect(accepts("POST /v1/preflight")).toEqual([
      expect.objectContaining({ amount: "2000", network: NETWORK }),
    ]);
    // The CSV exports show their price per 1,000 rows (0.01 USDC).
    expect(accepts("GET /v1/services.csv")).toEqual([
      expect.objectContaining({ amount: "10000", network: NETWORK }),
    ]);
  });

  it("when the facilitator cannot be reached, then the answer says so and nothing is charged", async () => {
    const unreachable = createTestApp(database, {
      sales: await salesFor(chain, database.db, bed.pool, { X402_FACILITATOR_URL: "http://127.0.0.1:9/" }),
      accountSettings: { anonymousRequestsPerMinute: 0 },
    });
    const { baseUrl: otherUrl, close: closeOther } = await listen(unreachable.app);
    try {
      const before = await chain.balanceOf(PAY_TO);
      const recorded = await database.db.x402Payment.count();
      const answer = await payingFetch(PAYER_KEY, [])(`${otherUrl}/v1/services`);
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { message: string }).message).toMatch(
        /facilitator cannot be reached; nothing was charged/,
      );
      expect(await chain.balanceOf(PAY_TO)).toBe(before);
      expect(await database.db.x402Payment.count()).toBe(recorded);
    } finally {
      await closeOther();
      await unreachable.close();
    }
  });
});
