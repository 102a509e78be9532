/** Pure formatting for the pages: crawled text is untrusted, so links and lengths are decided here. */

/** A link target only for http and https URLs; anything else (javascript:, data:, junk) is text. */
export function safeHref(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** At most `max` characters (code points), with an ellipsis when cut: lists stay readable. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** A decimal string without trailing zeros ("12300.000000" -> "12300"), never through a float. */
export function decimal(value: string | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return value.includes(".") ? value.replace(/0+$/, "").replace(/\.$/, "") : value;
}

/** A USDC amount for people, or a dash when unknown. */
export function usdc(value: string | null | undefined): string {
  return value === null || value === undefined ? "–" : `${decimal(value)} USDC`;
}

export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : `${Number(value.toFixed(2))} %`;
}

export function millis(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : `${Math.round(value)} ms`;
}

export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : value.toLocaleString("en-US");
}

/** A date as YYYY-MM-DD HH:MM UTC, or a dash. */
export function when(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "–";
}

/** Compares two decimal strings exactly (no float): negative, zero or positive. */
export function compareDecimals(a: string, b: string): number {
  const [ai = "0", af = ""] = a.split(".");
  const [bi = "0", bf = ""] = b.split(".");
  if (ai.length !== bi.length) return ai.length - bi.length;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const x = af.padEnd(width, "0");
  const y = bf.padEnd(width, "0");
  return x === y ? 0 : x < y ? -1 : 1;
}

/** "0.001 – 0.05 USDC" from the known prices, "0.01 USDC" for one, a dash for none. */
export function priceRange(prices: ReadonlyArray<string | null>): string {
  const known = prices.filter((p): p is string => p !== null).sort(compareDecimals);
  const low = known[0];
  const high = known[known.length - 1];
  if (low === undefined || high === undefined) return "–";
  return compareDecimals(low, high) === 0 ? usdc(low) : `${decimal(low)} – ${decimal(high)} USDC`;
}

/** The query string of a page's filters, without empty values (an HTML form sends every field). */
export function queryString(
  query: Record<string, unknown>,
  change: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...change })) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (typeof one === "string" && one !== "") params.append(key, one);
    }
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

/** The query without empty values, so the API's schemas read a submitted form as its link would. */
export function withoutEmpty(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query).flatMap(([key, value]) => {
      if (Array.isArray(value)) {
        const kept = value.filter((one) => one !== "");
        return kept.length === 0 ? [] : [[key, kept.length === 1 ? kept[0] : kept]];
      }
      return value === "" || value === undefined ? [] : [[key, value]];
    }),
  );
}
