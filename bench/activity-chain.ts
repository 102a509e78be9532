// A local chain (ganache) with a test USDC that emitted `rounds` Transfer logs to each of
// `addresses` watched addresses, for the chain-activity benchmark; prints {rpcUrl, usdc, head}
// as one JSON line and serves until killed. Run by bench/chain-activity.ts in its own process,
// so the chain's memory is not counted as the reader's.
import { startLocalChain } from "../test/support/activity-chain";
import { watchedAddress } from "./chain-activity-addresses";

const [addresses = 10_000, rounds = 10, perTransaction = 2_000] = process.argv.slice(2).map(Number);
const chain = await startLocalChain();
const all = Array.from({ length: addresses }, (_, i) => watchedAddress(i));
for (let round = 0; round < rounds; round += 1) {
  for (let start = 0; start < all.length; start += perTransaction) {
    await chain.emitTransfers(all.slice(start, start + perTransaction), BigInt(1_000 + round));
  }
}
await chain.mine(2);
const head = await chain.client.getBlockNumber({ cacheTime: 0 });
console.log(JSON.stringify({ rpcUrl: chain.rpcUrl, usdc: chain.usdc, head: String(head) }));
