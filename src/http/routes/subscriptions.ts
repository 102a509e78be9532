import type { Router } from "express";
import { listPlans, planJson } from "../../billing/plans";
import { getSubscription, listInvoices, listSubscriptions } from "../../billing/subscription-reads";
import {
  BillingRefusal,
  type BillingSettings,
  cancelSubscription,
  changePlan,
  createSubscription,
} from "../../billing/subscriptions";
import type { Database } from "../../db/prisma-client";
import type { ReadPool } from "../../db/read-pool";
import { inTransaction, type Transaction } from "../../db/transaction";
import { HttpError } from "../errors";
import { jsonBody } from "../json-body";
import { requestOwner } from "../request-guard";
import { apiRouter } from "../router";
import { noQuery } from "../schemas/common";
import {
  cancelSubscriptionBody,
  changePlanBody,
  createSubscriptionBody,
  listInvoicesQuery,
  listSubscriptionsQuery,
  MAX_LISTED_INVOICES,
  subscriptionIdParams,
} from "../schemas/subscriptions";
import { parseInput } from "../validation";

const STATUS = { not_found: 404, conflict: 409, unprocessable: 422 } as const;

/** Runs a billing change in one transaction; a refusal of the rules becomes its 4xx. */
async function billingChange<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await inTransaction(db, work);
  } catch (error) {
    if (error instanceof BillingRefusal) throw new HttpError(STATUS[error.reason], error.message);
    throw error;
  }
}

/** Plans (public) and the merchant subscriptions and invoices of the calling key's organisation and environment. */
export function subscriptionsRouter(db: Database, pool: ReadPool, settings: BillingSettings): Router {
  const router = apiRouter();
  const json = jsonBody();

  router.get("/v1/plans", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    res.set("Cache-Control", "no-store").json((await listPlans(db)).map(planJson));
  });

  router.post("/v1/merchant/subscriptions", json, async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const owner = requestOwner(res);
    const body = parseInput(createSubscriptionBody, req.body ?? {}, "body");
    const created = await billingChange(db, (tx) =>
      createSubscription(
        tx,
        settings,
        owner,
        { merchantUserId: body.merchant_user_id, planId: body.plan_id },
        new Date(),
      ),
    );
    res.status(201).set("Cache-Control", "no-store").json(created);
  });

  router.get("/v1/merchant/subscriptions", async (req, res) => {
    const query = parseInput(listSubscriptionsQuery, req.query, "query");
    res.set("Cache-Control", "no-store").json(await listSubscriptions(pool, requestOwner(res), query));
  });

  router.get("/v1/merchant/subscriptions/:id", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(subscriptionIdParams, req.params, "path");
    const subscription = await getSubscription(pool, requestOwner(res), id);
    if (!subscription) {
      throw new HttpError(404, `No subscription with id ${id} in this organisation and environment`);
    }
    res.set("Cache-Control", "no-store").json(subscription);
  });

  router.post("/v1/merchant/subscriptions/:id/change-plan", json, async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(subscriptionIdParams, req.params, "path");
    const owner = requestOwner(res);
    const body = parseInput(changePlanBody, req.body ?? {}, "body");
    const change = await billingChange(db, (tx) =>
      changePlan(tx, settings, owner, id, body.plan_id, new Date()),
    );
    res.set("Cache-Control", "no-store").json(change);
  });

  router.post("/v1/merchant/subscriptions/:id/cancel", json, async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(subscriptionIdParams, req.params, "path");
    const owner = requestOwner(res);
    const body = parseInput(cancelSubscriptionBody, req.body ?? {}, "body");
    const subscription = await billingChange(db, (tx) =>
      cancelSubscription(tx, owner, id, body.at_period_end),
    );
    res.set("Cache-Control", "no-store").json(subscription);
  });

  router.get("/v1/merchant/portal/invoices", async (req, res) => {
    const query = parseInput(listInvoicesQuery, req.query, "query");
    const invoices = await listInvoices(pool, requestOwner(res), { ...query, limit: MAX_LISTED_INVOICES });
    res.set("Cache-Control", "no-store").json(invoices);
  });

  return router;
}
