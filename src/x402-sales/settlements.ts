import { PaymentPayloadV2Schema, PaymentRequirementsV2Schema } from "@x402/core/schemas";
import type { HTTPTransportContext, x402HTTPResourceServer } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { AuthorisationOutcome, Eip3009Authorisations } from "../chain/eip3009-authorisations";
import type { Database } from "../db/prisma-client";
import type { EventOwner } from "../events/emit";
import type { X402Payment } from "../generated/prisma/client";
import type { Logger } from "../logging/logger";
import { safeError } from "../logging/safe-error";
import { type RunningLoop, startRepeating } from "../scheduling/locked-loop";
import { claimDueX402Payments, deferX402Payment, failX402Payment, settleX402Payment } from "./x402-payments";

/** How long an attempt holds a payment: no other attempt starts on it meanwhile. */
const ATTEMPT_HOLD_MS = 60_000;
/** Payments one retry round tries at most (the next round takes the rest). */
const ROUND_SIZE = 20;

/** One payment to settle: its row (id, attempts so far, the authorisation) and what settles it. */
export interface PaymentToSettle
  extends Pick<
    X402Payment,
    "id" | "attempts" | "network" | "payer" | "payTo" | "asset" | "amountUnits" | "nonce" | "createdAt"
  > {
  validBefore: Date | null;
  paymentPayload: PaymentPayload;
  requirements: PaymentRequirements;
}

export interface SettlementDependencies {
  http: x402HTTPResourceServer;
  db: Database;
  operator: EventOwner;
  logger: Logger;
  /** The first pause before a retry; each further one doubles. */
  retryMs: number;
  /** The chain lookup of each network with an RPC endpoint (X402_RPC_URLS). */
  chains: ReadonlyMap<string, Eip3009Authorisations>;
  now?: () => number;
}

/**
 * Settling verified payments after their answers, and again until they settle: every attempt
 * goes through the official library's `processSettlement` (the facilitator's settle), and its
 * outcome is recorded on the payment's row. A failed attempt is retried after a pause that
 * doubles, while the payer's authorisation is still valid; then the payment is `failed`. After a
 * failed attempt the token on chain is asked whether the authorisation was spent: a settlement
 * whose answer was lost (the transaction went out, its receipt did not come back) is recorded
 * settled with its transaction, and an authorisation the payer cancelled is `failed` at once.
 * The row is the lock: an attempt holds it, and settling it twice records it once.
 */
export class Settlements {
  private readonly now: () => number;

  constructor(private readonly deps: SettlementDependencies) {
    this.now = deps.now ?? Date.now;
  }

  /** When an attempt starting now may be taken over by another. */
  holdUntil(): Date {
    return new Date(this.now() + ATTEMPT_HOLD_MS);
  }

  /** Tries to settle `payment` once; the PAYMENT-RESPONSE headers when it settled. */
  async attempt(
    payment: PaymentToSettle,
    transport?: HTTPTransportContext,
    extensions?: Record<string, unknown>,
  ): Promise<Record<string, string> | undefined> {
    const { db, http, operator, logger } = this.deps;
    let reason: string;
    try {
      const result = await http.processSettlement(
        payment.paymentPayload,
        payment.requirements,
        extensions,
        transport,
      );
      if (result.success) {
        await settleX402Payment(db, payment.id, result.transaction, operator);
        return result.headers;
      }
      reason = result.errorMessage ?? result.errorReason;
    } catch (error) {
      const { type, message } = safeError(error);
      reason = `${type}: ${message}`;
    }
    reason = reason.slice(0, 500);
    const onChain = await this.onChain(payment);
    if (onChain.state === "settled") {
      logger.info(
        { payment: payment.id, transaction: onChain.transaction, reason },
        "an x402 settlement whose answer was lost is found on chain",
      );
      await settleX402Payment(db, payment.id, onChain.transaction, operator);
      return undefined;
    }
    if (onChain.state === "cancelled") {
      reason = `the payer cancelled the authorisation (transaction ${onChain.transaction})`;
      logger.warn({ payment: payment.id, reason }, "an x402 payment can no longer settle");
      await failX402Payment(db, payment.id, reason, operator);
      return undefined;
    }
    const next = new Date(this.now() + this.deps.retryMs * 2 ** payment.attempts);
    const expired = payment.validBefore === null || next >= payment.validBefore;
    logger.warn(
      { payment: payment.id, attempts: payment.attempts + 1, reason, retry: !expired },
      "settling an x402 payment failed",
    );
    if (expired) await failX402Payment(db, payment.id, reason, operator);
    else await deferX402Payment(db, payment.id, reason, next);
    return undefined;
  }

  /**
   * What the chain says of the payment's authorisation; `unknown` on a network without an RPC
   * endpoint or when the endpoint fails (the retries go on as if it were unused).
   */
  private async onChain(payment: PaymentToSettle): Promise<AuthorisationOutcome> {
    const chain = this.deps.chains.get(payment.network);
    if (!chain) return { state: "unknown" };
    try {
      return await chain.outcome({
        asset: payment.asset,
        authorizer: payment.payer,
        nonce: payment.nonce,
        payTo: payment.payTo,
        value: payment.amountUnits,
        since: payment.createdAt,
      });
    } catch (error) {
      this.deps.logger.warn(
        { payment: payment.id, err: safeError(error) },
        "looking up an x402 authorisation on chain failed",
      );
      return { state: "unknown" };
    }
  }

  /** One retry round: every pending payment due now, one after the other. How many were tried. */
  async retryDue(): Promise<number> {
    const due = await claimDueX402Payments(this.deps.db, new Date(this.now()), this.holdUntil(), ROUND_SIZE);
    for (const row of due) {
      const stored = storedPayment(row);
      if (stored) await this.attempt({ ...row, ...stored });
      else
        await failX402Payment(this.deps.db, row.id, "the stored payment is unreadable", this.deps.operator);
    }
    return due.length;
  }

  /** Retries due payments every `retryMs`, in this process, until stopped. */
  start(): RunningLoop {
    return startRepeating(async () => {
      try {
        while ((await this.retryDue()) === ROUND_SIZE);
      } catch (error) {
        this.deps.logger.warn({ err: safeError(error) }, "retrying x402 settlements failed");
      }
    }, this.deps.retryMs);
  }
}

/** A pending row's stored payload and requirements, as the library reads them. */
function storedPayment(row: {
  paymentPayload: unknown;
  requirements: unknown;
}): Pick<PaymentToSettle, "paymentPayload" | "requirements"> | undefined {
  const payload = PaymentPayloadV2Schema.safeParse(row.paymentPayload);
  const requirements = PaymentRequirementsV2Schema.safeParse(row.requirements);
  if (!payload.success || !requirements.success) return undefined;
  // The schemas check the shape; the library's types also spell a network as `namespace:reference`.
  return {
    paymentPayload: payload.data as PaymentPayload,
    requirements: requirements.data as PaymentRequirements,
  };
}
