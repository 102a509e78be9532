import type { ListedEndpoint } from "../../catalogue/endpoint-queries";
import type { PaymentOptionRecord } from "../../catalogue/service-details";
import type { ListedTrust } from "../../catalogue/trust-queries";
import type { EndpointPayability } from "../../payability/endpoint-verdict";
import { AmountCodes } from "./amount-codes";
import { type PackedIds, packIds } from "./id-lookup";
import { IntList } from "./int-list";
import { type TrustCodes, trustCodes } from "./trust-codes";

/**
 * The endpoint table's columns: at 100,000 services there are half a million endpoints, so each
 * is a row of typed-array columns (a few dozen bytes), not an object (several hundred): codes for
 * the method and category, lists of network and price codes in one flat array each, flags and
 * times. Made by EndpointTableBuilder as a load reads endpoints, kept as plain data
 * (EndpointColumnData) that a worker thread can move and an image can store.
 */

/** What the table keeps of one endpoint, as the table reads it from a listed endpoint. */
export interface EndpointFields {
  id: string;
  method: string;
  /** The service's category, lower-cased. */
  category: string | null;
  /** Networks of its payment options, CAIP-2 ids and names, lower-cased. */
  networks: string[];
  /** Known prices of its payment options, exact decimal text. */
  prices: string[];
  drift: boolean;
  lastVerifiedAt: number | null;
  payable: boolean;
  /** Its seller published how to call it (a call description, from the listing or a live challenge). */
  callable: boolean;
  /** Its trust verdicts as codes (trust-codes.ts). */
  trust: TrustCodes;
}

/**
 * What the chain shows an endpoint's pay_tos received over 30 days (exact decimal text; null when
 * no chain reads them). Only a load changes them: the refresh of a probed endpoint keeps them.
 */
export interface ObservedFields {
  observedVolume: string | null;
  adjustedVolume: string | null;
  observedUniquePayers: number | null;
}

export const NO_OBSERVED: ObservedFields = {
  observedVolume: null,
  adjustedVolume: null,
  observedUniquePayers: null,
};

/** An endpoint as the catalogue reads it (a load's index row, or a refreshed endpoint), with its verdict. */
export interface JudgedEndpoint extends ListedTrust {
  id: string;
  method: string;
  category: string | null;
  paymentOptions: PaymentOptionRecord[];
  lastVerifiedAt: Date | null;
  drift: boolean;
  payability: EndpointPayability;
  callable: boolean;
}

export function endpointFields(row: JudgedEndpoint): EndpointFields {
  return {
    id: row.id,
    method: row.method,
    category: row.category?.toLowerCase() ?? null,
    networks: row.paymentOptions.flatMap((o) =>
      [o.network, o.networkName].flatMap((n) => (n === null ? [] : [n.toLowerCase()])),
    ),
    prices: row.paymentOptions.flatMap((o) => (o.priceUsdc === null ? [] : [o.priceUsdc])),
    drift: row.drift,
    lastVerifiedAt: row.lastVerifiedAt?.getTime() ?? null,
    payable: row.payability.payable,
    callable: row.callable,
    trust: trustCodes(row),
  };
}

/** The fields of an endpoint as the API shows it (a probe's refresh reads it so). */
export function listedEndpointFields(row: ListedEndpoint): EndpointFields {
  return endpointFields({ ...row, drift: row.drift !== null, callable: row.call !== null });
}

/** Small integer codes for repeated strings (methods, categories, networks). */
export class Dictionary {
  private readonly codes = new Map<string, number>();

  /** A dictionary whose codes are the values' indexes. */
  static of(values: readonly string[]): Dictionary {
    const dictionary = new Dictionary();
    for (const value of values) dictionary.code(value);
    return dictionary;
  }

  /** The values in code order. */
  values(): string[] {
    return [...this.codes.keys()];
  }

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.codes.size;
      this.codes.set(value, code);
    }
    return code;
  }

  /** The value's code, or -1 for a value no endpoint has. */
  find(value: string): number {
    return this.codes.get(value) ?? -1;
  }
}

/** A list column: entry i's codes are codes[starts[i]..starts[i+1]); replaced entries' lists apart. */
export class ListColumn {
  private readonly replaced = new Map<number, Int32Array>();

  constructor(
    private readonly starts: Int32Array,
    private readonly codes: Int32Array,
  ) {}

