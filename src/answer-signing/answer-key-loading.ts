import path from "node:path";
import type { Config } from "../config/config";
import { configuredOrKeptKey } from "../config/kept-secret";
import { AnswerKeyRing } from "./answer-keys";

/** Where the answer signing key is kept when ANSWER_SIGNING_KEY is unset. */
export const ANSWER_KEY_FILE = "answer-signing.key";

export interface AnswerKeySettings {
  /** ANSWER_SIGNING_KEY; unset: the seed kept in `keyFile`, generated at the first start. */
  key?: Buffer;
  /** ANSWER_SIGNING_OLD_KEYS: published as retiring, never used to sign. */
  oldKeys: readonly Buffer[];
  keyFile: string;
}

export function answerKeySettingsFromConfig(config: Config): AnswerKeySettings {
  return {
    key: config.ANSWER_SIGNING_KEY,
    oldKeys: config.ANSWER_SIGNING_OLD_KEYS,
    keyFile: path.join(config.CATALOGUE_DATA_DIR, ANSWER_KEY_FILE),
  };
}

/**
 * The answer keys of this process. With ANSWER_SIGNING_KEY set, a key file left by earlier starts
 * is published as retiring, so moving from the generated key to a configured one keeps earlier
 * answers verifiable.
 */
export async function loadAnswerKeys(settings: AnswerKeySettings): Promise<AnswerKeyRing> {
  const { current, old } = await configuredOrKeptKey(settings.key, settings.oldKeys, settings.keyFile);
  return new AnswerKeyRing(current, old);
}
