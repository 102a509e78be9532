import { randomBytes } from "node:crypto";
import ganache from "ganache";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  parseAbi,
  parseSignature,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compiledContracts } from "../../scripts/compile-solidity";

/**
 * A real EVM (ganache) on loopback for the chain-activity tests and benchmark (billing's local
 * chain is scripts/local-chain.ts). A minimal USDC for tests: 6 decimals and the standard Transfer event (what settlement and chain
 * activity read), plain transfers, EIP-3009 transferWithAuthorization (how x402 settles: the payer
 * signs, anyone submits) and `emitTransfers` (Transfer logs to many addresses in one transaction,
 * balances untouched: volume for benchmarks).
 */
const TOKEN_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract TestUSDC {
  string public name = "USD Coin"; string public symbol = "USDC"; uint8 public decimals = 6;
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(bytes32 => bool)) public authorizationState;
  event Transfer(address indexed from, address indexed to, uint256 value);
  event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
  bytes32 constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
    "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
  function mint(address to, uint256 v) external { balanceOf[to] += v; emit Transfer(address(0), to, v); }
  function move(address from, address to, uint256 v) internal {
    require(balanceOf[from] >= v, "balance"); balanceOf[from] -= v; balanceOf[to] += v; emit Transfer(from, to, v);
  }
  function transfer(address to, uint256 v) external returns (bool) { move(msg.sender, to, v); return true; }
  function emitTransfers(address[] calldata to, uint256 v) external { for (uint256 i = 0; i < to.length; i++) emit Transfer(msg.sender, to[i], v); }
  function DOMAIN_SEPARATOR() public view returns (bytes32) {
    return keccak256(abi.encode(
      keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
      keccak256(bytes(name)), keccak256(bytes("2")), block.chainid, address(this)));
  }
  function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter,
      uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
    require(block.timestamp > validAfter && block.timestamp < validBefore, "authorization not valid now");
    require(!authorizationState[from][nonce], "authorization used");
    bytes32 digest = keccak256(abi.encodePacked("\\x19\\x01", DOMAIN_SEPARATOR(), keccak256(abi.encode(
      TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce))));
    require(ecrecover(digest, v, r, s) == from, "invalid signature");
    authorizationState[from][nonce] = true;
    emit AuthorizationUsed(from, nonce);
    move(from, to, value);
  }
}`;

const TOKEN_ABI = parseAbi([
  "function mint(address to, uint256 v)",
  "function transfer(address to, uint256 v) returns (bool)",
  "function emitTransfers(address[] to, uint256 v)",
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
]);

/** The test USDC's bytecode (compiled once, then read from the temp dir). */
async function tokenBytecode(): Promise<`0x${string}`> {
  return (await compiledContracts(TOKEN_SOURCE, ["TestUSDC"])).TestUSDC;
}

const AUTHORIZATION_FIELDS = [
  { name: "from", type: "address" },
  { name: "to", type: "address" },
  { name: "value", type: "uint256" },
  { name: "validAfter", type: "uint256" },
  { name: "validBefore", type: "uint256" },
  { name: "nonce", type: "bytes32" },
] as const;

const FUNDER_KEY = `0x${"11".repeat(32)}` as const;

export interface LocalChain {
  rpcUrl: string;
  usdc: `0x${string}`;
  client: PublicClient;
  /** Sends `units` micro-USDC from the funded test account to `to`; resolves once mined. */
  pay(to: string, units: bigint): Promise<bigint>;
  /** The funded test account that `pay` and `emitTransfers` send from. */
  funder: `0x${string}`;
  /**
   * Moves `units` from the key's address to `to` the way x402 settles: the payer signs an EIP-3009
   * authorization and the funded account submits it. Resolves once mined, with the block.
   */
  payWithAuthorization(payerKey: `0x${string}`, to: string, units: bigint): Promise<bigint>;
  /** One Transfer log of `units` from the funded account to each address, in one transaction (balances untouched). */
  emitTransfers(to: readonly string[], units: bigint): Promise<bigint>;
  /** evm_snapshot / evm_revert: a chain reorganisation back to the snapshot. */
  snapshot(): Promise<`0x${string}`>;
  revert(id: `0x${string}`): Promise<void>;
  /** Mines empty blocks (confirmations). */
  mine(blocks: number): Promise<void>;
  /** Moves the chain's clock forward (blocks after this are later). */
  advanceTime(seconds: number): Promise<void>;
  close(): Promise<void>;
}

/** A real EVM (ganache) on 127.0.0.1 with Base's chain id and a deployed test USDC. */
export async function startLocalChain(): Promise<LocalChain> {
  const account = privateKeyToAccount(FUNDER_KEY);
  const server = ganache.server({
    chain: { chainId: 8453 },
    wallet: { accounts: [{ secretKey: FUNDER_KEY, balance: `0x${(10n ** 21n).toString(16)}` }] },
    miner: { blockGasLimit: 60_000_000 },
    logging: { quiet: true },
  });
  await server.listen(0, "127.0.0.1");
  const address = server.address();
  const rpcUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const chain = defineChain({
    id: 8453,
    name: "local base",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient;
  // A transaction with thousands of logs takes ganache longer than viem's default 10 s.
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl, { timeout: 300_000 }) });
  const testClient = createTestClient({ mode: "ganache", chain, transport: http(rpcUrl) });
  const deployHash = await wallet.deployContract({ abi: TOKEN_ABI, bytecode: await tokenBytecode() });
  const usdc = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress;
  if (!usdc) throw new Error("the test USDC was not deployed");
  const mintHash = await wallet.writeContract({
    address: usdc,
    abi: TOKEN_ABI,
    functionName: "mint",
    args: [account.address, 10n ** 15n],
  });
  await client.waitForTransactionReceipt({ hash: mintHash });
  return {
    rpcUrl,
    usdc,
    client,
    async pay(to, units) {
      const hash = await wallet.writeContract({
        address: usdc,
        abi: TOKEN_ABI,
        functionName: "transfer",
        args: [to as `0x${string}`, units],
      });
      return (await client.waitForTransactionReceipt({ hash })).blockNumber;
    },
    funder: account.address,
    async payWithAuthorization(payerKey, to, units) {
      const payer = privateKeyToAccount(payerKey);
      const message = {
        from: payer.address,
        to: to as `0x${string}`,
        value: units,
        validAfter: 0n,
        validBefore: 2n ** 48n,
        nonce: `0x${randomBytes(32).toString("hex")}` as `0x${string}`,
      };
      const signature = await payer.signTypedData({
        domain: { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: usdc },
        types: { TransferWithAuthorization: AUTHORIZATION_FIELDS },
        primaryType: "TransferWithAuthorization",
        message,
      });
      const { r, s, v, yParity } = parseSignature(signature);
      const hash = await wallet.writeContract({
        address: usdc,
        abi: TOKEN_ABI,
        functionName: "transferWithAuthorization",
        args: [
          message.from,
          message.to,
          message.value,
          message.validAfter,
          message.validBefore,
          message.nonce,
          Number(v ?? BigInt(yParity + 27)),
          r,
          s,
        ],
      });
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error("transferWithAuthorization reverted");
      return receipt.blockNumber;
    },
    async emitTransfers(to, units) {
      const hash = await wallet.writeContract({
        address: usdc,
        abi: TOKEN_ABI,
        functionName: "emitTransfers",
        args: [to as `0x${string}`[], units],
        gas: 30_000_000n,
      });
      return (await client.waitForTransactionReceipt({ hash })).blockNumber;
    },
    snapshot: () => testClient.snapshot(),
    revert: (id) => testClient.revert({ id }),
    mine: (blocks) => testClient.mine({ blocks }),
    advanceTime: async (seconds) => void (await testClient.increaseTime({ seconds })),
    close: () => server.close(),
  };
}
