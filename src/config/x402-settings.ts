import { secretKey, secretKeyList } from "./setting-schemas";

/** Signed answers (src/answer-signing): read with the rest of the settings in config.ts. */
export const answerSigningSettings = {
  ANSWER_SIGNING_KEY: {
    schema: secretKey.optional(),
    secret: true,
    description:
      "Ed25519 seed (32 bytes) that signs the answers of the data routes (docs/agents.md, Verifying answers). Unset: a seed generated at the first start and kept in CATALOGUE_DATA_DIR/answer-signing.key (mode 0600). Processes behind one address must all set the same key.",
  },
  ANSWER_SIGNING_OLD_KEYS: {
    schema: secretKeyList,
    secret: true,
    description:
      "Seeds ANSWER_SIGNING_KEY replaced: their public keys stay published as retiring at /.well-known/x402-catalogue-keys.json, so answers signed before a rotation keep verifying; they never sign.",
  },
} as const;
