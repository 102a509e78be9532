import type { Router } from "express";
import { cancelOrder } from "../../billing/payment-order-transitions";
import { createPaymentOrder, getPaymentOrder, listPaymentOrders } from "../../billing/payment-orders";
import { chainsNotAcceptedMessage, type SettlementChain } from "../../billing/settlement-chains";
import { parseUsdcAmount } from "../../billing/usdc-amount";
import type { Database } from "../../db/prisma-client";
import type { ReadPool } from "../../db/read-pool";
import { inTransaction } from "../../db/transaction";
import { HttpError } from "../errors";
import { jsonBody } from "../json-body";
import { requestOwner } from "../request-guard";
import { apiRouter } from "../router";
import { noQuery } from "../schemas/common";
import {
  createPaymentOrderBody,
  listPaymentOrdersQuery,
  orderExpiry,
  paymentOrderIdParams,
} from "../schemas/payment-orders";
import { parseInput } from "../validation";

/** Payment orders of the calling key's organisation and environment (billing:write / billing:read). */
export function paymentOrdersRouter(
  db: Database,
  pool: ReadPool,
  chains: readonly SettlementChain[],
): Router {
  const router = apiRouter();
  const json = jsonBody();
  const byName = new Map(chains.map((chain) => [chain.chain, chain]));

  router.post("/v1/payment-orders", json, async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const owner = requestOwner(res);
    const body = parseInput(createPaymentOrderBody, req.body ?? {}, "body");
    const unknown = body.accepted_assets
      .filter((asset) => !byName.has(asset.chain))
      .map((asset) => asset.chain);
    if (unknown.length > 0) throw new HttpError(422, chainsNotAcceptedMessage(unknown, [...byName.keys()]));
    const expiresAt = orderExpiry(body.expires_at, Date.now());
    if (typeof expiresAt === "string") throw new HttpError(400, expiresAt);
    const order = await inTransaction(db, (tx) =>
      createPaymentOrder(tx, owner, byName, {
        merchantOrderId: body.merchant_order_id,
        requestedAmount: body.amount,
        amountUnits: parseUsdcAmount(body.amount) ?? 0n,
        acceptedAssets: body.accepted_assets,
        metadata: body.metadata ?? null,
        expiresAt,
      }),
    );
    res.status(201).set("Cache-Control", "no-store").json(order);
  });

  router.get("/v1/payment-orders", async (req, res) => {
    const query = parseInput(listPaymentOrdersQuery, req.query, "query");
    const page = await listPaymentOrders(pool, requestOwner(res), query);
    res.set("Cache-Control", "no-store").json(page);
  });

  router.get("/v1/payment-orders/:id", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(paymentOrderIdParams, req.params, "path");
    const order = await getPaymentOrder(pool, requestOwner(res), id);
    if (!order)
      throw new HttpError(404, `No payment order with id ${id} in this organisation and environment`);
    res.set("Cache-Control", "no-store").json(order);
  });

  router.post("/v1/payment-orders/:id/cancel", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(paymentOrderIdParams, req.params, "path");
    const owner = requestOwner(res);
    const outcome = await inTransaction(db, (tx) => cancelOrder(tx, owner, id));
    if (outcome.kind === "not_found") {
      throw new HttpError(404, `No payment order with id ${id} in this organisation and environment`);
    }
    if (outcome.kind === "conflict") {
      throw new HttpError(409, `Only a created order can be canceled; this one is ${outcome.status}`);
    }
    res.set("Cache-Control", "no-store").json(await getPaymentOrder(pool, owner, id));
  });

  return router;
}
