import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, issueKey } from "../../support/accounts";
import { seedServices } from "../../support/catalogue";
import type { TestDatabase } from "../../support/database";
import { type Eip3009Chain, NETWORK, PAYER_KEY } from "../../support/eip3009-chain";
import { PAY_TO, payerClient, payingFetch, type SalesBed, startSalesBed } from "../../support/x402-sales";

/** The default CSV price: 0.01 USDC per 1,000 rows, in atomic units. */
const PER_THOUSAND = 10_000n;
const HISTORY_ROWS = 2_500;
const FREE_ROWS = 10;

/** The amount the 402 challenge of `url` asks for. */
async function challengedAmount(url: string, headers: Record<string, string> = {}): Promise<bigint> {
  const answer = await fetch(url, { headers });
  expect(answer.status).toBe(402);
  const required = decodePaymentRequiredHeader(String(answer.headers.get("payment-required")));
  expect(required.accepts).toHaveLength(1);
  return BigInt(required.accepts[0]?.amount ?? "0");
}

const dataRows = (csv: string) => csv.split("\r\n").filter((line) => line !== "").length - 1;

describe("the CSV exports are sold per 1,000 rows", () => {
  let bed: SalesBed;
  let database: TestDatabase;
  let chain: Eip3009Chain;
  let baseUrl: string;

  beforeAll(async () => {
    bed = await startSalesBed({ accountSettings: { anonymousCsvRowsPerDay: FREE_ROWS } });
    ({ database, chain, baseUrl } = bed);
    const [serviceId] = await seedServices(database.db, [{ name: "Stock Quotes", domain: "quotes.test" }]);
    await database.db.$executeRaw`
      INSERT INTO stats_snapshots (service_id, observed_from, observed_to, updated_at)
      SELECT ${serviceId}::uuid, t, t, now()
      FROM generate_series(1, ${HISTORY_ROWS}) AS n, LATERAL (SELECT timestamp '2026-01-01' + n * interval '1 hour' AS t) AS at`;
  }, 120_000);
  afterAll(async () => {
    await bed?.close();
  });

  it("when the daily CSV rows are spent, then an export's challenge asks for its rows rounded up to the next 1,000", async () => {
    // Within the anonymous allowance an export is free.
    const free = await fetch(`${baseUrl}/v1/history.csv?limit=${FREE_ROWS}`);
    expect(free.status).toBe(200);
    expect(dataRows(await free.text())).toBe(FREE_ROWS);

    expect(await challengedAmount(`${baseUrl}/v1/history.csv`)).toBe(3n * PER_THOUSAND);
    expect(await challengedAmount(`${baseUrl}/v1/history.csv?limit=1000`)).toBe(PER_THOUSAND);
    expect(await challengedAmount(`${baseUrl}/v1/history.csv?limit=1001`)).toBe(2n * PER_THOUSAND);
    // One service: a single row costs the first 1,000.
    expect(await challengedAmount(`${baseUrl}/v1/services.csv`)).toBe(PER_THOUSAND);
    // A free trial wallet gets calls, not exports.
    const trial = { "X-WALLET": "0x00000000000000000000000000000000000000a1" };
    expect(await challengedAmount(`${baseUrl}/v1/history.csv?limit=5`, trial)).toBe(PER_THOUSAND);
    // A malformed export is refused before any price is asked.
    expect((await fetch(`${baseUrl}/v1/history.csv?limit=0`)).status).toBe(400);
  });

  it("when the @x402/fetch client pays for 1,200 rows, then 2,000 rows' price moves on chain and the 1,200 rows come", async () => {
    const before = await chain.balanceOf(PAY_TO);
    const paid = await payingFetch(PAYER_KEY)(`${baseUrl}/v1/history.csv?limit=1200`);
    expect(paid.status).toBe(200);
    expect(paid.headers.get("content-type")).toContain("text/csv");
    expect(dataRows(await paid.text())).toBe(1200);
    const settlement = decodePaymentResponseHeader(String(paid.headers.get("payment-response")));
    expect(settlement.success).toBe(true);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + 2n * PER_THOUSAND);
    const recorded = await database.db.x402Payment.findFirstOrThrow({
      where: { route: "GET /v1/history.csv" },
    });
    expect(recorded).toEqual(
      expect.objectContaining({ status: "settled", amountUnits: 2n * PER_THOUSAND, network: NETWORK }),
    );
  });

  it("when a payment for 1,000 rows is offered for an export of 2,500, then it is refused and no row is sent", async () => {
    const before = await chain.balanceOf(PAY_TO);
    const small = await fetch(`${baseUrl}/v1/history.csv?limit=1000`);
    const required = decodePaymentRequiredHeader(String(small.headers.get("payment-required")));
    const payment = await payerClient(PAYER_KEY).createPaymentPayload(required);
    const answer = await fetch(`${baseUrl}/v1/history.csv`, {
      headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payment) },
    });
    expect(answer.status).toBe(402);
    expect(answer.headers.get("content-type")).not.toContain("text/csv");
    expect(await chain.balanceOf(PAY_TO)).toBe(before);
  });

  it("when a paid export is larger than what is held back, then it streams without PAYMENT-RESPONSE and settles when it ends", async () => {
    const rows = 50_000; // about 5 MB of CSV: more than the 4 MiB a paid answer is held for
    const [bigId] = await seedServices(database.db, [{ name: "Big History", domain: "big.test" }]);
    await database.db.$executeRaw`
      INSERT INTO stats_snapshots (service_id, observed_from, observed_to, uptime_30d, avg_response_ms_30d, updated_at)
      SELECT ${bigId}::uuid, t, t, 99.5, 123.25, now()
      FROM generate_series(1, ${rows}) AS n, LATERAL (SELECT timestamp '2025-01-01' + n * interval '1 minute' AS t) AS at`;
    const before = await chain.balanceOf(PAY_TO);
    // Uncompressed: what is held back is what the answer writes, after any compression.
    const paid = await payingFetch(PAYER_KEY)(`${baseUrl}/v1/history.csv?service_id=${bigId}`, {
      headers: { "Accept-Encoding": "identity" },
    });
    expect(paid.status).toBe(200);
    expect(paid.headers.get("payment-response")).toBeNull();
    expect(dataRows(await paid.text())).toBe(rows);
    const recorded = await vi.waitFor(
      async () => {
        const row = await database.db.x402Payment.findFirstOrThrow({
          where: { route: "GET /v1/history.csv", amountUnits: 50n * PER_THOUSAND },
        });
        expect(row.status).toBe("settled");
        return row;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(recorded.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + 50n * PER_THOUSAND);
  });

  it("when the OpenAPI document and llms.txt are read, then the exports show their price per 1,000 rows", async () => {
    const { key } = await issueKey(database.db, "docs-reader", "live", ["catalogue:read"]);
    const document = (await (await fetch(`${baseUrl}/openapi.json`, { headers: bearer(key) })).json()) as {
      paths: Record<string, Record<string, { "x-x402"?: { price_usdc: string; price_unit: string } }>>;
    };
    expect(document.paths["/v1/history.csv"]?.get?.["x-x402"]).toEqual(
      expect.objectContaining({ price_usdc: "0.010000", price_unit: "1000_rows" }),
    );
    expect(document.paths["/v1/services"]?.get?.["x-x402"]?.price_unit).toBe("call");
    const llms = await (await fetch(`${baseUrl}/llms.txt`, { headers: bearer(key) })).text();
    expect(llms).toContain("`GET /v1/history.csv`: 0.010000 USDC per 1,000 rows, past the daily CSV rows");
  });
});
