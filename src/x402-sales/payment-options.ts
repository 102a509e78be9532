import type { HTTPRequestContext, RouteConfig, RoutesConfig } from "@x402/core/server";
import type { AssetAmount } from "@x402/core/types";
import { getDefaultAsset } from "@x402/evm";
import { ExpressAdapter } from "@x402/express";
import { declareDiscoveryExtension } from "@x402/extensions/bazaar";
import type { Request } from "express";
import { parseUsdcAmount } from "../billing/usdc-amount";
import type { PriceGroup } from "../config/x402-settings";
import type { SalesSettings } from "./settings";
import { inputJsonSchema, SOLD_ROUTES, type SoldRoute } from "./sold-routes";

/**
 * How long a payer's signed authorisation stays valid: it must reach the catalogue within it,
 * and a settlement that fails after the answer is retried within it.
 */
const MAX_TIMEOUT_SECONDS = 600;

/** The CSV exports (group `csv`) are priced per this many rows, rounded up. */
export const ROWS_PER_PRICE = 1000;

/** The price units a CSV export of `rows` rows costs: one per 1,000 rows begun, at least one. */
export function priceUnits(rows: number): number {
  return Math.max(1, Math.ceil(rows / ROWS_PER_PRICE));
}

/** The price of `units` calls of `group` (csv: of 1,000 rows) on `network`, in USDC atomic units. */
export function priceOn(settings: SalesSettings, group: PriceGroup, network: string, units = 1): AssetAmount {
  const price = parseUsdcAmount(settings.prices.get(group) ?? "");
  if (price === null) throw new Error(`no price for the route group ${group}`);
  const amount = (price * BigInt(units)).toString();
  const configured = settings.assets.get(network);
  if (configured) return { amount, asset: configured, extra: { ...settings.assetDomain } };
  const known = getDefaultAsset(network as `${string}:${string}`);
  return { amount, asset: known.asset, extra: { name: known.name, version: known.version } };
}

/**
 * A request as the x402 library reads it, with the rows a CSV export asks for: the export's
 * price is computed from them when the challenge is made and when the payment is checked.
 */
export class SoldRequestAdapter extends ExpressAdapter {
  constructor(
    private readonly request: Request,
    readonly rows?: number,
    private readonly unpaid = false,
  ) {
    super(request);
  }

  override getHeader(name: string): string | undefined {
    if (this.unpaid && PAYMENT_HEADERS.has(name.toLowerCase())) return undefined;
    return super.getHeader(name);
  }

  /** The same request without the payment it offers: what the route's plain challenge answers. */
  withoutPayment(): SoldRequestAdapter {
    return new SoldRequestAdapter(this.request, this.rows, true);
  }
}

/** Where x402 clients send a payment: v2's PAYMENT-SIGNATURE, v1's X-PAYMENT. */
const PAYMENT_HEADERS = new Set(["payment-signature", "x-payment"]);

function askedRows(context: HTTPRequestContext): number {
  return context.adapter instanceof SoldRequestAdapter ? (context.adapter.rows ?? 0) : 0;
}

type PaymentOption = Extract<RouteConfig["accepts"], { scheme: string }>;

/** The payment options of a group, at the price of one unit (csv: 1,000 rows). */
export function paymentOptions(settings: SalesSettings, group: PriceGroup): PaymentOption[] {
  return [...settings.payTo].map(([network, payTo]) => ({
    scheme: "exact",
    network: network as `${string}:${string}`,
    payTo,
    price: priceOn(settings, group, network),
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
  }));
}

/** The options a request pays by: a CSV export's price follows the rows it asks for. */
function requestPaymentOptions(settings: SalesSettings, group: PriceGroup): PaymentOption[] {
  const options = paymentOptions(settings, group);
  if (group !== "csv") return options;
  return options.map((option) => ({
    ...option,
    price: (context: HTTPRequestContext) =>
      priceOn(settings, group, option.network, priceUnits(askedRows(context))),
  }));
}

/** The Bazaar discovery extension of a route: its input, from the zod schema validating it. */
function discovery(route: SoldRoute): Record<string, unknown> {
  const { input } = route;
  if (input.kind === "mcp") {
    // One JSON-RPC `tools/call` of the tool, its arguments as the tool validates them.
    return declareDiscoveryExtension({
      bodyType: "json",
      input: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: input.tool, arguments: input.example },
      },
      inputSchema: {
        type: "object",
        required: ["jsonrpc", "id", "method", "params"],
        properties: {
          jsonrpc: { const: "2.0" },
          id: { type: ["string", "number"] },
          method: { const: "tools/call" },
          params: {
            type: "object",
            required: ["name", "arguments"],
            properties: { name: { const: input.tool }, arguments: inputJsonSchema(input.schema) },
          },
        },
      },
    });
  }
  if (input.kind === "body") {
    return declareDiscoveryExtension({
      bodyType: "json",
      input: input.example,
      inputSchema: inputJsonSchema(input.schema),
    });
  }
  return declareDiscoveryExtension({
    inputSchema: inputJsonSchema(input.schema),
    ...(input.pathParams ? { pathParamsSchema: inputJsonSchema(input.pathParams) } : {}),
  });
}

/** The x402 route configuration of every sold route (the official server library's input). */
export function salesRoutes(settings: SalesSettings): RoutesConfig {
  return Object.fromEntries(
    SOLD_ROUTES.map((route): [string, RouteConfig] => [
      route.pattern,
      {
        accepts: requestPaymentOptions(settings, route.group),
        description: route.description,
        mimeType: route.group === "csv" ? "text/csv" : "application/json",
        serviceName: "x402 catalogue",
        extensions: discovery(route),
      },
    ]),
  );
}
