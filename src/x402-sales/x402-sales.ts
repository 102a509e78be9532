import { decodePaymentRequiredHeader } from "@x402/core/http";
import { type FacilitatorClient, x402HTTPResourceServer, x402ResourceServer } from "@x402/core/server";
import type { DeepReadonly, PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { paymentMiddlewareFromHTTPServer } from "@x402/express";
import type { Request, RequestHandler, Response } from "express";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { sharedCounter } from "../accounts/shared-counter";
import type { Database } from "../db/prisma-client";
import type { ReadPool } from "../db/read-pool";
import type { EventOwner } from "../events/emit";
import { HttpError } from "../http/errors";
import type { Logger } from "../logging/logger";
import { salesRoutes } from "./payment-options";
import type { SalesSettings } from "./settings";
import { type SoldRoute, soldRoute } from "./sold-routes";
import { recordX402Payment, type X402PaymentRecord } from "./x402-payments";

export interface SalesDependencies {
  settings: SalesSettings;
  facilitator: FacilitatorClient;
  logger: Logger;
  db: Database;
  /** For the free-trial counters, shared by every API process. */
  pool: ReadPool;
  /** The organisation (X402_OPERATOR_ORG, live) the payment events belong to. */
  operator: EventOwner;
}

const PAYMENT_REQUIRED = "PAYMENT-REQUIRED";
const WALLET = /^0x[0-9a-f]{40}$/;

/**
 * The catalogue selling its own API over x402, with the official server library: the request
 * guard marks the requests that must pay (a caller without a key past the anonymous allowance,
 * or on a route group the operator marks paid), and `gate()` answers those with the library's
 * 402 challenge, or verifies their payment with the facilitator, lets the route answer, settles
 * and adds PAYMENT-RESPONSE. Requests the guard does not mark pass untouched.
 */
export class X402Sales {
  private readonly mustPay = new WeakSet<Response>();
  private readonly http: x402HTTPResourceServer;
  private ready: Promise<void> | undefined;
  private readonly trials: RateLimiterAbstract;

  readonly settings: SalesSettings;
  private readonly logger: Logger;

  constructor({ settings, facilitator, logger, db, pool, operator }: SalesDependencies) {
    this.settings = settings;
    this.logger = logger;
    this.trials = sharedCounter(pool, "x402-trial", 86_400);
    const server = new x402ResourceServer(facilitator);
    server.onAfterSettle(async ({ paymentPayload, requirements, result, transportContext }) => {
      const paid = paymentRecord(paymentPayload, requirements, transportContext);
      if (paid)
        await this.record(db, operator, { ...paid, status: "settled", transaction: result.transaction });
    });
    server.onSettleFailure(async ({ paymentPayload, requirements, transportContext, error }) => {
      const paid = paymentRecord(paymentPayload, requirements, transportContext);
      if (paid) {
        await this.record(db, operator, {
          ...paid,
          status: "failed",
          failureReason: error.message.slice(0, 500),
        });
      }
    });
    for (const network of settings.payTo.keys())
      server.register(network as `${string}:${string}`, new ExactEvmScheme());
    this.http = new x402HTTPResourceServer(server, salesRoutes(settings));
  }

  /** A payment that cannot be recorded is logged (never its signature) and does not fail the answer. */
  private async record(db: Database, operator: EventOwner, payment: X402PaymentRecord): Promise<void> {
    try {
      await recordX402Payment(db, payment, operator);
    } catch (error) {
      this.logger.error(
        { err: error, network: payment.network, payer: payment.payer, transaction: payment.transaction },
        "recording an x402 payment failed",
      );
    }
  }

  /** The sold route a request reaches, if any. */
  soldRoute(req: Request): SoldRoute | undefined {
    return soldRoute(req.method, req.path);
  }

  /** Whether a caller without a key pays for this route even within the anonymous allowance. */
  alwaysPaid(route: SoldRoute): boolean {
    return this.settings.paidGroups.has(route.group);
  }

  /** Whether the request offers a payment (x402 v2 PAYMENT-SIGNATURE, or v1 X-PAYMENT). */
  carriesPayment(req: Request): boolean {
    return req.get("payment-signature") !== undefined || req.get("x-payment") !== undefined;
  }

  requirePayment(res: Response): void {
    this.mustPay.add(res);
  }

  /** Learns the facilitator's supported networks once; a failure is retried on the next request. */
  private initialised(): Promise<void> {
    this.ready ??= this.http.initialize().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /**
   * A free trial call for the wallet in X-WALLET: each wallet gets X402_FREE_CALLS_PER_WALLET a
   * day, and every trial call also counts against the calling address's own trial allowance of
   * the same size, so naming new wallets from one address gains nothing. The header proves no
   * ownership; the address bound is what limits abuse.
   */
  private async freeTrialCall(req: Request, res: Response): Promise<boolean> {
    const wallet = req.get("x-wallet")?.trim().toLowerCase();
    const allowance = this.settings.freeCallsPerWallet;
    if (!wallet || !WALLET.test(wallet) || allowance === 0) return false;
    const [byWallet, byAddress] = await Promise.all([
      this.trials.consume(`wallet:${wallet}`, 1),
      this.trials.consume(`ip:${req.ip ?? "unknown"}`, 1),
    ]);
    const used = Math.max(byWallet.consumedPoints, byAddress.consumedPoints);
    if (used > allowance) return false;
    res.setHeader("X-Free-Calls-Remaining", String(allowance - used));
    return true;
  }

  gate(): RequestHandler {
    const pay = paymentMiddlewareFromHTTPServer(this.http, undefined, undefined, false);
    return async (req, res, next) => {
      if (!this.mustPay.has(res)) {
        next();
        return;
      }
      try {
        await this.initialised();
      } catch (error) {
        this.logger.warn({ err: error }, "the x402 facilitator did not answer");
        throw new HttpError(
          503,
          "Payment is needed here, but the x402 facilitator cannot be reached; nothing was charged. Retry later, or send an API key",
        );
      }
      if (!this.carriesPayment(req) && (await this.freeTrialCall(req, res))) {
        next();
        return;
      }
      mirrorChallengeInBody(res);
      await pay(req, res, next);
    };
  }
}

/**
 * x402 v2 puts the challenge in the PAYMENT-REQUIRED header; v1 clients read it from the body.
 * The library answers a 402 with an empty JSON body: the body becomes the decoded header.
 */
function mirrorChallengeInBody(res: Response): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const header = res.getHeader(PAYMENT_REQUIRED);
    if (res.statusCode !== 402 || typeof header !== "string") return json(body);
    return json({ ...decodePaymentRequiredHeader(header), ...(isRecord(body) ? body : {}) });
  };
}

/** What is recorded of a payment: who paid what for which route (EIP-3009 authorisations only). */
function paymentRecord(
  payload: DeepReadonly<PaymentPayload>,
  requirements: DeepReadonly<PaymentRequirements>,
  transport: unknown,
): Omit<X402PaymentRecord, "status"> | undefined {
  const authorization = (payload.payload as { authorization?: { from?: unknown; nonce?: unknown } })
    .authorization;
  if (typeof authorization?.from !== "string" || typeof authorization.nonce !== "string") return undefined;
  const request = isRecord(transport) && isRecord(transport.request) ? transport.request : {};
  const route =
    `${String(request.method ?? "")} ${String(request.routePattern ?? request.path ?? "")}`.trim();
  return {
    network: requirements.network,
    payer: authorization.from.toLowerCase(),
    nonce: authorization.nonce.toLowerCase(),
    payTo: requirements.payTo.toLowerCase(),
    asset: requirements.asset.toLowerCase(),
    amountUnits: BigInt(requirements.amount),
    route,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
