import { formatUsdcUnits } from "../billing/usdc-amount";
import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import { type EventOwner, emitEvents } from "../events/emit";
import type { X402Payment } from "../generated/prisma/client";

/** Data access for `x402_payments`: the catalogue's own sales, one row per authorisation. */

export interface X402PaymentRecord {
  network: string;
  payer: string;
  payTo: string;
  asset: string;
  amountUnits: bigint;
  route: string;
  nonce: string;
  status: "settled" | "failed";
  transaction?: string;
  failureReason?: string;
}

/**
 * Records a payment once: the same authorisation (network, payer, nonce) is one row whatever
 * happens to it. A settlement after a recorded failure turns the row into `settled`; a failure
 * never overwrites a settlement. Each change is an event of the operator's organisation
 * (`x402_payment.settled` / `.failed`), written in the same transaction.
 */
export async function recordX402Payment(
  db: Database,
  payment: X402PaymentRecord,
  operator: EventOwner,
): Promise<void> {
  const key = { network: payment.network, payer: payment.payer, nonce: payment.nonce };
  await inTransaction(db, async (tx) => {
    const existing = await tx.x402Payment.findUnique({ where: { network_payer_nonce: key } });
    if (existing?.status === "settled") return;
    const row = existing
      ? await tx.x402Payment.update({ where: { id: existing.id }, data: payment })
      : await tx.x402Payment.create({ data: payment });
    const type = row.status === "settled" ? "x402_payment.settled" : "x402_payment.failed";
    await emitEvents(tx, [{ type, data: { x402_payment: x402PaymentJson(row) }, owner: operator }]);
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
