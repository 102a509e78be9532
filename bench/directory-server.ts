// A synthetic directory served from its own process (so it never competes with the crawler for
// an event loop): `node --import tsx bench/directory-server.ts <services> <markup>` prints its
// port, then serves listing and detail pages with ETags until killed. `POST /_rename?i=<index>&name=<name>`
// renames one service, as a directory's editor would (bench/freshness.ts).
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { MARKUPS, renderPath } from "../test/fixtures/directories";
import { syntheticServices } from "./synthetic-services";

export const PAGE_SIZE = 50;

const count = Number(process.argv[2] ?? 10_000);
const markup = MARKUPS.find((m) => m.id === (process.argv[3] ?? "dl")) ?? MARKUPS[0]!;
const services = syntheticServices(count);
const cache = new Map<string, { body: string; etag: string } | null>();

function page(path: string) {
  if (!cache.has(path)) {
    const body = renderPath(markup, services, path, PAGE_SIZE);
    cache.set(
      path,
      body === null ? null : { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` },
    );
  }
  return cache.get(path) ?? null;
}

/** Renames service i; every page is rendered again, so the listing and detail pages that show it change. */
function rename(url: URL): boolean {
  const service = services[Number(url.searchParams.get("i"))];
  const name = url.searchParams.get("name");
  if (!service || !name) return false;
  service.name = name;
  cache.clear();
  return true;
}

const server = http.createServer((req, res) => {
  if (req.method === "POST") {
    const renamed = rename(new URL(req.url ?? "/", "http://localhost"));
    res.writeHead(renamed ? 204 : 400).end();
    return;
  }
  const found = page(req.url ?? "/");
  if (!found) {
    res.writeHead(404, { "content-type": "text/html" }).end("not found");
    return;
  }
  if (req.headers["if-none-match"] === found.etag) {
    res.writeHead(304, { etag: found.etag }).end();
    return;
  }
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", etag: found.etag }).end(found.body);
});
server.keepAliveTimeout = 30_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(
    `${JSON.stringify({ port: (server.address() as AddressInfo).port, listing: markup.listingPath(1) })}\n`,
  );
});
