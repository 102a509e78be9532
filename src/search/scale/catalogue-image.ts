import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import v8 from "node:v8";
import { changesSince } from "../../catalogue/catalogue-changes";
import {
  type ImageWriter,
  readNewestImage,
  type StoredImage,
  writeImage,
} from "../../catalogue/catalogue-images";
import type { ReadPool } from "../../db/read-pool";
import { decimalToString } from "../../normalise/decimal";
import type { Catalogue } from "../load/catalogue";
import { Interned } from "../load/interned";
import type { EndpointColumnData } from "../tables/endpoint-columns";
import { EndpointTable } from "../tables/endpoint-table";
import { ServiceColumnsBuilder } from "../tables/service-columns-builder";
import type { ServiceEntry } from "../tables/service-entry";
import { ServiceTable } from "../tables/service-table";
import { type TextData, TextIndex } from "../text/text-index";
import { textData } from "./text-data";

/**
 * An image of a loaded catalogue, stored in Postgres (src/catalogue/catalogue-images.ts): a process
 * that starts reads the newest one (a few seconds at 100,000 services, mostly copying bytes) instead
 * of building the catalogue from every row and search document (13-18 s of CPU-bound work on two
 * cores), then catches up from the image's snapshot through the change logs like any process that
 * fell behind: probe results and seen times in place, a change of shape by a reload in the
 * background while the image's catalogue answers. Stored in Postgres rather than on local disk so
 * that any replica, including a new container, starts from it.
 *
 * The image is a sequence of pieces, each padded to 8 bytes: a V8-serialised skeleton (the plain
 * data below with each typed array replaced by its number), the services' entries V8-serialised a
 * slice at a time (so writing them never holds the event loop for long), then every typed array's
 * bytes as they are in memory. A reader puts the arrays in one buffer and views them where they lie.
 */

/**
 * The layout of an image: bump it whenever what one holds changes shape (ServiceEntry,
 * EndpointColumnData, TextData, the pieces' order). A process reads only images of its own format;
 * the image test fails when the shape changes under an unchanged number.
 */
export const IMAGE_FORMAT = 4;

/** The catalogue besides its snapshot and the services' entries, as plain data. */
interface CatalogueData {
  services: { idPlace: Int32Array; text: TextData };
  endpoints: { columns: EndpointColumnData; text: TextData };
}

const ARRAY_TYPES = { Int32Array, Int8Array, Uint8Array, Uint16Array, Float64Array } as const;
type ArrayType = keyof typeof ARRAY_TYPES;
type ImageArray = InstanceType<(typeof ARRAY_TYPES)[ArrayType]>;

interface Skeleton {
  /** The plain data, each typed array replaced by { [ARRAY]: its number }. */
  data: unknown;
  arrays: Array<{ type: ArrayType; length: number }>;
  entrySlices: number;
}

/** The key that marks a typed array's place in the skeleton (no key of the data has it). */
const ARRAY = "~array";
/** Entries V8-serialised per piece (~300 KB, ~2 ms on the answering thread; 2,000 took ~8 ms). */
const ENTRY_SLICE = 500;
/**
 * Bytes per stored chunk. Each is copied twice on the answering thread, joined and then into
 * pg's message: 8 MB chunks took 6-10 ms a chunk, which a busy machine stretched to 60-90 ms gaps.
 */
const CHUNK_BYTES = 1024 * 1024;

const padding = (length: number) => (8 - (length % 8)) % 8;

function arrayType(array: ArrayBufferView): ArrayType {
  const type = array.constructor.name;
  if (!(type in ARRAY_TYPES)) throw new Error(`an image cannot hold a ${type}`);
  return type as ArrayType;
}

/** The value with its typed arrays moved to `arrays`, each replaced by a marker. */
function detach(value: unknown, arrays: ArrayBufferView[]): unknown {
  if (ArrayBuffer.isView(value)) {
    arrays.push(value);
    return { [ARRAY]: arrays.length - 1 };
  }
  if (Array.isArray(value)) return value.map((item) => detach(item, arrays));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, detach(item, arrays)]));
  return value;
}

/** The value with each marker replaced by its typed array again. */
function attach(value: unknown, arrays: readonly ImageArray[]): unknown {
  if (Array.isArray(value)) return value.map((item) => attach(item, arrays));
  if (value !== null && typeof value === "object") {
    const marker = (value as Record<string, unknown>)[ARRAY];
    if (typeof marker === "number") {
      const array = arrays[marker];
      if (array === undefined) throw new Error(`the image has no array ${marker}`);
      return array;
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, attach(item, arrays)]));
  }
  return value;
}

