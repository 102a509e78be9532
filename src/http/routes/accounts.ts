import type { Router } from "express";
import type { Accounts } from "../../accounts/accounts";
import { apiKeyJson, createApiKey, getApiKeys, revokeApiKey } from "../../accounts/api-keys";
import type { VerifiedKey } from "../../accounts/key-verifier";
import { usageRows } from "../../accounts/usage";
import type { Database } from "../../db/prisma-client";
import type { ReadPool } from "../../db/read-pool";
import { HttpError } from "../errors";
import { jsonBody } from "../json-body";
import { requestKey } from "../request-guard";
import { apiRouter } from "../router";
import { apiKeyIdParams, createApiKeyBody, usageQuery } from "../schemas/accounts";
import { noQuery } from "../schemas/common";
import { parseInput } from "../validation";

function ownerOf(key: VerifiedKey) {
  return { organisationId: key.organisationId, environment: key.environment };
}

const DAY_MS = 86_400_000;

/**
 * What a key holder manages over the API: the keys of its own organisation and environment
 * (keys:write) and their usage (billing:read). The request guard has checked key and scope.
 */
export function accountsRouter(db: Database, pool: ReadPool, accounts: Accounts): Router {
  const router = apiRouter();
  const json = jsonBody();

  router.post("/v1/api-keys", json, async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const key = requestKey(res);
    const { scopes, name } = parseInput(createApiKeyBody, req.body ?? {}, "body");
    const beyond = scopes.filter((scope) => !key.scopes.includes(scope));
    if (beyond.length > 0) {
      throw new HttpError(403, `A key can only grant scopes it holds; this key lacks ${beyond.join(", ")}`);
    }
    const created = await createApiKey(db, ownerOf(key), scopes, name ?? null);
    res
      .status(201)
      .set("Cache-Control", "no-store")
      .json({ ...apiKeyJson(created), key: created.key });
  });

  router.get("/v1/api-keys", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const items = await getApiKeys(db, ownerOf(requestKey(res)));
    res.set("Cache-Control", "no-store").json({ items: items.map(apiKeyJson) });
  });

  router.delete("/v1/api-keys/:id", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(apiKeyIdParams, req.params, "path");
    const revoked = await revokeApiKey(db, ownerOf(requestKey(res)), id);
    if (!revoked) throw new HttpError(404, `No API key with id ${id} in this organisation and environment`);
    res.set("Cache-Control", "no-store").json(apiKeyJson(revoked));
  });

  router.get("/v1/usage", async (req, res) => {
    const query = parseInput(usageQuery, req.query, "query");
    const key = requestKey(res);
    const to = query.to ?? new Date().toISOString().slice(0, 10);
    const from = query.from ?? new Date(Date.parse(to) - 30 * DAY_MS).toISOString().slice(0, 10);
    // This process's latest counts first; other processes' arrive within USAGE_FLUSH_SECONDS.
    await accounts.usage.flush();
    const items = await usageRows(pool, key.organisationId, key.environment, from, to);
    res.set("Cache-Control", "no-store").json({ items });
  });

  return router;
}
