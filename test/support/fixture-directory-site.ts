import http from "node:http";
import type { AddressInfo } from "node:net";
import { type DirectoryMarkup, type FixtureService, renderPath } from "../fixtures/directories";

/** Serves a fixture directory (one markup, some services, a page size) on 127.0.0.1. */
export async function serveFixtureDirectory(
  markup: DirectoryMarkup,
  services: readonly FixtureService[],
  pageSize: number,
): Promise<{ origin: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const body = renderPath(markup, services, req.url ?? "/", pageSize);
    if (body === null) res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
    else res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
