// A webhook receiver for bench/events.ts, in a process of its own (its CPU is not the
// deliverer's): verifies every delivery with standardwebhooks, as a real receiver would, and
// notes when each event arrived. Prints {"url"} once listening; GET /report answers what arrived.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

const secret = process.argv[2];
if (!secret) throw new Error("usage: webhook-receiver.ts <whsec_…>");
const webhook = new Webhook(secret);
/** Receipt time (ms since the epoch, sub-millisecond) by event number; repeats counted apart. */
const receivedAt = new Map<number, number>();
let duplicates = 0;
let unverified = 0;

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/report") {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ received: [...receivedAt], duplicates, unverified }));
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const at = performance.timeOrigin + performance.now();
    try {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name] = String(value);
      const event = webhook.verify(Buffer.concat(chunks).toString("utf8"), headers) as {
        data: { service: { name: string } };
      };
      const number = Number(event.data.service.name.slice(1));
      if (receivedAt.has(number)) duplicates++;
      else receivedAt.set(number, at);
      res.statusCode = 204;
    } catch {
      unverified++;
      res.statusCode = 400;
    }
    res.end();
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` }));
});
