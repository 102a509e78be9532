// x402 endpoints for the probe benchmark, in their own process (so they never compete with the
// prober for an event loop): `node --import tsx bench/probe-fixtures.ts <hosts>` listens on
// 127.0.0.1 … 127.0.0.<hosts> (one port each, so each is a distinct host to the prober's
// politeness), prints {"origins":[…]}, then answers every path with a 402 until killed.
// Even paths answer a v1 JSON body, odd ones a v2 PAYMENT-REQUIRED header.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { v1ChallengeBody, v2ChallengeHeader } from "../test/support/x402-challenges";

const hosts = Number(process.argv[2] ?? 8);
const v1 = v1ChallengeBody();
const v2 = v2ChallengeHeader("https://bench.example/resource");

function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
  const index = Number(/(\d+)$/.exec(req.url ?? "")?.[1] ?? 0);
  // The prober sends a body for POST; read it so the connection closes cleanly.
  req.resume();
  if (index % 2 === 0) res.writeHead(402, { "content-type": "application/json" }).end(v1);
  else res.writeHead(402, { "content-type": "application/json", "payment-required": v2 }).end("{}");
}

async function listenOn(host: string): Promise<string> {
  const server = http.createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

const origins = await Promise.all(Array.from({ length: hosts }, (_, i) => listenOn(`127.0.0.${i + 1}`)));
process.stdout.write(`${JSON.stringify({ origins })}\n`);
