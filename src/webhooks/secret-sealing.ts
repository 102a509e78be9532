import path from "node:path";
import type { Config } from "../config/config";
import { configuredOrKeptKey } from "../config/kept-secret";
import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import type { Logger } from "../logging/logger";
import { isSealed, SecretKeyRing } from "./secret-keys";
import { previousSecretsJson, readPreviousSecrets, stillSigning } from "./secrets";

/** Where the webhook secret key is kept when WEBHOOK_SECRET_KEY is unset. */
export const KEY_FILE = "webhook-secret.key";

export interface SecretKeySettings {
  /** WEBHOOK_SECRET_KEY; unset: the key kept in `keyFile`, generated at the first start. */
  key?: Buffer;
  /** WEBHOOK_SECRET_OLD_KEYS: read, never used to seal. */
  oldKeys: readonly Buffer[];
  keyFile: string;
}

export function secretKeySettingsFromConfig(config: Config): SecretKeySettings {
  return {
    key: config.WEBHOOK_SECRET_KEY,
    oldKeys: config.WEBHOOK_SECRET_OLD_KEYS,
    keyFile: path.join(config.CATALOGUE_DATA_DIR, KEY_FILE),
  };
}

/**
 * The key ring of this process. With WEBHOOK_SECRET_KEY set, a key file left by earlier starts
 * is read as an old key, so moving from the generated key to a configured one needs nothing more.
 */
export async function loadSecretKeyRing(settings: SecretKeySettings): Promise<SecretKeyRing> {
  const { current, old } = await configuredOrKeptKey(settings.key, settings.oldKeys, settings.keyFile);
  return new SecretKeyRing(current, old);
}

/**
 * Brings every stored secret under the current key: plain `whsec_` values (an upgraded
 * database, or secrets set by hand) are sealed, values sealed with an old key are sealed again,
 * and secrets rotated out that no longer sign are dropped. A value sealed with a key this
 * process lacks stops the start (UnknownSecretKeyError): it would otherwise fail every delivery
 * of its endpoint. Runs at every start of a delivering or API process; they take turns on an
 * advisory lock.
 */
export async function sealStoredSecrets(
  db: Database,
  keys: SecretKeyRing,
  now = new Date(),
): Promise<number> {
  return inTransaction(db, async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('webhook-secret-sealing', 0))`;
    const endpoints = await tx.webhookEndpoint.findMany({
      select: { id: true, secret: true, previousSecrets: true },
    });
    let changed = 0;
    for (const endpoint of endpoints) {
      const current = (stored: string) =>
        keys.isCurrent(stored)
          ? stored
          : keys.seal(isSealed(stored) ? keys.open(stored, endpoint.id) : stored, endpoint.id);
      const stored = readPreviousSecrets(endpoint.previousSecrets);
      const previous = stillSigning(stored, now).map((entry) => ({
        ...entry,
        secret: current(entry.secret),
      }));
      const secret = current(endpoint.secret);
      const unchanged =
        secret === endpoint.secret &&
        previous.length === stored.length &&
        previous.every((entry, i) => entry.secret === stored[i]?.secret);
      if (unchanged) continue;
      await tx.webhookEndpoint.update({
        where: { id: endpoint.id },
        data: { secret, previousSecrets: previousSecretsJson(previous) },
      });
      changed += 1;
    }
    return changed;
  });
}

/** The key ring, with the stored secrets brought under its current key. */
export async function openWebhookSecrets(
  config: Config,
  db: Database,
  logger: Logger,
): Promise<SecretKeyRing> {
  const keys = await loadSecretKeyRing(secretKeySettingsFromConfig(config));
  const sealed = await sealStoredSecrets(db, keys);
  if (sealed > 0) logger.info({ endpoints: sealed }, "webhook secrets sealed with the current key");
  return keys;
}
