import { createPublicClient, http, parseAbi, parseEventLogs } from "viem";

const EIP3009_ABI = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
]);

/** Blocks one eth_getLogs asks for; the search walks back from the newest block in such windows. */
const WINDOW_BLOCKS = 2_000n;
/** Slack for clocks: the search goes this far before the authorisation was received. */
const CLOCK_SLACK_MS = 120_000;

/** One EIP-3009 transfer authorisation: who signed it, its nonce, and what it pays to whom. */
export interface Authorisation {
  asset: string;
  authorizer: string;
  nonce: string;
  payTo: string;
  value: bigint;
  /** When it was received: it cannot have been used earlier. */
  since: Date;
}

/**
 * What the token says of an authorisation: `unused` (it may still settle), `settled` by the
 * transaction whose Transfer moved exactly its value from the authorizer to its recipient,
 * `cancelled` (its nonce was spent without that transfer: the authorizer cancelled it), or
 * `unknown` (spent, but no AuthorizationUsed or AuthorizationCanceled log since it was received).
 */
export type AuthorisationOutcome =
  | { state: "unused" }
  | { state: "settled"; transaction: `0x${string}` }
  | { state: "cancelled"; transaction: `0x${string}` }
  | { state: "unknown" };

/**
 * Looks up EIP-3009 authorisations on one chain over its JSON-RPC endpoint: the token's
 * `authorizationState(authorizer, nonce)` view, then the `AuthorizationUsed` or
 * `AuthorizationCanceled` log of that nonce, and the Transfer in the same transaction. The
 * signature binds recipient, value and nonce, so a used nonce with the matching Transfer is the
 * payment, whoever submitted it.
 */
export class Eip3009Authorisations {
  private readonly client;

  constructor(rpcUrl: string, timeoutMs = 10_000) {
    this.client = createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs }) });
  }

  async outcome(authorisation: Authorisation): Promise<AuthorisationOutcome> {
    const asset = authorisation.asset as `0x${string}`;
    const args = {
      authorizer: authorisation.authorizer as `0x${string}`,
      nonce: authorisation.nonce as `0x${string}`,
    };
    const used = await this.client.readContract({
      address: asset,
      abi: EIP3009_ABI,
      functionName: "authorizationState",
      args: [args.authorizer, args.nonce],
    });
    if (!used) return { state: "unused" };
    const log = await this.spendingLog(asset, args, authorisation.since.getTime() - CLOCK_SLACK_MS);
    if (!log) return { state: "unknown" };
    const receipt = await this.client.getTransactionReceipt({ hash: log });
    const paid = parseEventLogs({ abi: EIP3009_ABI, eventName: "Transfer", logs: receipt.logs }).some(
      (transfer) =>
        transfer.address.toLowerCase() === asset.toLowerCase() &&
        transfer.args.from.toLowerCase() === args.authorizer.toLowerCase() &&
        transfer.args.to.toLowerCase() === authorisation.payTo.toLowerCase() &&
        transfer.args.value === authorisation.value,
    );
    return { state: paid ? "settled" : "cancelled", transaction: log };
  }

  /** The transaction that spent the nonce, searched from the newest block back to `sinceMs`. */
  private async spendingLog(
    asset: `0x${string}`,
    args: { authorizer: `0x${string}`; nonce: `0x${string}` },
    sinceMs: number,
  ): Promise<`0x${string}` | undefined> {
    // Never viem's cached block number: the spending transaction may be in the block just mined.
    let toBlock = await this.client.getBlockNumber({ cacheTime: 0 });
    for (;;) {
      const fromBlock = toBlock >= WINDOW_BLOCKS ? toBlock - WINDOW_BLOCKS + 1n : 0n;
      const range = { address: asset, args, fromBlock, toBlock };
      const [used, cancelled] = await Promise.all([
        this.client.getLogs({ ...range, event: EIP3009_ABI[1] }),
        this.client.getLogs({ ...range, event: EIP3009_ABI[2] }),
      ]);
      const found = [...used, ...cancelled].find((log) => log.transactionHash !== null);
      if (found?.transactionHash) return found.transactionHash;
      if (fromBlock === 0n) return undefined;
      const start = await this.client.getBlock({ blockNumber: fromBlock });
      if (Number(start.timestamp) * 1000 < sinceMs) return undefined;
      toBlock = fromBlock - 1n;
    }
  }
}
