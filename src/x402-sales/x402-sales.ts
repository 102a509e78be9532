import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from "@x402/core/http";
import {
  type FacilitatorClient,
  FacilitatorResponseError,
  type HTTPRequestContext,
  type HTTPResponseInstructions,
  x402HTTPResourceServer,
  x402ResourceServer,
} from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { bazaarResourceServerExtension } from "@x402/extensions/bazaar";
import type { Request, RequestHandler, Response } from "express";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { sharedCounter } from "../accounts/shared-counter";
import { Eip3009Authorisations } from "../chain/eip3009-authorisations";
import type { Database } from "../db/prisma-client";
import type { ReadPool } from "../db/read-pool";
import type { EventOwner } from "../events/emit";
import { HttpError } from "../http/errors";
import { capExportRows } from "../http/export-meter";
import type { Logger } from "../logging/logger";
import { answerPaid, type PaidAnswerDependencies } from "./paid-answer";
import { priceUnits, ROWS_PER_PRICE, SoldRequestAdapter, salesRoutes } from "./payment-options";
import type { SalesSettings } from "./settings";
import { Settlements } from "./settlements";
import { type SoldRoute, soldRoute } from "./sold-routes";

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

/** How many rows a CSV export request asks for (src/http/routes/exports.ts). */
export type ExportRowCounter = (req: Request) => Promise<number>;

const PAYMENT_REQUIRED = "PAYMENT-REQUIRED";
const WALLET = /^0x[0-9a-f]{40}$/;

/**
 * The catalogue selling its own API over x402, with the official server library: the request
 * guard marks the requests that must pay (a caller without a key past the anonymous allowance,
 * or on a route group the operator marks paid), and `gate()` answers those with the library's
 * 402 challenge, or has the facilitator verify their payment, lets the route answer and then
 * settles (paid-answer.ts); `settlements` retries what did not settle. Requests the guard does
 * not mark pass untouched.
 */
export class X402Sales {
  private readonly mustPay = new WeakSet<Response>();
  private readonly http: x402HTTPResourceServer;
  private ready: Promise<void> | undefined;
  private readonly trials: RateLimiterAbstract;
  private readonly paid: PaidAnswerDependencies;

  readonly settings: SalesSettings;
  readonly settlements: Settlements;
  private readonly logger: Logger;

  constructor({ settings, facilitator, logger, db, pool, operator }: SalesDependencies) {
    this.settings = settings;
    this.logger = logger;
    this.trials = sharedCounter(pool, "x402-trial", 86_400);
    const server = new x402ResourceServer(facilitator);
    for (const network of settings.payTo.keys())
      server.register(network as `${string}:${string}`, new ExactEvmScheme());
    server.registerExtension(bazaarResourceServerExtension);
    this.http = new x402HTTPResourceServer(server, salesRoutes(settings));
    this.settlements = new Settlements({
      http: this.http,
      db,
      operator,
      logger,
      retryMs: settings.settleRetryMs,
      chains: new Map(
        [...settings.rpcUrls].map(([network, url]) => [network, new Eip3009Authorisations(url)]),
      ),
    });
    this.paid = { db, logger, settlements: this.settlements, settleWaitMs: settings.settleWaitMs };
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

  /**
   * The payment step of the marked requests. `exportRows` counts the rows a CSV export asks for:
   * its price is per 1,000 of them (rounded up), and the paid export sends no more than that.
   */
  gate(exportRows: ExportRowCounter): RequestHandler {
    return async (req, res, next) => {
      const route = this.mustPay.has(res) ? this.soldRoute(req) : undefined;
      if (!route) {
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
      const exporting = route.group === "csv";
      // A free trial call is one call: a CSV export is paid by its rows.
      if (!exporting && !this.carriesPayment(req) && (await this.freeTrialCall(req, res))) {
        next();
        return;
      }
      const rows = exporting ? await exportRows(req) : undefined;
      const context = {
        adapter: new SoldRequestAdapter(req, rows),
        path: req.path,
        method: req.method,
        paymentHeader: req.get("payment-signature") ?? req.get("x-payment"),
      };
      const result = await this.processPayment(context);
      if (result.type === "no-payment-required") {
        next();
        return;
      }
      if (result.type === "payment-error") {
        sendInstructions(res, result.response);
        return;
      }
      if (rows !== undefined) capExportRows(res, priceUnits(rows) * ROWS_PER_PRICE);
      const refusal = await answerPaid(this.paid, { ...result, context, route: route.pattern }, res, next);
      if (refusal) sendInstructions(res, await this.challenge(context, refusal));
    };
  }

  private async processPayment(context: HTTPRequestContext) {
    try {
      return await this.http.processHTTPRequest(context);
    } catch (error) {
      if (error instanceof FacilitatorResponseError) {
        this.logger.warn({ err: error }, "the x402 facilitator refused to verify");
        throw new HttpError(502, `The x402 facilitator failed: ${error.message}; nothing was charged`);
      }
      throw error;
    }
  }

  /** The route's 402 challenge, with `error` saying why the payment offered was not taken. */
  private async challenge(
    context: HTTPRequestContext & { adapter: SoldRequestAdapter },
    error: string,
  ): Promise<HTTPResponseInstructions> {
    const unpaid = await this.http.processHTTPRequest({
      ...context,
      adapter: context.adapter.withoutPayment(),
      paymentHeader: undefined,
    });
    if (unpaid.type !== "payment-error") throw new Error("a sold route answered without a challenge");
    const { response } = unpaid;
    const header = response.headers[PAYMENT_REQUIRED];
    if (header === undefined) return response;
    const required = { ...decodePaymentRequiredHeader(header), error };
    return {
      ...response,
      headers: { ...response.headers, [PAYMENT_REQUIRED]: encodePaymentRequiredHeader(required) },
    };
  }
}

/**
 * Sends the library's answer (a 402 challenge, or its refusal). x402 v2 puts the challenge in the
 * PAYMENT-REQUIRED header; v1 clients read it from the body, so the JSON body mirrors the header.
 */
function sendInstructions(res: Response, response: HTTPResponseInstructions): void {
  res.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (response.isHtml) {
    res.send(response.body);
    return;
  }
  const header = response.headers[PAYMENT_REQUIRED];
  const body = isRecord(response.body) ? response.body : {};
  res.json(header === undefined ? body : { ...decodePaymentRequiredHeader(header), ...body });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
