import type { ErrorRequestHandler, Request, Response, Router } from "express";
import type { ReadPool } from "../db/read-pool";
import { HttpError } from "../http/errors";
import { methodNotAllowed, sendCacheableBody } from "../http/responses";
import { apiRouter } from "../http/router";
import { noQuery } from "../http/schemas/common";
import { endpointListQuery } from "../http/schemas/endpoints";
import { serviceListQuery } from "../http/schemas/services";
import { parseInput } from "../http/validation";
import { NETWORKS } from "../payments/networks";
import type { CatalogueSearch } from "../search/catalogue-search";
import { PAGE_CSS, PAGE_SCRIPT } from "./assets";
import { badgeFacts, renderBadge } from "./badge";
import { EndpointsPage } from "./endpoints-page";
import { ErrorPage } from "./error-page";
import { withoutEmpty } from "./format";
import { HomePage } from "./home-page";
import { renderPage } from "./layout";
import {
  CatalogueFigures,
  findEndpoints,
  findServices,
  serviceDetail,
  serviceWithHistory,
  topServices,
} from "./page-data";
import { ServicePage } from "./service-page";
import { ServicesPage } from "./services-page";
import { StatsPage } from "./stats-page";

/**
 * Nothing from another origin, nothing inline: our stylesheet and script only, forms to ourselves.
 * Crawled text is escaped by the renderer; this stops anything that slipped through from running.
 */
const PAGE_POLICY =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
/** A badge is an image embedded elsewhere: it may load nothing at all. */
const BADGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

const HTML = "text/html; charset=utf-8";

function sendHtml(res: Response, html: string): void {
  res.setHeader("Content-Security-Policy", PAGE_POLICY);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "same-origin");
  sendCacheableBody(res, html, HTML);
}

/** A filter form sends every field; the API's schema reads the query without the empty ones. */
function formQuery(req: Request): Record<string, unknown> {
  return withoutEmpty(req.query as Record<string, unknown>);
}

/**
 * The pages for people: server-rendered HTML over the same seams as the JSON API (the catalogue
 * search, the catalogue's queries, the API's schemas and serialisers), complete without script.
 */
export function pagesRouter(pool: ReadPool, search: CatalogueSearch): Router {
  const router = apiRouter();
  const catalogue = new CatalogueFigures(pool, search);

  // `/` is the JSON root for API clients and the overview for browsers (which ask for HTML first):
  // every answer there, either kind and from the answer cache too, varies with Accept.
  router.route("/").get(async (req, res, next) => {
    res.vary("Accept");
    if (req.accepts(["json", "html"]) !== "html") return next();
    parseInput(noQuery, req.query, "query");
    const [newest, busiest] = await Promise.all([
      topServices(search, "first_seen", 8),
      topServices(search, "volume", 8),
    ]);
    const [figures, observed] = await Promise.all([
      catalogue.ecosystem(newest.snapshot),
      catalogue.observed(newest.snapshot),
    ]);
    sendHtml(
      res,
      renderPage(
        <HomePage figures={figures} observed={observed} newest={newest.items} busiest={busiest.items} />,
      ),
    );
  });

  router
    .route("/services")
    .get(async (req, res) => {
      const raw = formQuery(req);
      const query = parseInput(serviceListQuery, raw, "query");
      const page = await findServices(search, query);
      const names = await catalogue.categoryNames(page.snapshot);
      sendHtml(
        res,
        renderPage(
          <ServicesPage page={page} query={query} raw={raw} categories={names} networks={[...NETWORKS]} />,
        ),
      );
    })
    .all(methodNotAllowed);

  router
    .route("/services/:id")
    .get(async (req, res) => {
      parseInput(noQuery, req.query, "query");
      const id = String(req.params.id);
      const data = await serviceWithHistory(pool, id);
      if (!data) throw new HttpError(404, `No service with id ${id}`);
      sendHtml(res, renderPage(<ServicePage {...data} />));
    })
    .all(methodNotAllowed);

  router
    .route("/endpoints")
    .get(async (req, res) => {
      const raw = formQuery(req);
      const query = parseInput(endpointListQuery, raw, "query");
      const page = await findEndpoints(search, query);
      sendHtml(res, renderPage(<EndpointsPage page={page} query={query} raw={raw} />));
    })
    .all(methodNotAllowed);

  router
    .route("/stats")
    .get(async (req, res) => {
      parseInput(noQuery, req.query, "query");
      const { snapshot } = await topServices(search, "volume", 1);
      const [figures, prices, series] = await Promise.all([
        catalogue.ecosystem(snapshot),
        catalogue.priceBands(snapshot),
        catalogue.series(snapshot),
      ]);
      sendHtml(res, renderPage(<StatsPage figures={figures} prices={prices} series={series} />));
    })
    .all(methodNotAllowed);

  router
    .route("/badge/:id.svg")
    .get(async (req, res) => {
      parseInput(noQuery, req.query, "query");
      const service = await serviceDetail(pool, String(req.params.id));
      res.setHeader("Content-Security-Policy", BADGE_POLICY);
      const facts = service
        ? badgeFacts(service)
        : { health: "not found", grade: null, verified: false, uptimePct: null };
      if (!service) res.status(404);
      sendCacheableBody(res, renderBadge(facts), "image/svg+xml; charset=utf-8");
    })
    .all(methodNotAllowed);

  router
    .route("/assets/pages.css")
    .get((_req, res) => sendCacheableBody(res, PAGE_CSS, "text/css; charset=utf-8"))
    .all(methodNotAllowed);
  router
    .route("/assets/pages.js")
    .get((_req, res) => sendCacheableBody(res, PAGE_SCRIPT, "text/javascript; charset=utf-8"))
    .all(methodNotAllowed);

  router.use(pageErrors);
  return router;
}

/** A refused page request is an HTML page with the API's status and message; the rest goes on. */
const pageErrors: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (!(error instanceof HttpError) || req.path.startsWith("/badge/") || req.path.startsWith("/assets/")) {
    next(error);
    return;
  }
  res.status(error.statusCode);
  res.setHeader("Content-Security-Policy", PAGE_POLICY);
  res.setHeader("Cache-Control", "no-store");
  res
    .type("html")
    .send(renderPage(<ErrorPage status={error.statusCode} message={error.message} path={req.path} />));
};
