import { createServer, type Server } from "node:http";
import type { Express } from "express";
import { answerClientErrors } from "./client-errors";

export interface RunningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

export interface ServerTimeouts {
  /** Most time a client may take to send the request line and headers (HTTP_HEADERS_TIMEOUT). */
  headersMs: number;
  /** Most time a client may take to send a whole request, body included (HTTP_REQUEST_TIMEOUT). */
  requestMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 30_000 };

/** Idle keep-alive connections close after this long, or sooner when the headers timeout is short. */
const KEEP_ALIVE_MS = 5_000;
/** Node checks its timeouts on a period (30 s by default): at most this, so they hold within it. */
const TIMEOUT_CHECK_MS = 1_000;

/**
 * An HTTP server whose clients must send a request promptly: a client that drips its headers is
 * answered 408 and closed after `headersMs`, one that drips its body after `requestMs` (a reply,
 * however long it streams, is not limited). Idle keep-alive connections close before a headers
 * timeout could catch a new request on them.
 */
function createApiServer(app: Express, timeouts: ServerTimeouts): Server {
  const headersTimeout = Math.min(timeouts.headersMs, timeouts.requestMs);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, Math.ceil(headersTimeout / 2)),
    },
    app,
  );
  server.keepAliveTimeout = Math.min(KEEP_ALIVE_MS, Math.floor(headersTimeout / 2));
  answerClientErrors(server);
  return server;
}

/** Listens and resolves with the bound port (port 0 picks a free one, as tests do). */
export function listen(
  app: Express,
  port: number,
  host: string,
  timeouts: ServerTimeouts = DEFAULT_SERVER_TIMEOUTS,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = createApiServer(app, timeouts);
    server.once("error", reject);
    server.once("listening", () => {
      const address = server.address();
      const boundPort = typeof address === "object" && address ? address.port : port;
      resolve({
        server,
        port: boundPort,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeIdleConnections();
          }),
      });
    });
    server.listen(port, host);
  });
}
