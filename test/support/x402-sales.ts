import http from "node:http";
import type { AddressInfo } from "node:net";
import { x402Client } from "@x402/core/client";
import type { FacilitatorClient } from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { loadConfig } from "../../src/config/config";
import type { Database } from "../../src/db/prisma-client";
import { createReadPool, type ReadPool } from "../../src/db/read-pool";
import { salesFacilitator } from "../../src/x402-sales/facilitators";
import { operatorOwner, salesSettingsFromConfig } from "../../src/x402-sales/settings";
import { X402Sales } from "../../src/x402-sales/x402-sales";
import { createTestApp, type TestApp, type TestAppOptions } from "./app";
import { createTestDatabase, type TestDatabase } from "./database";
import { type Eip3009Chain, FACILITATOR_KEY, NETWORK, startEip3009Chain } from "./eip3009-chain";
import { testLogger } from "./logger";
import { type SwitchableProxy, startSwitchableProxy } from "./switchable-proxy";

export const PAY_TO = "0x000000000000000000000000000000000000c0de";

export interface SalesChain {
  usdc: string;
  rpcUrl: string;
}

/**
 * The catalogue's x402 sales on a local chain, with the built-in facilitator (reached at
 * `chain.rpcUrl`); `wrap` may stand in front of the facilitator (to cut its chain at a moment).
 */
export async function salesFor(
  chain: SalesChain,
  db: Database,
  pool: ReadPool,
  extra: Record<string, string> = {},
  wrap: (facilitator: FacilitatorClient) => FacilitatorClient = (facilitator) => facilitator,
): Promise<X402Sales> {
  const config = loadConfig({
    X402_PAY_TO: `${NETWORK}=${PAY_TO}`,
    X402_ASSETS: `${NETWORK}=${chain.usdc}`,
    X402_FACILITATOR_KEY: FACILITATOR_KEY,
    X402_RPC_URLS: `${NETWORK}=${chain.rpcUrl}`,
    ...extra,
  });
  const settings = salesSettingsFromConfig(config);
  if (!settings) throw new Error("selling is not configured");
  return new X402Sales({
    settings,
    facilitator: wrap(salesFacilitator(settings)),
    logger: testLogger,
    db,
    pool,
    operator: await operatorOwner(db, settings),
  });
}

/** The official x402 client of a payer holding `key`. */
export function payerClient(key: `0x${string}`): x402Client {
  // The local chain's USDC is not one x402 knows: the payer allows it explicitly.
  return x402Client.fromConfig({
    schemes: [{ network: "eip155:*", client: new ExactEvmScheme(privateKeyToAccount(key)) }],
    spendControls: { allowedAssets: true },
  });
}

/** The official `@x402/fetch` client paying with `key`; every request it sends is kept in `sent`. */
export function payingFetch(key: `0x${string}`, sent: Headers[] = []): typeof fetch {
  const client = payerClient(key);
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    sent.push(request.headers);
    return fetch(request);
  };
  return wrapFetchWithPayment(recording, client);
}

export async function listen(
  app: http.RequestListener,
): Promise<{ server: http.Server; baseUrl: string; close: () => Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface SalesBed {
  database: TestDatabase;
  chain: Eip3009Chain;
  /** In front of the chain, for the facilitator only, when asked for (`throughProxy`). */
  proxy?: SwitchableProxy;
  pool: ReadPool;
  sales: X402Sales;
  api: TestApp;
  baseUrl: string;
  close(): Promise<void>;
}

export interface SalesBedOptions {
  config?: Record<string, string>;
  accountSettings?: TestAppOptions["accountSettings"];
  /** The facilitator reaches the chain through a proxy the test can cut. */
  throughProxy?: boolean;
  wrap?: (facilitator: FacilitatorClient, proxy: SwitchableProxy | undefined) => FacilitatorClient;
}

/** A database, a chain, the app selling over x402 and listening on loopback, and how to stop them. */
export async function startSalesBed(options: SalesBedOptions = {}): Promise<SalesBed> {
  const [database, chain] = await Promise.all([createTestDatabase(), startEip3009Chain()]);
  const proxy = options.throughProxy ? await startSwitchableProxy(chain.rpcUrl) : undefined;
  const pool = createReadPool(database.url, 2, testLogger);
  const sales = await salesFor(
    { usdc: chain.usdc, rpcUrl: proxy?.url ?? chain.rpcUrl },
    database.db,
    pool,
    options.config,
    (facilitator) => options.wrap?.(facilitator, proxy) ?? facilitator,
  );
  const api = createTestApp(database, { sales, accountSettings: options.accountSettings });
  const { baseUrl, close } = await listen(api.app);
  return {
    database,
    chain,
    proxy,
    pool,
    sales,
    api,
    baseUrl,
    async close() {
      await close();
      await api.close();
      await pool.end();
      await proxy?.close();
      await chain.close();
      await database.drop();
    },
  };
}
