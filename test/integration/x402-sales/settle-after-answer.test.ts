import { decodePaymentRequiredHeader } from "@x402/core/http";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { X402Sales } from "../../../src/x402-sales/x402-sales";
import { seedServices } from "../../support/catalogue";
import type { TestDatabase } from "../../support/database";
import { type Eip3009Chain, PAYER_KEY } from "../../support/eip3009-chain";
import type { SwitchableProxy } from "../../support/switchable-proxy";
import { PAY_TO, payingFetch, type SalesBed, startSalesBed } from "../../support/x402-sales";

const SEARCH_PRICE = 1000n; // 0.001 USDC
const PAYER = privateKeyToAccount(PAYER_KEY).address.toLowerCase();

describe("a paid call is answered first and settled after", () => {
  let bed: SalesBed;
  let database: TestDatabase;
  let chain: Eip3009Chain;
  let proxy: SwitchableProxy;
  let sales: X402Sales;
  let baseUrl: string;
  /** When set, the facilitator's chain is cut as soon as a payment is verified. */
  let cutAfterVerify = false;
  /** When set, the facilitator takes this long more to settle. */
  let settleDelayMs = 0;
  /** When set, the facilitator submits the settlement and its answer is lost on the way back. */
  let loseSettleAnswer = false;
  /** The transactions of the settlements whose answers were lost. */
  const lost: string[] = [];

  beforeAll(async () => {
    // The facilitator reaches the chain through the proxy; every keyless call pays.
    bed = await startSalesBed({
      config: {
        X402_PAID_ROUTES: "search,detail",
        X402_FREE_CALLS_PER_WALLET: "0",
        X402_SETTLE_RETRY_SECONDS: "1",
        X402_SETTLE_WAIT_SECONDS: "2",
      },
      throughProxy: true,
      wrap: (facilitator, through) => ({
        ...facilitator,
        verify: async (payload, requirements) => {
          const verified = await facilitator.verify(payload, requirements);
          if (cutAfterVerify) through?.cut();
          return verified;
        },
        settle: async (payload, requirements) => {
          await new Promise((resolve) => setTimeout(resolve, settleDelayMs));
          const settled = await facilitator.settle(payload, requirements);
          if (!loseSettleAnswer) return settled;
          lost.push(settled.transaction);
          // What a facilitator client reports when the connection drops before the answer.
          throw new Error("socket hang up");
        },
      }),
    });
    ({ database, chain, sales, baseUrl } = bed);
    proxy = bed.proxy as SwitchableProxy;
    await seedServices(database.db, [{ name: "Stock Quotes", domain: "quotes.test", category: "Finance" }]);
  }, 120_000);
  afterAll(async () => {
    await bed?.close();
  });

  it("when the chain is unreachable at settlement, then the answer is sent, the payment stays pending, and a retry settles it once the chain is back", async () => {
    const url = `${baseUrl}/v1/services?q=stock`;
    const before = await chain.balanceOf(PAY_TO);
    cutAfterVerify = true;
    const sent: Headers[] = [];
    const paid = await payingFetch(PAYER_KEY, sent)(url);
    cutAfterVerify = false;

    // Answered, without a settlement: none happened in time.
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { total: number }).total).toBe(1);
    expect(paid.headers.get("payment-response")).toBeNull();
    const pending = await vi.waitFor(
      async () => {
        const row = await database.db.x402Payment.findFirstOrThrow({ where: { payer: PAYER } });
        expect(row.attempts).toBe(1);
        return row;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(pending).toEqual(
      expect.objectContaining({ status: "pending", transaction: null, route: "GET /v1/services" }),
    );
    expect(pending.failureReason).toBeTruthy();
    expect(await chain.balanceOf(PAY_TO)).toBe(before);

    // The chain is back. The same authorisation again while it is pending: the facilitator
    // finds it valid (not spent on chain yet), and the catalogue refuses it as a replay.
    proxy.restore();
    const signature = sent.map((headers) => headers.get("payment-signature")).find((value) => value !== null);
    const replay = await fetch(url, { headers: { "PAYMENT-SIGNATURE": String(signature) } });
    expect(replay.status).toBe(402);
    expect(decodePaymentRequiredHeader(String(replay.headers.get("payment-required"))).error).toBe(
      "payment_already_used",
    );

    // The retry settles it, once.
    await vi.waitFor(
      async () => {
        await sales.settlements.retryDue();
        const row = await database.db.x402Payment.findUniqueOrThrow({ where: { id: pending.id } });
        expect(row.status).toBe("settled");
      },
      { timeout: 30_000, interval: 500 },
    );
    const settled = await database.db.x402Payment.findUniqueOrThrow({ where: { id: pending.id } });
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(settled.paymentPayload).toBeNull();
    expect(await chain.balanceOf(PAY_TO)).toBe(before + SEARCH_PRICE);

    // Nothing is left to retry, and the payment is one row and one event.
    expect(await sales.settlements.retryDue()).toBe(0);
    expect(await database.db.x402Payment.count({ where: { payer: PAYER } })).toBe(1);
    const events = await database.db.event.findMany({ where: { type: { startsWith: "x402_payment." } } });
    expect(events.map((event) => event.type)).toEqual(["x402_payment.settled"]);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + SEARCH_PRICE);
  });

  it("when the chain answers, then the paid answer carries its settlement and the payment is settled", async () => {
    const before = await chain.balanceOf(PAY_TO);
    const paid = await payingFetch(PAYER_KEY)(`${baseUrl}/v1/endpoints?q=quote`);
    expect(paid.status).toBe(200);
    expect(paid.headers.get("payment-response")).not.toBeNull();
    expect(paid.headers.get("cache-control")).toContain("private");
    expect(await chain.balanceOf(PAY_TO)).toBe(before + SEARCH_PRICE);
    const row = await database.db.x402Payment.findFirstOrThrow({ where: { route: "GET /v1/endpoints" } });
    expect(row.status).toBe("settled");
  });

  it("when settling takes longer than the wait, then the answer comes without PAYMENT-RESPONSE and the same attempt settles it after", async () => {
    const before = await chain.balanceOf(PAY_TO);
    settleDelayMs = 4_000;
    const paid = await payingFetch(PAYER_KEY)(`${baseUrl}/v1/endpoints?q=stock`);
    settleDelayMs = 0;
    expect(paid.status).toBe(200);
    expect(paid.headers.get("payment-response")).toBeNull();
    const settled = await vi.waitFor(
      async () => {
        const row = await database.db.x402Payment.findFirstOrThrow({
          where: { route: "GET /v1/endpoints", createdAt: { gte: new Date(Date.now() - 30_000) } },
          orderBy: { createdAt: "desc" },
        });
        expect(row.status).toBe("settled");
        return row;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(settled.attempts).toBe(1);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + SEARCH_PRICE);
  });

  it("when the route fails after the payment is verified, then nothing is settled or recorded", async () => {
    const before = await chain.balanceOf(PAY_TO);
    const recorded = await database.db.x402Payment.count();
    // The id names no service: the route answers 404 once the payment is verified.
    const answer = await payingFetch(PAYER_KEY)(
      `${baseUrl}/v1/services/00000000-0000-4000-8000-000000000000`,
      {},
    );
    expect(answer.status).toBe(404);
    expect(await database.db.x402Payment.count()).toBe(recorded);
    expect(await chain.balanceOf(PAY_TO)).toBe(before);
  });

  it("when the authorisation runs out before the chain is back, then the payment is recorded failed, once", async () => {
    const before = await chain.balanceOf(PAY_TO);
    cutAfterVerify = true;
    const paid = await payingFetch(PAYER_KEY)(`${baseUrl}/v1/services?q=quotes`);
    cutAfterVerify = false;
    expect(paid.status).toBe(200);
    const pending = await vi.waitFor(
      async () => {
        const row = await database.db.x402Payment.findFirstOrThrow({
          where: { status: "pending", route: "GET /v1/services" },
        });
        expect(row.attempts).toBe(1);
        return row;
      },
      { timeout: 30_000, interval: 200 },
    );
    // The authorisation ends before the next pause would: this attempt is the last.
    await database.db.x402Payment.update({
      where: { id: pending.id },
      data: { validBefore: new Date(Date.now() + 1_500), nextAttemptAt: new Date() },
    });
    expect(await sales.settlements.retryDue()).toBe(1);
    const failed = await database.db.x402Payment.findUniqueOrThrow({ where: { id: pending.id } });
    expect(failed).toEqual(expect.objectContaining({ status: "failed", attempts: 2, transaction: null }));
    expect(failed.failureReason).toBeTruthy();

    proxy.restore();
    expect(await sales.settlements.retryDue()).toBe(0);
    const events = await database.db.event.findMany({ where: { type: "x402_payment.failed" } });
    expect(events).toHaveLength(1);
    expect(await chain.balanceOf(PAY_TO)).toBe(before);
  });

  it("when the facilitator submits the settlement and its answer is lost, then the chain lookup finds the transaction and records the payment settled once", async () => {
    const before = await chain.balanceOf(PAY_TO);
    const rows = await database.db.x402Payment.count();
    loseSettleAnswer = true;
    const paid = await payingFetch(PAYER_KEY)(`${baseUrl}/v1/services?q=finance`);
    loseSettleAnswer = false;

    // Answered without a settlement: the facilitator's answer never came; the money moved.
    expect(paid.status).toBe(200);
    expect(paid.headers.get("payment-response")).toBeNull();
    expect(lost).toHaveLength(1);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + SEARCH_PRICE);

    // The facilitator refuses the spent authorisation on any retry; the chain says it paid.
    const payment = await database.db.x402Payment.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    await vi.waitFor(
      async () => {
        await sales.settlements.retryDue();
        const row = await database.db.x402Payment.findUniqueOrThrow({ where: { id: payment.id } });
        expect(row.status).toBe("settled");
      },
      { timeout: 20_000, interval: 500 },
    );
    const settled = await database.db.x402Payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(settled).toEqual(
      expect.objectContaining({ transaction: lost[0], failureReason: null, paymentPayload: null }),
    );

    // One row, one event, nothing left to retry, and the payer paid once.
    expect(await sales.settlements.retryDue()).toBe(0);
    expect(await database.db.x402Payment.count()).toBe(rows + 1);
    expect((await paymentEvents(payment.id)).map((event) => event.type)).toEqual(["x402_payment.settled"]);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + SEARCH_PRICE);
  });

  it("when the payer cancels the authorisation before it settles, then the payment is recorded failed with that reason, once", async () => {
    const before = await chain.balanceOf(PAY_TO);
    cutAfterVerify = true;
    const paid = await payingFetch(PAYER_KEY)(`${baseUrl}/v1/services?q=cancel`);
    cutAfterVerify = false;
    expect(paid.status).toBe(200);
    const pending = await vi.waitFor(
      async () => {
        const row = await database.db.x402Payment.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
        expect(row).toEqual(expect.objectContaining({ status: "pending", attempts: 1 }));
        return row;
      },
      { timeout: 30_000, interval: 200 },
    );

    await chain.cancelAuthorization(PAYER_KEY, pending.nonce as `0x${string}`);
    proxy.restore();
    await database.db.x402Payment.update({ where: { id: pending.id }, data: { nextAttemptAt: new Date() } });
    expect(await sales.settlements.retryDue()).toBe(1);

    const failed = await database.db.x402Payment.findUniqueOrThrow({ where: { id: pending.id } });
    expect(failed).toEqual(expect.objectContaining({ status: "failed", transaction: null }));
    expect(failed.failureReason).toMatch(
      /^the payer cancelled the authorisation \(transaction 0x[0-9a-f]{64}\)$/,
    );
    expect(await sales.settlements.retryDue()).toBe(0);
    expect((await paymentEvents(pending.id)).map((event) => event.type)).toEqual(["x402_payment.failed"]);
    expect(await chain.balanceOf(PAY_TO)).toBe(before);
  });

  /** The events of one payment. */
  function paymentEvents(id: string) {
    return database.db.event.findMany({ where: { data: { path: ["x402_payment", "id"], equals: id } } });
  }
});
