import { formatUsdcUnits, parseUsdcAmount } from "../billing/usdc-amount";
import type { openApiDocument } from "../http/openapi/document";
import { paymentOptions, ROWS_PER_PRICE } from "./payment-options";
import type { SalesSettings } from "./settings";
import { SOLD_ROUTES, type SoldRoute } from "./sold-routes";

type OpenApiDocument = ReturnType<typeof openApiDocument>;

/** A sold route's OpenAPI path and method: `GET /v1/services/:id` → `/v1/services/{id}`, `get`. */
function operationKey(route: SoldRoute): { path: string; method: string } {
  const [method = "GET", path = "/"] = route.pattern.split(" ");
  return { path: path.replace(/:([a-z_]+)/g, "{$1}"), method: method.toLowerCase() };
}

function priceText(settings: SalesSettings, route: SoldRoute): string {
  const units = parseUsdcAmount(settings.prices.get(route.group) ?? "") ?? 0n;
  return formatUsdcUnits(units);
}

/** What one price buys: a call, or (the CSV exports) 1,000 rows asked for, rounded up. */
function priceUnit(route: SoldRoute): "call" | "1000_rows" {
  return route.group === "csv" ? "1000_rows" : "call";
}

function priceUnitText(route: SoldRoute): string {
  return priceUnit(route) === "call" ? "a call" : `per ${ROWS_PER_PRICE.toLocaleString("en")} rows`;
}

function whenPaid(settings: SalesSettings, route: SoldRoute): "always" | "past_anonymous_allowance" {
  return settings.paidGroups.has(route.group) ? "always" : "past_anonymous_allowance";
}

/**
 * The OpenAPI document with every sold operation marked: `x-x402` (its price in USDC, when a
 * caller without a key pays, and the payment requirements per network) and its 402 answer.
 */
export function markPaidOperations(document: OpenApiDocument, settings: SalesSettings): OpenApiDocument {
  const paths = structuredClone(document.paths ?? {}) as Record<
    string,
    Record<string, Record<string, unknown>>
  >;
  for (const route of SOLD_ROUTES) {
    const { path, method } = operationKey(route);
    const operation = paths[path]?.[method];
    if (!operation) continue;
    operation["x-x402"] = {
      price_usdc: priceText(settings, route),
      price_unit: priceUnit(route),
      group: route.group,
      paid: whenPaid(settings, route),
      accepts: paymentOptions(settings, route.group).map(({ network, payTo, price }) => ({
        scheme: "exact",
        network,
        pay_to: payTo,
        ...(typeof price === "object" ? { asset: price.asset, amount: price.amount } : {}),
      })),
    };
    operation.responses = {
      ...(operation.responses as Record<string, unknown>),
      402: {
        description:
          priceUnit(route) === "call"
            ? `${PAYMENT_REQUIRED_TEXT}.`
            : `${PAYMENT_REQUIRED_TEXT}. The amount is for the rows the export asks for (its query's rows within \`limit\`), rounded up to the next 1,000; the export sends no more rows than that.`,
      },
    };
  }
  return { ...document, paths } as OpenApiDocument;
}

const PAYMENT_REQUIRED_TEXT =
  "Payment required (x402 v2): the PAYMENT-REQUIRED header holds the challenge (base64 JSON), the body the same JSON. Pay with PAYMENT-SIGNATURE; the paid answer carries PAYMENT-RESPONSE once settled";

/** The llms.txt section telling an agent how to pay. */
export function payingSection(settings: SalesSettings): string {
  const lines = [
    "## Paying per call (x402)",
    "",
    "Without an API key, these routes are sold over x402 in USDC; a valid key is never asked to pay.",
    `Networks: ${[...settings.payTo.keys()].join(", ")}. Free trial: send \`X-WALLET: <your address>\` for ${settings.freeCallsPerWallet} free calls a day.`,
    "A 402 answer carries the challenge in `PAYMENT-REQUIRED` (base64 JSON, mirrored in the body); any x402 v2",
    "client (e.g. `@x402/fetch`) signs an EIP-3009 authorisation and retries with `PAYMENT-SIGNATURE`; the paid",
    "answer carries `PAYMENT-RESPONSE` (the settlement transaction) when it settled in time; else it settles",
    "after the answer. Manifest: `/.well-known/x402`.",
    "A CSV export costs its price per 1,000 rows it asks for (the query's rows within `limit`), rounded up,",
    "and sends no more rows than paid for; the free trial does not cover exports.",
    "",
  ];
  for (const route of SOLD_ROUTES) {
    const allowance = route.group === "csv" ? "the daily CSV rows" : "the anonymous allowance";
    const when = whenPaid(settings, route) === "always" ? "always" : `past ${allowance}`;
    lines.push(`- \`${route.pattern}\`: ${priceText(settings, route)} USDC ${priceUnitText(route)}, ${when}`);
  }
  lines.push(
    "",
    "Answers of the data routes are signed (`X-Catalogue-Signature`, Ed25519); keys at `/.well-known/x402-catalogue-keys.json`.",
    "",
  );
  return lines.join("\n");
}
