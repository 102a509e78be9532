import { decimalToString } from "../../normalise/decimal";
import type { EndpointColumnSort } from "../query/sorts";
import { type Amount, compareAmounts } from "./amounts";
import type { EndpointColumns } from "./endpoint-columns";

/**
 * How each endpoint sort but relevance orders the table, so that a sort declared in
 * query/sorts.ts without its order does not compile. An order ranks every entry from its columns
 * (dense ranks, 0 for no value: last in both directions; equal ranks in the default order) and
 * says what of an entry it reads, so a probe that replaces an entry drops only the orders it moves.
 */
export interface EndpointOrder {
  /** true: the highest rank first. */
  descending: boolean;
  /** A pass that writes entry i's rank into ranks[i] for i in [from, to); made once per order computed. */
  ranks(columns: EndpointColumns): (ranks: Int32Array, from: number, to: number) => void;
  /** What entry i is ordered by: an order holds while this stays the same for every entry. */
  key(columns: EndpointColumns, i: number): string | number;
}

/** By an observed 30-day volume (exact decimal order of its dictionary), largest first, none last. */
function volumeOrder(column: "observedVolume" | "adjustedVolume"): EndpointOrder {
  return {
    descending: true,
    ranks: (columns) => {
      const table = columns.dictionaries.volumes.rankTable();
      const codes = columns[column];
      return (ranks, from, to) => {
        for (let i = from; i < to; i += 1) {
          const code = codes[i] as number;
          ranks[i] = code < 0 ? 0 : (table[code] as number);
        }
      };
    },
    key: (columns, i) => columns[column][i] as number,
  };
}

/** Entry i's lowest price; null when it has none. */
function lowestPrice(columns: EndpointColumns, i: number): Amount | null {
  const { prices } = columns.dictionaries;
  let lowest: Amount | null = null;
  columns.prices.some(i, (code) => {
    const amount = prices.amount(code);
    if (lowest === null || compareAmounts(amount, lowest) < 0) lowest = amount;
    return false;
  });
  return lowest;
}

export const ENDPOINT_ORDERS: Record<EndpointColumnSort, EndpointOrder> = {
  // By the lowest price per call (exact decimal order, as Postgres orders numerics).
  price: {
    descending: false,
    ranks: (columns) => {
      const table = columns.dictionaries.prices.rankTable();
      return (ranks, from, to) => {
        for (let i = from; i < to; i += 1) {
          let lowest = 0;
          columns.prices.some(i, (code) => {
            const rank = table[code] as number;
            if (lowest === 0 || rank < lowest) lowest = rank;
            return false;
          });
          ranks[i] = lowest;
        }
      };
    },
    key: (columns, i) => {
      const lowest = lowestPrice(columns, i);
      return lowest === null ? "" : decimalToString(lowest.exact);
    },
  },
  // By the trust score, 0-100 (-1: none, rank 0).
  score: {
    descending: true,
    ranks: (columns) => (ranks, from, to) => {
      for (let i = from; i < to; i += 1) ranks[i] = (columns.score[i] as number) + 1;
    },
    key: (columns, i) => columns.score[i] as number,
  },
  observed_volume: volumeOrder("observedVolume"),
  adjusted_volume: volumeOrder("adjustedVolume"),
};
