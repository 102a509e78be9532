import type { PaymentDrift, PaymentOption } from "./types";

const networkKey = (o: PaymentOption): string => o.network ?? o.network_name ?? "unknown network";

// EVM addresses may differ only in checksum case; base58 (Solana) addresses are case-sensitive.
const addressKey = (address: string | null): string | null =>
  address !== null && /^0x[0-9a-f]{40}$/i.test(address) ? address.toLowerCase() : address;

/** Price as comparable text: USDC decimal when known, else atomic amount with its asset. */
function priceKey(o: PaymentOption): string | null {
  if (o.price_usdc !== null) return `${o.price_usdc} USDC`;
  if (o.amount_atomic === null) return null;
  return `${o.amount_atomic} atomic ${o.asset ?? "unknown asset"}`;
}

/** Pairs each claimed option with an observed one on the same network, same asset preferred. */
function pair(claimed: PaymentOption[], observed: PaymentOption[]) {
  const unused = new Set(observed);
  const pairs: [PaymentOption, PaymentOption][] = [];
  const unmatched: PaymentOption[] = [];
  for (const want of claimed) {
    const candidates = [...unused].filter((o) => networkKey(o) === networkKey(want));
    const match = candidates.find((o) => addressKey(o.asset) === addressKey(want.asset)) ?? candidates[0];
    if (match === undefined) {
      unmatched.push(want);
      continue;
    }
    unused.delete(match);
    pairs.push([want, match]);
  }
  return { pairs, unmatched, extra: [...unused] };
}

/**
 * Differences in price, network, asset and pay_to between what a listing claims and what a live
 * challenge offers. Options are matched per network, so a listing that omits some of the live
 * networks yields "network" drifts rather than bogus price drifts.
 */
export function drift(claimed: PaymentOption[], observed: PaymentOption[]): PaymentDrift[] {
  const { pairs, unmatched, extra } = pair(claimed, observed);
  const drifts: PaymentDrift[] = [];
  for (const o of unmatched) {
    const network = networkKey(o);
    drifts.push({
      kind: "network",
      network,
      claimed: network,
      observed: null,
      message: `claimed network ${network} is not offered`,
    });
  }
  for (const o of extra) {
    const network = networkKey(o);
    drifts.push({
      kind: "network",
      network,
      claimed: null,
      observed: network,
      message: `offered network ${network} is not claimed`,
    });
  }
  for (const [want, got] of pairs) {
    const network = networkKey(want);
    const [claimedPrice, observedPrice] = [priceKey(want), priceKey(got)];
    // A listing that states no price (or no pay_to) makes no claim that could drift.
    if (claimedPrice !== null && claimedPrice !== observedPrice) {
      drifts.push({
        kind: "price",
        network,
        claimed: claimedPrice,
        observed: observedPrice,
        message: `price on ${network} is ${observedPrice ?? "unknown"}, listing says ${claimedPrice}`,
      });
    }
    // Paired on the network, preferring the same asset: a different one here is the only one offered.
    if (want.asset !== null && addressKey(want.asset) !== addressKey(got.asset)) {
      drifts.push({
        kind: "asset",
        network,
        claimed: want.asset,
        observed: got.asset,
        message: `asset on ${network} is ${got.asset ?? "missing"}, listing says ${want.asset}`,
      });
    }
    if (want.pay_to !== null && addressKey(want.pay_to) !== addressKey(got.pay_to)) {
      drifts.push({
        kind: "pay_to",
        network,
        claimed: want.pay_to,
        observed: got.pay_to,
        message: `pay_to on ${network} is ${got.pay_to ?? "missing"}, listing says ${want.pay_to}`,
      });
    }
  }
  return drifts;
}