/**
 * The image's pieces, in order. What they hold is taken when the first is asked for; the caller
 * keeps the catalogue from changing in place until the last (see CatalogueKeeper).
 */
async function* imagePieces({ services, endpoints }: Catalogue): AsyncGenerator<Buffer> {
  const { idPlace, text } = services.parts();
  const count = services.size;
  const data: CatalogueData = {
    services: { idPlace, text: await textData(text) },
    endpoints: { columns: endpoints.data(), text: await textData(endpoints.text) },
  };
  const arrays: ArrayBufferView[] = [];
  const skeleton: Skeleton = {
    data: detach(data, arrays),
    arrays: arrays.map((array) => ({
      type: arrayType(array),
      length: array.byteLength / (array as ImageArray).BYTES_PER_ELEMENT,
    })),
    entrySlices: Math.ceil(count / ENTRY_SLICE),
  };
  yield v8.serialize(skeleton);
  for (let from = 0; from < count; from += ENTRY_SLICE) {
    yield v8.serialize(services.storedEntries(from, Math.min(count, from + ENTRY_SLICE)));
    await yieldToEventLoop();
  }
  for (const array of arrays) yield Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** Cuts the pieces (each padded) into chunks of CHUNK_BYTES for `writer`; returns the pieces' lengths. */
async function writeChunks(
  pieces: AsyncIterable<Buffer>,
  writer: ImageWriter,
  signal: AbortSignal | undefined,
): Promise<number[]> {
  const lengths: number[] = [];
  let parts: Buffer[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    const chunk = Buffer.concat(parts, size);
    parts = [];
    size = 0;
    signal?.throwIfAborted();
    await writer.chunk(chunk);
  };
  const add = async (bytes: Buffer) => {
    for (let at = 0; at < bytes.length; ) {
      const take = Math.min(CHUNK_BYTES - size, bytes.length - at);
      parts.push(bytes.subarray(at, at + take));
      size += take;
      at += take;
      if (size === CHUNK_BYTES) await flush();
    }
  };
  for await (const piece of pieces) {
    lengths.push(piece.length);
    await add(piece);
    await add(Buffer.alloc(padding(piece.length)));
  }
  await flush();
  return lengths;
}

/** The stored chunks read back as a stream of bytes. */
class ByteReader {
  private chunk: Buffer = Buffer.alloc(0);
  private at = 0;

  constructor(private readonly chunks: AsyncIterator<Buffer>) {}

  /** Fills `target` with the next bytes. */
  async readInto(target: Uint8Array): Promise<void> {
    for (let filled = 0; filled < target.length; ) {
      if (this.at === this.chunk.length) {
        const next = await this.chunks.next();
        if (next.done === true) throw new Error("the catalogue image ended early");
        this.chunk = next.value;
        this.at = 0;
      }
      const take = Math.min(target.length - filled, this.chunk.length - this.at);
      target.set(this.chunk.subarray(this.at, this.at + take), filled);
      filled += take;
      this.at += take;
    }
  }

  /** Reads a piece of `length` bytes and its padding; the piece is copied into `target` or a new array. */
  async piece(length: number, target = new Uint8Array(length)): Promise<Uint8Array> {
    if (target.length !== length) throw new Error("the catalogue image's pieces are not as its arrays say");
    await this.readInto(target);
    await this.readInto(new Uint8Array(padding(length)));
    return target;
  }

  async atEnd(): Promise<boolean> {
    return this.at === this.chunk.length && (await this.chunks.next()).done === true;
  }
}

/**
 * The entry with the values entries share taken from `shared`, as a load shares them (see
 * serviceEntry): V8 deserialises every string anew, and 100,000 entries' own copies of the same
 * networks, tags and prices were ~70 MB more heap (189 against 120 MB at rest) for the collector
 * to walk, and a reload beside them to fit next to.
 */
function sharingValues(entry: ServiceEntry, shared: Interned): ServiceEntry {
  return {
    ...entry,
    category: shared.of(entry.category),
    tags: shared.list(entry.tags),
    methods: shared.list(entry.methods),
    sourceKinds: shared.list(entry.sourceKinds),
    sourceUrls: shared.list(entry.sourceUrls),
    paymentOptions: entry.paymentOptions.map((option) => ({
      network: shared.of(option.network),
      networkName: shared.of(option.networkName),
      asset: shared.of(option.asset),
      assetSymbol: shared.of(option.assetSymbol),
      payTo: shared.of(option.payTo),
      price: option.price === null ? null : shared.amount(decimalToString(option.price.exact)),
    })),
  };
}

/** The catalogue an image holds. */
async function catalogueOf(image: StoredImage, chunks: AsyncIterable<Buffer>): Promise<Catalogue> {
  const reader = new ByteReader(chunks[Symbol.asyncIterator]());
  const lengths = image.pieces;
  let piece = 0;
  const nextLength = () => {
    const length = lengths[piece];
    if (length === undefined) throw new Error("the catalogue image has fewer pieces than its skeleton says");
    piece += 1;
    return length;
  };
  const value = async () => v8.deserialize(await reader.piece(nextLength())) as unknown;
  const skeleton = (await value()) as Skeleton;
  const entries: ServiceEntry[] = [];
  const shared = new Interned();
  // The columns are made entry by entry as the slices are read, as a load makes them, rather than
  // in one pass over every entry at the end (130-190 ms at 100,000 entries).
  const columns = new ServiceColumnsBuilder();
  for (let slice = 0; slice < skeleton.entrySlices; slice += 1) {
    for (const stored of (await value()) as ServiceEntry[]) {
      const entry = sharingValues(stored, shared);
      entries.push(entry);
      columns.add(entry);
    }
  }
  // Every array in one buffer, each at a multiple of 8 bytes (what a Float64Array needs).
  const arrayLengths = lengths.slice(piece);
  const buffer = new ArrayBuffer(arrayLengths.reduce((sum, length) => sum + length + padding(length), 0));
  let offset = 0;
  const arrays: ImageArray[] = [];
  for (const { type, length } of skeleton.arrays) {
    const bytes = nextLength();
    await reader.piece(bytes, new Uint8Array(buffer, offset, bytes));
    const Type = ARRAY_TYPES[type];
    if (bytes !== length * Type.BYTES_PER_ELEMENT)
      throw new Error("the catalogue image's array lengths disagree");
    arrays.push(new Type(buffer, offset, length));
    offset += bytes + padding(bytes);
  }
  if (piece !== lengths.length || !(await reader.atEnd()))
    throw new Error("the catalogue image holds more than its skeleton says");
  // The skeleton was written from a CatalogueData by this format's writer.
  const data = attach(skeleton.data, arrays) as CatalogueData;
  return {
    snapshot: image.snapshot,
    services: ServiceTable.of(
      entries,
      await columns.finish(entries),
      TextIndex.fromData(data.services.text),
      data.services.idPlace,
    ),
    endpoints: EndpointTable.of(data.endpoints.columns, TextIndex.fromData(data.endpoints.text)),
  };
}

/** The catalogue of the newest usable image (see newestImage), or null when there is none. */
export function readCatalogueImage(pool: ReadPool): Promise<Catalogue | null> {
  return readNewestImage(pool, IMAGE_FORMAT, catalogueOf);
}

/** An image older than this is written again even if nothing changed its shape since (probe results did). */
const REWRITE_AFTER_MS = 60 * 60 * 1000;

export interface ImageWriteOptions {
  /** Stops the write at its next chunk (the process is shutting down); nothing is kept. */
  signal?: AbortSignal;
  /** The newest image could not be read: replace it even if it would otherwise do. */
  replaceNewest?: boolean;
}

/**
 * Stores an image of the catalogue unless another process is writing one or the newest image is
 * as good: taken after the catalogue's last change of shape, and younger than REWRITE_AFTER_MS
 * (what changed in place since is caught up from the change logs). Returns whether it wrote one.
 * The caller keeps the catalogue from changing in place meanwhile.
 */
export function writeCatalogueImage(
  pool: ReadPool,
  catalogue: Catalogue,
  { signal, replaceNewest = false }: ImageWriteOptions = {},
): Promise<boolean> {
  const header = {
    format: IMAGE_FORMAT,
    snapshot: catalogue.snapshot,
    services: catalogue.services.size,
    endpoints: catalogue.endpoints.size,
  };
  return writeImage(
    pool,
    header,
    async (newest, client) =>
      newest === null ||
      replaceNewest ||
      (newest.snapshot !== catalogue.snapshot &&
        (Date.now() - newest.createdAt.getTime() > REWRITE_AFTER_MS ||
          (await changesSince(client, newest.snapshot)).shape)),
    (writer) => writeChunks(imagePieces(catalogue), writer, signal),
  );
}
