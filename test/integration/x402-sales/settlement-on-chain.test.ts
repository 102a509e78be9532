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

describe("a settlement whose outcome is not known is looked up on chain", () => {
  let bed: SalesBed;
  let database: TestDatabase;
  let chain: Eip3009Chain;
  let proxy: SwitchableProxy;
  let sales: X402Sales;
  let baseUrl: string;
  /** When set, the facilitator submits the settlement and its answer is lost on the way back. */
  let loseSettleAnswer = false;
  /** The transactions of the settlements whose answers were lost. */
  const lost: string[] = [];
  /** When set, the facilitator's chain is cut as soon as a payment is verified. */
  let cutAfterVerify = false;

  beforeAll(async () => {
    bed = await startSalesBed({
      config: {
        X402_PAID_ROUTES: "search,detail",
        X402_FREE_CALLS_PER_WALLET: "0",
        X402_SETTLE_RETRY_SECONDS: "1",
        X402_SETTLE_WAIT_SECONDS: "5",
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

  it("when the facilitator submits the settlement and its answer is lost, then the chain lookup finds the transaction and records the payment settled once", async () => {
    const before = await chain.balanceOf(PAY_TO);
    loseSettleAnswer = true;
    const paid = await payingFetch(PAYER_KEY)(`${baseUrl}/v1/services?q=stock`);
    loseSettleAnswer = false;

    // Answered without a settlement: the facilitator's answer never came; the money moved.
    expect(paid.status).toBe(200);
    expect(paid.headers.get("payment-response")).toBeNull();
    expect(lost).toHaveLength(1);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + SEARCH_PRICE);

    // The facilitator refuses the spent authorisation on any retry; the chain says it paid.
    const pending = await database.db.x402Payment.findFirstOrThrow({ where: { payer: PAYER } });
    await vi.waitFor(
      async () => {
        await sales.settlements.retryDue();
        const row = await database.db.x402Payment.findUniqueOrThrow({ where: { id: pending.id } });
        expect(row.status).toBe("settled");
      },
      { timeout: 20_000, interval: 500 },
    );
    const settled = await database.db.x402Payment.findUniqueOrThrow({ where: { id: pending.id } });
    expect(settled).toEqual(
      expect.objectContaining({ transaction: lost[0], failureReason: null, paymentPayload: null }),
    );

    // One row, one event, nothing left to retry, and the payer paid once.
    expect(await sales.settlements.retryDue()).toBe(0);
    expect(await database.db.x402Payment.count({ where: { payer: PAYER } })).toBe(1);
    const events = await database.db.event.findMany({ where: { type: { startsWith: "x402_payment." } } });
    expect(events.map((event) => event.type)).toEqual(["x402_payment.settled"]);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + SEARCH_PRICE);
  });

  it("when the payer cancels the authorisation before it settles, then the payment is recorded failed with that reason, once", async () => {
    const before = await chain.balanceOf(PAY_TO);
    cutAfterVerify = true;
    const paid = await payingFetch(PAYER_KEY)(`${baseUrl}/v1/services?q=quotes`);
    cutAfterVerify = false;
    expect(paid.status).toBe(200);
    const pending = await vi.waitFor(
      async () => {
        const row = await database.db.x402Payment.findFirstOrThrow({
          where: { status: "pending", payer: PAYER },
        });
        expect(row.attempts).toBe(1);
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
    const events = await database.db.event.findMany({ where: { type: "x402_payment.failed" } });
    expect(events).toHaveLength(1);
    expect(await chain.balanceOf(PAY_TO)).toBe(before);
  });
});
