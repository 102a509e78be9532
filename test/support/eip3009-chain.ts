import ganache from "ganache";
import { createPublicClient, createWalletClient, defineChain, http, parseAbi, parseSignature } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compiledContracts } from "../../scripts/compile-solidity";

/**
 * A real EVM (ganache) on loopback with a USDC that implements EIP-3009
 * (`transferWithAuthorization`, the path real x402 settlements take) and Multicall3 at its
 * canonical address (the x402 facilitator diagnoses refused payments through it).
 */
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Eip3009USDC {
  string public name = "USD Coin"; string public symbol = "USDC"; uint8 public decimals = 6;
  string public version = "2";
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(bytes32 => bool)) public authorizationState;
  bytes32 constant TYPEHASH = keccak256("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
  bytes32 constant CANCEL_TYPEHASH = keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");
  event Transfer(address indexed from, address indexed to, uint256 value);
  event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
  event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);
  function mint(address to, uint256 v) external { balanceOf[to] += v; emit Transfer(address(0), to, v); }
  function domainSeparator() public view returns (bytes32) {
    return keccak256(abi.encode(keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
      keccak256(bytes(name)), keccak256(bytes(version)), block.chainid, address(this)));
  }
  function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore,
      bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
    require(block.timestamp > validAfter, "authorization is not yet valid");
    require(block.timestamp < validBefore, "authorization is expired");
    require(!authorizationState[from][nonce], "authorization is used");
    bytes32 digest = keccak256(abi.encodePacked("\\x19\\x01", domainSeparator(),
      keccak256(abi.encode(TYPEHASH, from, to, value, validAfter, validBefore, nonce))));
    address signer = ecrecover(digest, v, r, s);
    require(signer != address(0) && signer == from, "invalid signature");
    require(balanceOf[from] >= value, "transfer amount exceeds balance");
    authorizationState[from][nonce] = true;
    balanceOf[from] -= value; balanceOf[to] += value;
    emit AuthorizationUsed(from, nonce); emit Transfer(from, to, value);
  }
  function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
    require(!authorizationState[authorizer][nonce], "authorization is used");
    bytes32 digest = keccak256(abi.encodePacked("\\x19\\x01", domainSeparator(),
      keccak256(abi.encode(CANCEL_TYPEHASH, authorizer, nonce))));
    address signer = ecrecover(digest, v, r, s);
    require(signer != address(0) && signer == authorizer, "invalid signature");
    authorizationState[authorizer][nonce] = true;
    emit AuthorizationCanceled(authorizer, nonce);
  }
}
contract Multicall3 {
  struct Call { address target; bytes callData; }
  struct Result { bool success; bytes returnData; }
  function tryAggregate(bool requireSuccess, Call[] calldata calls) external payable returns (Result[] memory results) {
    results = new Result[](calls.length);
    for (uint256 i = 0; i < calls.length; i++) {
      (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
      if (requireSuccess) require(success, "call failed");
      results[i] = Result(success, data);
    }
  }
}`;

const MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11";
export const TOKEN_ABI = parseAbi([
  "function mint(address to, uint256 v)",
  "function balanceOf(address) view returns (uint256)",
  "function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
]);

/** The token's and Multicall3's bytecode (compiled once, then read from the temp dir). */
async function compiled(): Promise<{ token: `0x${string}`; multicall: `0x${string}` }> {
  const code = await compiledContracts(SOURCE, ["Eip3009USDC", "Multicall3"]);
  return { token: code.Eip3009USDC, multicall: code.Multicall3 };
}

/** Public development keys (never use them on a real chain). */
export const DEPLOYER_KEY = `0x${"21".repeat(32)}` as const;
export const FACILITATOR_KEY = `0x${"22".repeat(32)}` as const;
export const PAYER_KEY = `0x${"23".repeat(32)}` as const;
export const POOR_PAYER_KEY = `0x${"24".repeat(32)}` as const;
export const CHAIN_ID = 1337;
export const NETWORK = `eip155:${CHAIN_ID}` as const;

export interface Eip3009Chain {
  rpcUrl: string;
  usdc: `0x${string}`;
  balanceOf(address: `0x${string}`): Promise<bigint>;
  /** The holder of `key` cancels its unused authorisation `nonce` (EIP-3009 `cancelAuthorization`). */
  cancelAuthorization(key: `0x${string}`, nonce: `0x${string}`): Promise<void>;
  close(): Promise<void>;
}

/** Ganache on 127.0.0.1 with the token deployed and PAYER_KEY's account holding 10 USDC. */
export async function startEip3009Chain(): Promise<Eip3009Chain> {
  const ether = `0x${(10n ** 21n).toString(16)}`;
  const server = ganache.server({
    chain: { chainId: CHAIN_ID },
    wallet: {
      accounts: [DEPLOYER_KEY, FACILITATOR_KEY, PAYER_KEY, POOR_PAYER_KEY].map((secretKey) => ({
        secretKey,
        balance: ether,
      })),
    },
    logging: { quiet: true },
  });
  await server.listen(0, "127.0.0.1");
  const address = server.address();
  const rpcUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const chain = defineChain({
    id: CHAIN_ID,
    name: "local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport: http(rpcUrl) });
  const deployer = privateKeyToAccount(DEPLOYER_KEY);
  const wallet = createWalletClient({ account: deployer, chain, transport: http(rpcUrl) });
  const code = await compiled();
  const deploy = async (bytecode: `0x${string}`) => {
    const hash = await wallet.deployContract({ abi: [], bytecode });
    const deployed = (await client.waitForTransactionReceipt({ hash })).contractAddress;
    if (!deployed) throw new Error("a test contract was not deployed");
    return deployed;
  };
  const usdc = await deploy(code.token);
  const multicall = await deploy(code.multicall);
  const runtime = await client.getCode({ address: multicall });
  await client.request({
    method: "evm_setAccountCode" as never,
    params: [MULTICALL3, runtime] as never,
  });
  const mint = await wallet.writeContract({
    address: usdc,
    abi: TOKEN_ABI,
    functionName: "mint",
    args: [privateKeyToAccount(PAYER_KEY).address, 10_000_000n],
  });
  await client.waitForTransactionReceipt({ hash: mint });
  return {
    rpcUrl,
    usdc,
    balanceOf: (owner) =>
      client.readContract({ address: usdc, abi: TOKEN_ABI, functionName: "balanceOf", args: [owner] }),
    async cancelAuthorization(key, nonce) {
      const authorizer = privateKeyToAccount(key);
      const signature = parseSignature(
        await authorizer.signTypedData({
          domain: { name: "USD Coin", version: "2", chainId: CHAIN_ID, verifyingContract: usdc },
          types: {
            CancelAuthorization: [
              { name: "authorizer", type: "address" },
              { name: "nonce", type: "bytes32" },
            ],
          },
          primaryType: "CancelAuthorization",
          message: { authorizer: authorizer.address, nonce },
        }),
      );
      const hash = await wallet.writeContract({
        address: usdc,
        abi: TOKEN_ABI,
        functionName: "cancelAuthorization",
        args: [authorizer.address, nonce, Number(signature.v), signature.r, signature.s],
      });
      await client.waitForTransactionReceipt({ hash });
    },
    close: () => server.close(),
  };
}
