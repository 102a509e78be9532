// `npm run chain:local [-- --port 8545]`: a local chain for trying billing (docs/billing.md, "Try
// billing locally"). Starts ganache on 127.0.0.1 with Base's chain id and a USDC-like token, funds
// a payer, prints the SETTLEMENT_CHAINS value for `npm start` and the pay command, and runs until
// Ctrl-C. `npm run chain:local -- pay ADDRESS AMOUNT [--rpc-url URL]` sends AMOUNT USDC (a decimal
// such as 12.50) from the payer to ADDRESS (a payment order's deposit address).
// stdout carries the result (the setting, or the payment's transaction); messages go to stderr.
import { parseArgs } from "node:util";
import { HDKey } from "@scure/bip32";
import { isAddress } from "viem";
import { parseUsdcAmount } from "../src/billing/usdc-amount";
import { runCli } from "../src/runtime/cli";
import { Shutdown } from "../src/runtime/shutdown";
import { payOnLocalChain, startLocalChain } from "./local-chain";

const USAGE = `Usage:
  npm run chain:local [-- --port PORT]                          start the chain (default port 8545)
  npm run chain:local -- pay ADDRESS AMOUNT [--rpc-url URL]     pay AMOUNT USDC to ADDRESS`;

/** Deposit addresses derive from this development wallet's xpub (its seed is public: local use only). */
const DEV_XPUB = HDKey.fromMasterSeed(new Uint8Array(32).fill(42)).derive("m/44'/60'/0'").publicExtendedKey;

class UsageError extends Error {}

function parse(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { port: { type: "string", default: "8545" }, "rpc-url": { type: "string" } },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError("--port must be a port number");
  if (positionals.length === 0) return { command: "start" as const, port };
  const [command, address, amount] = positionals;
  if (command !== "pay" || positionals.length !== 3) throw new UsageError("unknown command");
  if (!address || !isAddress(address)) throw new UsageError("ADDRESS must be a 0x-prefixed 20-byte address");
  const units = parseUsdcAmount(amount ?? "");
  if (units === null || units === 0n)
    throw new UsageError("AMOUNT must be a positive USDC amount such as 12.50");
  return {
    command: "pay" as const,
    address: address as `0x${string}`,
    units,
    rpcUrl: values["rpc-url"] ?? `http://127.0.0.1:${port}`,
  };
}

await runCli(
  "local chain",
  async ({ logger }) => {
    let request: ReturnType<typeof parse>;
    try {
      request = parse(process.argv.slice(2));
    } catch (error) {
      console.error(`${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    if (request.command === "pay") {
      const paid = await payOnLocalChain(request.rpcUrl, request.address, request.units);
      process.stdout.write(
        `${JSON.stringify({ transaction: paid.hash, block: paid.blockNumber.toString() })}\n`,
      );
      return 0;
    }
    const shutdown = new Shutdown(logger);
    shutdown.listenForSignals();
    const chain = await startLocalChain(request.port);
    shutdown.register("local chain", () => chain.close());
    const setting = [
      { chain: "base", rpc_url: chain.rpcUrl, usdc_contract: chain.usdc, confirmations: 1, xpub: DEV_XPUB },
    ];
    const pay = `npm run chain:local -- pay <deposit address> <amount>${request.port === 8545 ? "" : ` --rpc-url ${chain.rpcUrl}`}`;
    process.stdout.write(`SETTLEMENT_CHAINS='${JSON.stringify(setting)}'\n${pay}\n`);
    logger.info(
      { rpcUrl: chain.rpcUrl, usdc: chain.usdc },
      "local chain ready: start the product with the SETTLEMENT_CHAINS above, pay orders with the command above; Ctrl-C stops it",
    );
    return undefined; // runs until a signal
  },
  "stderr",
);
