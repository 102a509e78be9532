import type { RouteConfig, RoutesConfig } from "@x402/core/server";
import type { AssetAmount } from "@x402/core/types";
import { getDefaultAsset } from "@x402/evm";
import { declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { parseUsdcAmount } from "../billing/usdc-amount";
import type { PriceGroup } from "../config/x402-settings";
import type { SalesSettings } from "./settings";
import { inputJsonSchema, SOLD_ROUTES, type SoldRoute } from "./sold-routes";

/** How long a signed payment authorisation may take to reach the catalogue. */
const MAX_TIMEOUT_SECONDS = 120;

/** The price of one call of `group` on `network`, in the network's USDC, in atomic units. */
export function priceOn(settings: SalesSettings, group: PriceGroup, network: string): AssetAmount {
  const price = parseUsdcAmount(settings.prices.get(group) ?? "");
  if (price === null) throw new Error(`no price for the route group ${group}`);
  const configured = settings.assets.get(network);
  if (configured) return { amount: price.toString(), asset: configured, extra: { ...settings.assetDomain } };
  const known = getDefaultAsset(network as `${string}:${string}`);
  return {
    amount: price.toString(),
    asset: known.asset,
    extra: { name: known.name, version: known.version },
  };
}

type PaymentOption = Extract<RouteConfig["accepts"], { scheme: string }>;

export function paymentOptions(settings: SalesSettings, group: PriceGroup): PaymentOption[] {
  return [...settings.payTo].map(([network, payTo]) => ({
    scheme: "exact",
    network: network as `${string}:${string}`,
    payTo,
    price: priceOn(settings, group, network),
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
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
        accepts: paymentOptions(settings, route.group),
        description: route.description,
        mimeType: "application/json",
        serviceName: "x402 catalogue",
        extensions: discovery(route),
      },
    ]),
  );
}
