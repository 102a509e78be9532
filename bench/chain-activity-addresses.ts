/** Watched address number i of the chain-activity benchmark (lower-case, never the zero address). */
export function watchedAddress(i: number): string {
  return `0x${(0xa0000000 + i).toString(16).padStart(40, "0")}`;
}
