// Seller origins for the registration benchmark, in their own process (so they never compete with
// the catalogue for an event loop): `node --import tsx bench/registration-origins.ts` listens on
// 127.0.0.1, prints {"port":…}, and answers any host name: /.well-known/x402 is a manifest of three
// paid resources on that host, every other path a v2 402 challenge, /requests the count so far.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { v2ChallengeHeader } from "../test/support/x402-challenges";
import { v2Entry } from "../test/unit/payments/fixtures";

let requests = 0;

function manifest(origin: string): string {
  return JSON.stringify({
    x402Version: 2,
    resources: ["/quote", "/search", "/report"].map((path) => ({
      url: `${origin}${path}`,
      accepts: [v2Entry()],
    })),
  });
}

const server = http.createServer((req, res) => {
  req.resume();
  const path = req.url ?? "/";
  if (path === "/requests") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ requests }));
    return;
  }
  requests += 1;
  const origin = `http://${req.headers.host ?? "127.0.0.1"}`;
  if (path === "/.well-known/x402") {
    res.writeHead(200, { "content-type": "application/json" }).end(manifest(origin));
    return;
  }
  const challenge = v2ChallengeHeader(`${origin}${path}`);
  res.writeHead(402, { "content-type": "application/json", "payment-required": challenge }).end("{}");
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
