import { formatUsdcUnits } from "../billing/usdc-amount";
import type { Database } from "../db/prisma-client";
import { queryRows } from "../db/read-pool";
import { inTransaction } from "../db/transaction";
import { type EventOwner, emitEvents } from "../events/emit";
import { Prisma, type X402Payment } from "../generated/prisma/client";

/**
 * Data access for `x402_payments`: the catalogue's own sales, one row per authorisation
 * (network, payer, nonce). A row is `pending` from the moment its payment is verified, then
 * `settled` or `failed`; only those two changes are events of the operator's organisation.
 */

export interface VerifiedPayment {
  network: string;
  payer: string;
  payTo: string;
  asset: string;
  amountUnits: bigint;
  route: string;
  nonce: string;
  validBefore: Date;
  /** The payer's signed payload and the requirements it answers, as JSON, for a retry. */
  paymentPayload: Prisma.InputJsonValue;
  requirements: Prisma.InputJsonValue;
}

/**
 * Records a verified payment as pending, held by the attempt about to settle it until `heldUntil`.
 * An authorisation already recorded (settled, pending or failed) is a replay: undefined.
 */
export async function claimX402Payment(
  db: Database,
  payment: VerifiedPayment,
  heldUntil: Date,
): Promise<X402Payment | undefined> {
  try {
    return await db.x402Payment.create({
      data: { ...payment, status: "pending", nextAttemptAt: heldUntil },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return undefined;
    throw error;
  }
}

/** Forgets a pending payment whose answer was not delivered (the route failed): nothing is charged. */
export async function releaseX402Payment(db: Database, id: string): Promise<void> {
  await db.x402Payment.deleteMany({ where: { id, status: "pending" } });
}

/**
 * Pending payments due for another attempt at `now`, each held by this caller until `heldUntil`
 * (so no other process tries it meanwhile).
 */
export async function claimDueX402Payments(
  db: Database,
  now: Date,
  heldUntil: Date,
  limit: number,
): Promise<X402Payment[]> {
  const ids = await queryRows<{ id: string }>(
    db,
    Prisma.sql`
      UPDATE x402_payments SET next_attempt_at = ${heldUntil}
      WHERE id IN (
        SELECT id FROM x402_payments
        WHERE status = 'pending' AND next_attempt_at <= ${now}
        ORDER BY next_attempt_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id::text`,
  );
  if (ids.length === 0) return [];
  return db.x402Payment.findMany({ where: { id: { in: ids.map((row) => row.id) } } });
}

/**
 * Marks a payment settled with its transaction, once: a payment already settled is left alone
 * (no second event), and a settlement that lands after a recorded failure wins over it.
 */
export async function settleX402Payment(
  db: Database,
  id: string,
  transaction: string,
  operator: EventOwner,
): Promise<void> {
  await finish(db, id, ["pending", "failed"], operator, "settled", { transaction, failureReason: null });
}

/** Marks a pending payment failed for good (its authorisation can no longer settle). */
export async function failX402Payment(
  db: Database,
  id: string,
  reason: string,
  operator: EventOwner,
): Promise<void> {
  await finish(db, id, ["pending"], operator, "failed", { failureReason: reason });
}

/** Keeps a payment pending after a failed attempt, to be tried again at `nextAttemptAt`. */
export async function deferX402Payment(
  db: Database,
  id: string,
  reason: string,
  nextAttemptAt: Date,
): Promise<void> {
  await db.x402Payment.updateMany({
    where: { id, status: "pending" },
    data: { failureReason: reason, nextAttemptAt, attempts: { increment: 1 } },
  });
}

async function finish(
  db: Database,
  id: string,
  from: string[],
  operator: EventOwner,
  status: "settled" | "failed",
  data: Prisma.X402PaymentUpdateManyMutationInput,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { count } = await tx.x402Payment.updateMany({
      where: { id, status: { in: from } },
      data: {
        ...data,
        status,
        attempts: { increment: 1 },
        nextAttemptAt: null,
        paymentPayload: Prisma.DbNull,
        requirements: Prisma.DbNull,
      },
    });
    if (count === 0) return;
    const row = await tx.x402Payment.findUniqueOrThrow({ where: { id } });
    await emitEvents(tx, [
      { type: `x402_payment.${status}`, data: { x402_payment: x402PaymentJson(row) }, owner: operator },
    ]);
  });
}

/** A payment as the API and events show it (snake_case, USDC as a decimal string). */
export function x402PaymentJson(payment: X402Payment) {
  return {
    id: payment.id,
    route: payment.route,
    network: payment.network,
    payer: payment.payer,
    pay_to: payment.payTo,
    asset: payment.asset,
    amount: formatUsdcUnits(payment.amountUnits),
    status: payment.status,
    transaction: payment.transaction,
    failure_reason: payment.failureReason,
  };
}

export async function getX402Payments(db: Database, paging: { offset: number; limit: number }) {
  const [items, total] = await Promise.all([
    db.x402Payment.findMany({
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      skip: paging.offset,
      take: paging.limit,
    }),
    db.x402Payment.count(),
  ]);
  return { items, total };
}
