import type { Database } from "../db/prisma-client";

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
 * never overwrites a settlement.
 */
export async function recordX402Payment(db: Database, payment: X402PaymentRecord): Promise<void> {
  const key = { network: payment.network, payer: payment.payer, nonce: payment.nonce };
  await db.$transaction(async (tx) => {
    const existing = await tx.x402Payment.findUnique({ where: { network_payer_nonce: key } });
    if (!existing) {
      await tx.x402Payment.create({ data: payment });
      return;
    }
    if (existing.status === "settled") return;
    await tx.x402Payment.update({ where: { id: existing.id }, data: payment });
  });
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
