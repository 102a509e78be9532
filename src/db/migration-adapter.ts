import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { poolConfigFromUrl } from "./connection-options";

/**
 * The driver adapter handed to the Prisma CLI (prisma.config.ts) so `migrate deploy/status/diff`
 * run on the WASM schema engine, with no native engine download. It works around four verified
 * traps of @prisma/adapter-pg 6.19 used for migrations:
 *  - catalog types `name`/`"char"` cannot be deserialised: report them as text;
 *  - migration scripts are split on every `;`: send each script whole, as the native engine does;
 *  - pools keep the CLI alive ~10 s after it is done: allow exit on idle;
 *  - the stock shadow database connects to the main database: use a fresh, force-dropped one.
 */

const TEXT_OID = 25;
const TEXT_ARRAY_OID = 1009;
const CATALOG_TEXT_OIDS = new Map<number, number>([
  [19, TEXT_OID], // name
  [18, TEXT_OID], // "char"
  [1003, TEXT_ARRAY_OID], // name[]
  [1002, TEXT_ARRAY_OID], // "char"[]
]);

interface FieldDescription {
  dataTypeID: number;
}
type AddFields = (fieldDescriptions: FieldDescription[]) => void;

let catalogTypesPatched = false;

/** Must run before rows are parsed: the adapter throws on these OIDs before we could map them. */
function reportCatalogTypesAsText(): void {
  if (catalogTypesPatched) return;
  catalogTypesPatched = true;
  const proto = (pg as unknown as { Result: { prototype: { addFields: AddFields } } }).Result.prototype;
  const original = proto.addFields;
  proto.addFields = function addFields(this: unknown, fields: FieldDescription[]) {
    for (const field of fields) {
      const replacement = CATALOG_TEXT_OIDS.get(field.dataTypeID);
      if (replacement !== undefined) field.dataTypeID = replacement;
    }
    original.call(this, fields);
  };
}

type Connected = Awaited<ReturnType<PrismaPg["connect"]>>;

function sendScriptsWhole(adapter: Connected): Connected {
  const client = adapter.underlyingDriver() as pg.Pool;
  adapter.executeScript = async (script: string) => {
    // A query without parameters goes over the simple protocol, which accepts many statements
    // and runs them as one implicit transaction: each migration stays atomic.
    await client.query(script);
  };
  return adapter;
}

class MigrationPgAdapter extends PrismaPg {
  constructor(private readonly poolConfig: pg.PoolConfig) {
    super({ ...poolConfig, allowExitOnIdle: true });
  }

  override async connect(): Promise<Connected> {
    return sendScriptsWhole(await super.connect());
  }

  override async connectToShadowDb(): Promise<Connected> {
    const database = `prisma_shadow_${randomUUID().replaceAll("-", "")}`;
    const admin = new pg.Client({ ...this.poolConfig });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    await admin.end();
    const shadowConfig = { ...this.poolConfig, database, allowExitOnIdle: true };
    const shadow = await new PrismaPg(shadowConfig).connect();
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      const dropper = new pg.Client({ ...this.poolConfig });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await dropper.end();
    };
    return sendScriptsWhole(shadow);
  }
}

let longTimersUnrefd = false;

/**
 * The WASM schema engine leaves a long timer behind that keeps the CLI alive for ~10 s after its
 * work is done. Timers this long never carry CLI work, so they must not hold the process open.
 */
function unrefLongTimers(thresholdMs = 5_000): void {
  if (longTimersUnrefd) return;
  longTimersUnrefd = true;
  const original = globalThis.setTimeout;
  const patched = ((handler: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    const timer = original(() => handler(...args), delay);
    if ((delay ?? 0) >= thresholdMs) timer.unref();
    return timer;
  }) as typeof setTimeout;
  globalThis.setTimeout = Object.assign(patched, original);
}

/** Only for the Prisma CLI (prisma.config.ts): patches process-wide behaviour of pg and timers. */
export function createMigrationAdapter(databaseUrl: string): PrismaPg {
  reportCatalogTypesAsText();
  unrefLongTimers();
  return new MigrationPgAdapter(poolConfigFromUrl(databaseUrl));
}
