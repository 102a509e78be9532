// `npm run demo:site [port]`: a small x402 directory on 127.0.0.1 to try the catalogue offline.
// It serves the 25 services of the test fixtures (test/fixtures/directories, the dl design,
// 10 to a listing page) and prints every webhook delivery POSTed to /webhooks, until Ctrl-C.
import http from "node:http";
import { dlMarkup, renderPath, SERVICES } from "../test/fixtures/directories";

const PAGE_SIZE = 10;
const port = Number(process.argv[2] ?? 4402);

const server = http.createServer((req, res) => {
  if (req.method === "POST" && req.url === "/webhooks") {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type?: string };
      process.stdout.write(`webhook ${req.headers["webhook-id"]}: ${event.type}\n`);
      res.writeHead(204).end();
    });
    return;
  }
  const body = renderPath(dlMarkup, SERVICES, req.url ?? "/", PAGE_SIZE);
  if (body === null) res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
  else res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
});

server.listen(port, "127.0.0.1", () => {
  const origin = `http://127.0.0.1:${port}`;
  process.stdout.write(
    `demo directory: ${origin}${dlMarkup.listingPath(1)} (${SERVICES.length} services)\n` +
      `webhook receiver: ${origin}/webhooks\n`,
  );
});
process.on("SIGINT", () => server.close(() => process.exit(0)));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
