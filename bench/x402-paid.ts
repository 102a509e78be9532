// Paid calls end to end: the @x402/fetch client pays each call of GET /v1/services, the built-in
// facilitator verifies it, the catalogue records it and answers, the facilitator settles it on
// ganache (EIP-3009 USDC) and the answer goes out with PAYMENT-RESPONSE. Calls are sequential: one
// payer, one facilitator account, one chain that mines a block per transaction.
// Standalone: `node --import tsx bench/x402-paid.ts [calls]`.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { Accounts } from "../src/accounts/accounts";
import { loadConfig } from "../src/config/config";
import { createReadPool } from "../src/db/read-pool";
import { createApp } from "../src/http/app";
import { salesFacilitator } from "../src/x402-sales/facilitators";
import { operatorOwner, salesSettingsFromConfig } from "../src/x402-sales/settings";
import { X402Sales } from "../src/x402-sales/x402-sales";
import { FACILITATOR_KEY, NETWORK, PAYER_KEY, startEip3009Chain } from "../test/support/eip3009-chain";
import { benchDatabase, benchLogger, markdownTable } from "./support";

export async function runPaidCallsBenchmark(calls = 50): Promise<string> {
  const [database, chain] = await Promise.all([benchDatabase(), startEip3009Chain()]);
  const pool = createReadPool(database.url, 5, benchLogger);
  const settings = salesSettingsFromConfig(
    loadConfig({
      X402_PAY_TO: `${NETWORK}=0x000000000000000000000000000000000000c0de`,
      X402_ASSETS: `${NETWORK}=${chain.usdc}`,
      X402_FACILITATOR_KEY: FACILITATOR_KEY,
      X402_RPC_URLS: `${NETWORK}=${chain.rpcUrl}`,
      X402_PAID_ROUTES: "search",
      X402_FREE_CALLS_PER_WALLET: "0",
    }),
  );
  if (!settings) throw new Error("selling is not configured");
  const sales = new X402Sales({
    settings,
    facilitator: salesFacilitator(settings),
    logger: benchLogger,
    db: database.db,
    pool,
    operator: await operatorOwner(database.db, settings),
  });
  const accounts = new Accounts(pool, benchLogger);
  const server = http.createServer(
    createApp({ db: database.db, pool, logger: benchLogger, accounts, sales }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/services?limit=5`;
  const client = x402Client.fromConfig({
    schemes: [{ network: "eip155:*", client: new ExactEvmScheme(privateKeyToAccount(PAYER_KEY)) }],
    spendControls: { allowedAssets: true },
  });
  const paidFetch = wrapFetchWithPayment(fetch, client);
  try {
    await paidFetch(url); // the facilitator's supported networks, the first block: not measured
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) {
      const call = performance.now();
      const answer = await paidFetch(url);
      if (answer.status !== 200 || !answer.headers.get("payment-response")) {
        throw new Error(`a paid call answered ${answer.status}`);
      }
      await answer.arrayBuffer();
      times.push(performance.now() - call);
    }
    const seconds = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    const at = (p: number) =>
      (times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0).toFixed(0);
    return [
      "## Paid calls through the built-in facilitator (ganache)",
      "",
      markdownTable(
        ["calls", "paid calls/s", "p50 ms", "p99 ms"],
        [[calls, (calls / seconds).toFixed(1), at(0.5), at(0.99)]],
      ),
    ].join("\n");
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await accounts.close();
    await pool.end();
    await chain.close();
    await database.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await runPaidCallsBenchmark(Number(process.argv[2] ?? 50)));
}
