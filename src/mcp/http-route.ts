import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Request, Response, Router } from "express";
import { jsonBody } from "../http/json-body";
import { optionalRequestKey } from "../http/request-guard";
import { apiRouter } from "../http/router";
import { preflightCaller } from "../http/routes/preflight";
import type { Logger } from "../logging/logger";
import type { Registrar } from "../registrations/registrar";
import { REGISTER_SCOPE, submitterOf } from "../registrations/registrations-route";
import type { Preflight } from "../trust/preflight";
import type { CatalogueReader } from "./catalogue-reader";
import type { McpSubmitter } from "./registration-tool";
import { createCatalogueMcpServer, MCP_SERVER_INFO } from "./server";

/** A key sent to /mcp needs catalogue:register to register through the tool, as on the REST route. */
function mcpSubmitter(req: Request, res: Response): McpSubmitter {
  const key = optionalRequestKey(res);
  if (key !== undefined && !key.scopes.includes(REGISTER_SCOPE))
    return { refused: `This API key lacks the scope ${REGISTER_SCOPE}` };
  return submitterOf(req, res);
}

/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST gets a fresh server and transport (the
 * tools keep no session state, so any replica can answer any request) and a plain JSON answer
 * rather than an SSE stream. GET (a server-to-client stream) and DELETE (ending a session) have
 * nothing to do without sessions: 405, as the transport's specification allows.
 */
export function mcpRouter(
  reader: CatalogueReader,
  logger: Logger,
  preflight: Preflight,
  registrar: Registrar | undefined,
): Router {
  const router = apiRouter();
  router
    .route("/mcp")
    .post(jsonBody("256kb"), async (req, res) => {
      const server = createCatalogueMcpServer(reader, MCP_SERVER_INFO, {
        preflight,
        caller: preflightCaller(req),
        registration: { registrar, submitter: mcpSubmitter(req, res) },
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on("close", () => {
        transport
          .close()
          .catch((error: unknown) => logger.warn({ err: error }, "closing an MCP transport failed"));
        server.close().catch((error: unknown) => logger.warn({ err: error }, "closing an MCP server failed"));
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    })
    .all((req, res) => {
      res
        .status(405)
        .set("Allow", "POST")
        .json({
          statusCode: 405,
          message: `${req.method} is not allowed on /mcp; MCP clients POST JSON-RPC messages (stateless Streamable HTTP)`,
          error: "Method Not Allowed",
        });
    });
  return router;
}