  /** Whether entry i's list holds a code that passes `test`. */
  some(i: number, test: (code: number) => boolean): boolean {
    const own = this.replaced.get(i);
    if (own !== undefined) return own.some(test);
    for (let k = this.starts[i] as number; k < (this.starts[i + 1] as number); k += 1)
      if (test(this.codes[k] as number)) return true;
    return false;
  }

  isEmpty(i: number): boolean {
    const own = this.replaced.get(i);
    return own !== undefined ? own.length === 0 : this.starts[i] === this.starts[i + 1];
  }

  replace(i: number, codes: Int32Array): void {
    this.replaced.set(i, codes);
  }

  /** Every entry's list as flat arrays: its own when no list was replaced, else made anew. */
  flat(): { starts: Int32Array; codes: Int32Array } {
    if (this.replaced.size === 0) return { starts: this.starts, codes: this.codes };
    const entries = this.starts.length - 1;
    const starts = new Int32Array(entries + 1);
    const codes = new IntList();
    for (let i = 0; i < entries; i += 1) {
      starts[i] = codes.length;
      const own = this.replaced.get(i);
      if (own !== undefined) for (const code of own) codes.push(code);
      else
        for (let k = this.starts[i] as number; k < (this.starts[i + 1] as number); k += 1)
          codes.push(this.codes[k] as number);
    }
    starts[entries] = codes.length;
    return { starts, codes: codes.done() };
  }
}

/** The columns of one value per entry, the same as plain data and in the table. */
export interface EntryArrays {
  /** Every endpoint's id (an uuid), packed. */
  ids: PackedIds;
  /** Each entry's place in id order: the tie-break of equal ranks. */
  idPlace: Int32Array;
  method: Int32Array;
  /** -1: no category. */
  category: Int32Array;
  flags: Uint8Array;
  /** Epoch milliseconds; NaN when never verified. */
  lastVerifiedAt: Float64Array;
  /** Trust verdicts as codes (trust-codes.ts), changed in place like flags. */
  health: Uint8Array;
  grade: Int8Array;
  score: Int8Array;
  warnings: Uint16Array;
  /** Observed 30-day figures: volume codes in the volumes dictionary (-1: none), payers (-1: none); set by a load only. */
  observedVolume: Int32Array;
  adjustedVolume: Int32Array;
  uniquePayers: Int32Array;
}

/** The one-value-per-entry columns of `from` (plain data or the table's columns). */
export function entryArraysOf(from: EntryArrays): EntryArrays {
  return {
    ids: from.ids,
    idPlace: from.idPlace,
    method: from.method,
    category: from.category,
    flags: from.flags,
    lastVerifiedAt: from.lastVerifiedAt,
    health: from.health,
    grade: from.grade,
    score: from.score,
    warnings: from.warnings,
    observedVolume: from.observedVolume,
    adjustedVolume: from.adjustedVolume,
    uniquePayers: from.uniquePayers,
  };
}

/**
 * The table's columns as plain data: typed arrays (each on a buffer of its own) and strings, so
 * a worker thread can build them and move them to the thread that answers requests.
 */
export interface EndpointColumnData extends EntryArrays {
  networkStarts: Int32Array;
  networkCodes: Int32Array;
  priceStarts: Int32Array;
  priceCodes: Int32Array;
  /** Each dictionary's values in code order (prices and volumes as decimal text). */
  methods: string[];
  categories: string[];
  networks: string[];
  prices: string[];
  volumes: string[];
}

/** Collects endpoints in order, then makes the table's columns. */
export class EndpointTableBuilder {
  private readonly ids: string[] = [];
  private readonly idPlaces = new IntList();
  private readonly methodCodes = new IntList();
  private readonly categoryCodes = new IntList();
  private readonly networkStarts = new IntList();
  private readonly networkCodes = new IntList();
  private readonly priceStarts = new IntList();
  private readonly priceCodes = new IntList();
  private readonly flags = new IntList();
  private readonly verifiedAt: number[] = [];
  private readonly health = new IntList();
  private readonly grade = new IntList();
  private readonly score = new IntList();
  private readonly warnings = new IntList();
  private readonly observedVolume = new IntList();
  private readonly adjustedVolume = new IntList();
  private readonly uniquePayers = new IntList();
  private readonly volumes = new AmountCodes();
  private readonly methods = new Dictionary();
  private readonly categories = new Dictionary();
  private readonly networks = new Dictionary();
  private readonly prices = new AmountCodes();

