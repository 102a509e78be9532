import { isRecord, type Json } from "../bazaar/fields";

/**
 * An item's payment requirements as the seller wrote them, as `accepts` entries for the shared
 * normaliser (payments/normalise.ts), which judges every field. Nothing is filled in that the
 * manifest does not say: a field missing from the item may come only from the same field stated
 * once for the whole manifest.
 */

/** Entry fields and the names sellers give them. */
const FIELD_NAMES: Readonly<Record<string, readonly string[]>> = {
  scheme: ["scheme"],
  network: ["network"],
  asset: ["asset", "paymentAsset", "currency"],
  payTo: ["payTo", "pay_to", "payment_address"],
  maxAmountRequired: ["maxAmountRequired"],
  // Atomic units by name: micro-USDC are USDC's atomic units.
  amount: ["amount", "amount_atomic", "price_atomic", "priceAtomic", "price_micro_usdc"],
  maxTimeoutSeconds: ["maxTimeoutSeconds"],
  extra: ["extra"],
};

/** Display prices: whole currency units (dollars unless a currency says otherwise). */
const DISPLAY_PRICES = ["price", "price_usd", "price_usdc", "priceUsd", "priceUSDC"] as const;

/** A price as `{amount, asset | currency, network}`, one object or a list of them. */
const PRICE_OBJECTS = ["pricing", "price"] as const;

const present = (value: unknown) => value !== undefined && value !== null && value !== "";

/** The entry fields an object states directly (first name found wins). */
function statedFields(object: Json): Json {
  const entry: Json = {};
  for (const [field, names] of Object.entries(FIELD_NAMES)) {
    const name = names.find((candidate) => present(object[candidate]));
    if (name !== undefined) entry[field] = object[name];
  }
  return entry;
}

/** Payment fields stated once for every item of the manifest (`network`, `payTo`, a `pricing` object…). */
export function manifestPayment(document: Json): Json {
  const entry = statedFields(document);
  if (entry.network === undefined && Array.isArray(document.networks) && document.networks.length === 1)
    entry.network = document.networks[0];
  const [price] = priceEntries(document);
  return price === undefined ? entry : { ...entry, ...price };
}

/** The item's price entries: `pricing`/`price` objects, else a display price; [] when none. */
function priceEntries(item: Json): Json[] {
  for (const name of PRICE_OBJECTS) {
    const value = item[name];
    const list = Array.isArray(value) ? value : [value];
    const objects = list.filter((entry): entry is Json => isRecord(entry) && present(entry.amount));
    if (objects.length > 0) return objects.map(statedFields);
  }
  const name = DISPLAY_PRICES.find(
    (candidate) => typeof item[candidate] === "string" || typeof item[candidate] === "number",
  );
  if (name === undefined) return [];
  const text = String(item[name]).trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return [{ amount: text }];
  // A display price is in whole units, never atomic ones: "$1" (or "1 credits") is not one atomic unit.
  const currency = typeof item.currency === "string" ? item.currency.trim() : "";
  const inDollars = currency === "" || /^(usd|usdc|\$)$/i.test(currency);
  return [{ amount: inDollars ? `$${text}` : `${text} ${currency}` }];
}

/** True when the item states a display price of zero, or calls itself free. */
export function statedFree(item: Json): boolean {
  if (item.free === true || (typeof item.tier === "string" && /^free$/i.test(item.tier))) return true;
  const name = DISPLAY_PRICES.find((candidate) => present(item[candidate]));
  if (name === undefined) return false;
  const text = String(item[name]).trim().replace(/^\$/, "");
  return /^0+(\.0+)?$/.test(text);
}

export interface ItemPayment {
  accepts: unknown;
  /** How the entries were made, for the resource's warnings; null when read from `accepts`. */
  note: string | null;
}

/**
 * `accepts` as published (an item-level `paymentAsset` completes entries without an asset);
 * otherwise entries made of the item's own fields and prices, completed by the manifest's.
 */
export function paymentOf(item: Json, manifest: Json, version: number | null): ItemPayment {
  if (Array.isArray(item.accepts) && item.accepts.length > 0) {
    const asset = item.paymentAsset ?? item.asset;
    if (!present(asset)) return { accepts: item.accepts, note: null };
    const completed = item.accepts.map((entry) =>
      isRecord(entry) && !present(entry.asset) ? { ...entry, asset } : entry,
    );
    return { accepts: completed, note: "asset of accepts entries completed from the item's paymentAsset" };
  }
  if (item.accepts !== undefined && !Array.isArray(item.accepts))
    return { accepts: item.accepts, note: null };
  const own = statedFields(item);
  const prices = priceEntries(item);
  const fromItem = Object.keys(own).length > 0 || prices.length > 0;
  if (!fromItem && Object.keys(manifest).length === 0) return { accepts: item.accepts, note: null };
  const entries = (prices.length > 0 ? prices : [{}]).map((price) =>
    inVersion({ ...manifest, ...own, ...price }, version),
  );
  const note = fromItem
    ? "payment requirements read from the item's own fields (no accepts)"
    : "payment requirements read from the manifest's own fields (no accepts)";
  return { accepts: entries, note };
}

/** A v1 entry names its amount `maxAmountRequired`. */
function inVersion(entry: Json, version: number | null): Json {
  if (version !== 1 || entry.amount === undefined || entry.maxAmountRequired !== undefined) return entry;
  const { amount, ...rest } = entry;
  return { ...rest, maxAmountRequired: amount };
}
