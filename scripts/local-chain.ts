import ganache from "ganache";
import {
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getContractAddress,
  http,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compiledContracts } from "./compile-solidity";

/**
 * A real EVM (ganache) on loopback with a USDC-like token, for tests and for `npm run chain:local`:
 * billing tried and tested against a chain, not a mock.
 */

/** A minimal USDC: 6 decimals, the standard Transfer event (the settlement reads only that). */
const TOKEN_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract TestUSDC {
  string public name = "USD Coin"; string public symbol = "USDC"; uint8 public decimals = 6;
  mapping(address => uint256) public balanceOf;
  event Transfer(address indexed from, address indexed to, uint256 value);
  function mint(address to, uint256 v) external { balanceOf[to] += v; emit Transfer(address(0), to, v); }
  function transfer(address to, uint256 v) external returns (bool) {
    require(balanceOf[msg.sender] >= v); balanceOf[msg.sender] -= v; balanceOf[to] += v;
    emit Transfer(msg.sender, to, v); return true;
  }
}`;

const TOKEN_ABI = [
  {
    type: "function",
    name: "mint",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "v", type: "uint256" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "transfer",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "v", type: "uint256" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
] as const;

/** The test USDC's bytecode (compiled once, then read from the temp dir). */
async function tokenBytecode(): Promise<`0x${string}`> {
  return (await compiledContracts(TOKEN_SOURCE, ["TestUSDC"])).TestUSDC;
}

/** The funded payer: a fixed, public development key (never use it on a real chain). */
export const FUNDER_KEY = `0x${"11".repeat(32)}` as const;
const FUNDER = privateKeyToAccount(FUNDER_KEY);
/** Base's chain id: the local chain stands in for Base. */
const CHAIN_ID = 8453;

/** The token is the funder's first deployment, so its address is known from the funder alone. */
export const LOCAL_USDC = getContractAddress({
  from: FUNDER.address,
  nonce: 0n,
}).toLowerCase() as `0x${string}`;

export interface LocalChain {
  rpcUrl: string;
  usdc: `0x${string}`;
  client: PublicClient;
  /** Sends `units` micro-USDC from the funded test account to `to`; resolves once mined. */
  pay(to: string, units: bigint): Promise<bigint>;
  /** Sends each payment from the funded test account, all in one block; resolves once it is mined. */
  payAll(payments: ReadonlyArray<{ to: string; units: bigint }>): Promise<bigint>;
  /** Mines empty blocks (confirmations). */
  mine(blocks: number): Promise<void>;
  /** Moves the chain's clock forward (blocks after this are later). */
  advanceTime(seconds: number): Promise<void>;
  close(): Promise<void>;
}

function localChain(rpcUrl: string): Chain {
  return defineChain({
    id: CHAIN_ID,
    name: "local base",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/** Sends `units` micro-USDC from the funded account to `to` on the local chain at `rpcUrl`. */
export async function payOnLocalChain(
  rpcUrl: string,
  to: `0x${string}`,
  units: bigint,
): Promise<{ hash: `0x${string}`; blockNumber: bigint }> {
  const chain = localChain(rpcUrl);
  const client = createPublicClient({ chain, transport: http(rpcUrl) });
  const wallet = createWalletClient({ account: FUNDER, chain, transport: http(rpcUrl) });
  const hash = await wallet.writeContract({
    address: LOCAL_USDC,
    abi: TOKEN_ABI,
    functionName: "transfer",
    args: [to, units],
  });
  return { hash, blockNumber: (await client.waitForTransactionReceipt({ hash })).blockNumber };
}

/** A real EVM (ganache) on 127.0.0.1 (port 0: any free one) with Base's chain id and a deployed USDC. */
export async function startLocalChain(port = 0): Promise<LocalChain> {
  const server = ganache.server({
    chain: { chainId: CHAIN_ID },
    wallet: { accounts: [{ secretKey: FUNDER_KEY, balance: `0x${(10n ** 21n).toString(16)}` }] },
    logging: { quiet: true },
  });
  await server.listen(port, "127.0.0.1");
  const address = server.address();
  const rpcUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`;
  const chain = localChain(rpcUrl);
  const client = createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient;
  const wallet = createWalletClient({ account: FUNDER, chain, transport: http(rpcUrl) });
  const testClient = createTestClient({ mode: "ganache", chain, transport: http(rpcUrl) });
  const deployHash = await wallet.deployContract({ abi: TOKEN_ABI, bytecode: await tokenBytecode() });
  const usdc = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress;
  if (usdc?.toLowerCase() !== LOCAL_USDC.toLowerCase()) throw new Error("the local USDC was not deployed");
  const mintHash = await wallet.writeContract({
    address: LOCAL_USDC,
    abi: TOKEN_ABI,
    functionName: "mint",
    args: [FUNDER.address, 10n ** 15n],
  });
  await client.waitForTransactionReceipt({ hash: mintHash });
  const transfer = (to: string, units: bigint, nonce?: number) =>
    wallet.writeContract({
      address: LOCAL_USDC,
      abi: TOKEN_ABI,
      functionName: "transfer",
      args: [to as `0x${string}`, units],
      nonce,
    });
  return {
    rpcUrl,
    usdc: LOCAL_USDC,
    client,
    pay: async (to, units) => (await payOnLocalChain(rpcUrl, to as `0x${string}`, units)).blockNumber,
    async payAll(payments) {
      await testClient.setAutomine(false);
      const hashes: `0x${string}`[] = [];
      try {
        let nonce = await client.getTransactionCount({ address: FUNDER.address, blockTag: "pending" });
        for (const { to, units } of payments) {
          hashes.push(await transfer(to, units, nonce++));
        }
        await testClient.mine({ blocks: 1 });
      } finally {
        await testClient.setAutomine(true);
      }
      const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })));
      return receipts[0]?.blockNumber ?? (await client.getBlockNumber());
    },
    mine: (blocks) => testClient.mine({ blocks }),
    advanceTime: async (seconds) => void (await testClient.increaseTime({ seconds })),
    close: () => server.close(),
  };
}
