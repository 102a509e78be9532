import { type HTTPRequestContext, withPrivateCacheControl } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { NextFunction, Response } from "express";
import type { Database } from "../db/prisma-client";
import type { Prisma } from "../generated/prisma/client";
import { holdAnswer } from "../http/held-answer";
import type { Logger } from "../logging/logger";
import type { Settlements } from "./settlements";
import { claimX402Payment, releaseX402Payment, type VerifiedPayment } from "./x402-payments";

/** The most of a paid answer held back while it settles; a larger one streams on and settles when it ends. */
const MAX_HELD_BYTES = 4 * 1024 * 1024;

export interface VerifiedRequest {
  paymentPayload: PaymentPayload;
  paymentRequirements: PaymentRequirements;
  declaredExtensions?: Record<string, unknown>;
  context: HTTPRequestContext;
  /** The sold route's pattern, e.g. "GET /v1/services". */
  route: string;
}

export interface PaidAnswerDependencies {
  db: Database;
  settlements: Settlements;
  logger: Logger;
  /** How long a ready answer waits for its settlement before it is sent without it. */
  settleWaitMs: number;
}

/** Why a verified payment is not taken. */
export type Refusal = "payment_already_used" | "unsupported_payment";

/**
 * Answers a request whose payment the facilitator verified: the payment is recorded pending
 * (an authorisation already recorded is a replay and is refused), the route answers, and only
 * an answer the route gave successfully is settled. The answer waits for its settlement up to
 * `settleWaitMs` and then carries PAYMENT-RESPONSE; past that it is sent without, and the
 * settlement goes on (and is retried) after it. A failed route, or a client gone before the
 * answer exists, charges nothing.
 */
export async function answerPaid(
  deps: PaidAnswerDependencies,
  verified: VerifiedRequest,
  res: Response,
  next: NextFunction,
): Promise<Refusal | undefined> {
  const payment = verifiedPayment(verified);
  if (!payment) return "unsupported_payment";
  const claimed = await claimX402Payment(deps.db, payment, deps.settlements.holdUntil());
  if (!claimed) return "payment_already_used";
  const toSettle = {
    ...claimed,
    validBefore: payment.validBefore,
    paymentPayload: verified.paymentPayload,
    requirements: verified.paymentRequirements,
  };
  const settle = () =>
    deps.settlements.attempt(toSettle, { request: verified.context }, verified.declaredExtensions);

  const held = holdAnswer(res, MAX_HELD_BYTES);
  next();
  const outcome = await held.outcome;
  if (outcome === "closed" || held.status() >= 400) {
    await releaseX402Payment(deps.db, claimed.id);
    // A closed answer stays held: there is nobody to send it to.
    if (outcome !== "closed") held.release();
    return undefined;
  }
  res.setHeader("Cache-Control", withPrivateCacheControl(headerText(res, "Cache-Control")));
  if (outcome === "too_large") {
    held.release();
    res.once("close", () => {
      settle().catch((error: unknown) => deps.logger.error({ err: error }, "settling a paid export failed"));
    });
    return undefined;
  }
  const settling = settle();
  const headers = await Promise.race([settling, delay(deps.settleWaitMs)]);
  for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
  held.release();
  // An attempt past the wait goes on; its failure is recorded by the attempt itself.
  settling.catch((error: unknown) => deps.logger.error({ err: error }, "settling a paid answer failed"));
  return undefined;
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

function headerText(res: Response, name: string): string | null {
  const value = res.getHeader(name);
  return value === undefined ? null : String(value);
}

/** What is recorded of a verified payment: who pays what for which route (EIP-3009 authorisations). */
function verifiedPayment({
  paymentPayload,
  paymentRequirements: requirements,
  route,
}: VerifiedRequest): VerifiedPayment | undefined {
  const authorization = (
    paymentPayload.payload as {
      authorization?: { from?: unknown; nonce?: unknown; validBefore?: unknown };
    }
  ).authorization;
  const { from, nonce, validBefore } = authorization ?? {};
  if (typeof from !== "string" || typeof nonce !== "string" || typeof validBefore !== "string") {
    return undefined;
  }
  return {
    network: requirements.network,
    payer: from.toLowerCase(),
    nonce: nonce.toLowerCase(),
    payTo: requirements.payTo.toLowerCase(),
    asset: requirements.asset.toLowerCase(),
    amountUnits: BigInt(requirements.amount),
    route,
    validBefore: new Date(Number(validBefore) * 1000),
    paymentPayload: asJson(paymentPayload),
    requirements: asJson(requirements),
  };
}

const asJson = (value: unknown): Prisma.InputJsonValue => JSON.parse(JSON.stringify(value));
