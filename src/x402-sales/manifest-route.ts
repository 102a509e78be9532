import type { Router } from "express";
import { apiRouter } from "../http/router";
import { paymentOptions } from "./payment-options";
import type { SalesSettings } from "./settings";
import { inputJsonSchema, SOLD_ROUTES } from "./sold-routes";

/**
 * The catalogue's own x402 manifest (`/.well-known/x402`, the form the catalogue reads from other
 * origins): every sold route with its method, input and payment requirements per accepted network.
 * Paths with `:id` are templates; a CSV export's amount is per 1,000 rows. Answered only when
 * selling is configured.
 */
export function salesManifestRouter(settings: SalesSettings): Router {
  const router = apiRouter();
  router.get("/.well-known/x402", (req, res) => {
    const origin = `${req.protocol}://${req.get("host") ?? "localhost"}`;
    const resources = SOLD_ROUTES.map((route) => {
      const [method = "GET", path = "/"] = route.pattern.split(" ");
      return {
        resource: `${origin}${path}`,
        method,
        description: route.description,
        mimeType: route.group === "csv" ? "text/csv" : "application/json",
        input: inputJsonSchema(route.input.schema),
        accepts: paymentOptions(settings, route.group).map(({ price, ...option }) => ({
          ...option,
          ...(typeof price === "object" ? price : {}),
        })),
      };
    });
    res.set("Cache-Control", "public, max-age=300").json({
      x402Version: 2,
      name: "x402 catalogue",
      description: "The catalogue of x402 APIs, sold per call",
      resources,
    });
  });
  return router;
}