  /** Adds the next endpoint; `idPlace` is its place in id order (the tie-break of equal ranks). */
  add(fields: EndpointFields, idPlace: number, observed: ObservedFields = NO_OBSERVED): void {
    this.ids.push(fields.id);
    this.idPlaces.push(idPlace);
    this.methodCodes.push(this.methods.code(fields.method));
    this.categoryCodes.push(fields.category === null ? -1 : this.categories.code(fields.category));
    this.networkStarts.push(this.networkCodes.length);
    for (const network of fields.networks) this.networkCodes.push(this.networks.code(network));
    this.priceStarts.push(this.priceCodes.length);
    for (const price of fields.prices) this.priceCodes.push(this.prices.code(price));
    this.flags.push(flagsOf(fields));
    this.verifiedAt.push(fields.lastVerifiedAt ?? Number.NaN);
    this.health.push(fields.trust.health);
    this.grade.push(fields.trust.grade);
    this.score.push(fields.trust.score);
    this.warnings.push(fields.trust.warnings);
    const volumeCode = (text: string | null) => (text === null ? -1 : this.volumes.code(text));
    this.observedVolume.push(volumeCode(observed.observedVolume));
    this.adjustedVolume.push(volumeCode(observed.adjustedVolume));
    this.uniquePayers.push(observed.observedUniquePayers ?? -1);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The columns collected; the builder is spent. */
  data(): EndpointColumnData {
    this.networkStarts.push(this.networkCodes.length);
    this.priceStarts.push(this.priceCodes.length);
    return {
      ids: packIds(this.ids),
      idPlace: this.idPlaces.done(),
      method: this.methodCodes.done(),
      category: this.categoryCodes.done(),
      networkStarts: this.networkStarts.done(),
      networkCodes: this.networkCodes.done(),
      priceStarts: this.priceStarts.done(),
      priceCodes: this.priceCodes.done(),
      flags: Uint8Array.from(this.flags.done()),
      lastVerifiedAt: Float64Array.from(this.verifiedAt),
      health: Uint8Array.from(this.health.done()),
      grade: Int8Array.from(this.grade.done()),
      score: Int8Array.from(this.score.done()),
      warnings: Uint16Array.from(this.warnings.done()),
      observedVolume: this.observedVolume.done(),
      adjustedVolume: this.adjustedVolume.done(),
      uniquePayers: this.uniquePayers.done(),
      methods: this.methods.values(),
      categories: this.categories.values(),
      networks: this.networks.values(),
      prices: this.prices.texts(),
      volumes: this.volumes.texts(),
    };
  }
}

/** The buffers of the data's arrays (each its own), to move them to another thread. */
export function columnBuffers(data: EndpointColumnData): ArrayBuffer[] {
  return Object.values(data)
    .filter((value): value is ArrayBufferView => ArrayBuffer.isView(value))
    .map((array) => array.buffer as ArrayBuffer);
}

export const DRIFT = 1;
export const PAYABLE = 2;
export const CALLABLE = 4;
export const flagsOf = ({
  drift,
  payable,
  callable,
}: Pick<EndpointFields, "drift" | "payable" | "callable">) =>
  (drift ? DRIFT : 0) | (payable ? PAYABLE : 0) | (callable ? CALLABLE : 0);

/** The table in use: the entry columns, the list columns and the dictionaries that decode them. */
export interface EndpointColumns extends EntryArrays {
  networks: ListColumn;
  prices: ListColumn;
  dictionaries: {
    methods: Dictionary;
    categories: Dictionary;
    networks: Dictionary;
    prices: AmountCodes;
    volumes: AmountCodes;
  };
}

/** The columns of plain data (see EndpointColumnData), with their dictionaries. */
export function columnsOf(data: EndpointColumnData): EndpointColumns {
  return {
    ...entryArraysOf(data),
    networks: new ListColumn(data.networkStarts, data.networkCodes),
    prices: new ListColumn(data.priceStarts, data.priceCodes),
    dictionaries: {
      methods: Dictionary.of(data.methods),
      categories: Dictionary.of(data.categories),
      networks: Dictionary.of(data.networks),
      prices: AmountCodes.of(data.prices),
      volumes: AmountCodes.of(data.volumes),
    },
  };
}
