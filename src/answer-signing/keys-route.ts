import type { Router } from "express";
import { apiRouter } from "../http/router";
import type { AnswerKeyRing } from "./answer-keys";
import { SIGNATURE_HEADER, SIGNED_STRING_VERSION } from "./signed-string";

export const ANSWER_KEYS_PATH = "/.well-known/x402-catalogue-keys.json";

/**
 * The public keys that verify the catalogue's answers, current first; keys rotated out stay
 * listed as `retiring` for as long as the operator keeps them in ANSWER_SIGNING_OLD_KEYS.
 */
export function answerKeysRouter(keys: AnswerKeyRing): Router {
  const document = JSON.stringify({
    signatureHeader: SIGNATURE_HEADER,
    signedString: SIGNED_STRING_VERSION,
    documentation: "docs/agents.md#verifying-answers",
    keys: keys.published(),
  });
  const router = apiRouter();
  router.get(ANSWER_KEYS_PATH, (_req, res) => {
    res.set("Cache-Control", "public, max-age=300").type("application/json").send(document);
  });
  return router;
}
