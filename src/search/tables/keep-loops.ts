import { hasBit } from "./sorted-lists";

/**
 * Compaction loops: the entries of from[0..count) that keep their place, written to `to` (which
 * may be `from`: the write never passes the read), and how many. keepWithin compares a column
 * inline (a NaN, no value, is never within), so that loop stays monomorphic and tight.
 */
export function keepWithin(
  from: Int32Array,
  count: number,
  to: Int32Array,
  column: Float64Array,
  min: number,
  max: number,
): number {
  let kept = 0;
  for (let k = 0; k < count; k += 1) {
    const i = from[k] as number;
    const value = column[i] as number;
    if (value >= min && value <= max) to[kept++] = i;
  }
  return kept;
}

/** The entries of from[0..count) that are (`on`) or are not in the bitset, written to `to`. */
export function keepOnBits(
  from: Int32Array,
  count: number,
  to: Int32Array,
  bits: Int32Array,
  on: boolean,
): number {
  let kept = 0;
  for (let k = 0; k < count; k += 1) {
    const i = from[k] as number;
    if (hasBit(bits, i) === on) to[kept++] = i;
  }
  return kept;
}

export function keepWhere(
  from: Int32Array,
  count: number,
  to: Int32Array,
  keep: (i: number) => boolean,
): number {
  let kept = 0;
  for (let k = 0; k < count; k += 1) {
    const i = from[k] as number;
    if (keep(i)) to[kept++] = i;
  }
  return kept;
}
