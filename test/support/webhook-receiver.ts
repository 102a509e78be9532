import http from "node:http";
import type { AddressInfo } from "node:net";
import type { WebhookSettings } from "../../src/webhooks/settings";

/**
 * Delivery settings for tests: loopback receivers allowed, retries due at once (the test drives
 * them without waiting), a 72-hour retry window.
 */
export function testWebhookSettings(overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  return {
    deliver: true,
    allowedNetworks: ["127.0.0.0/8"],
    eventRetentionDays: 30,
    concurrency: 1,
    pollMs: 1_000,
    timeoutMs: 10_000,
    retryWindowMs: 72 * 3_600_000,
    firstRetryDelayMs: 0,
    maxRetryDelayMs: 0,
    userAgent: "test",
    ...overrides,
  };
}

export interface ReceivedRequest {
  path: string;
  body: string;
  headers: Record<string, string>;
  /** The sender's port: requests with the same one came over one connection. */
  remotePort: number | undefined;
}

/**
 * A webhook receiver on 127.0.0.1. Each request is answered with the next of `statuses` (then
 * 200), or held unanswered while `holds` is above 0 (a sender killed mid-attempt).
 * `next()` resolves with the next request to arrive.
 */
export async function startWebhookReceiver() {
  const received: ReceivedRequest[] = [];
  const statuses: number[] = [];
  const held: http.ServerResponse[] = [];
  const waiters: ((request: ReceivedRequest) => void)[] = [];
  const receiver = {
    url: "",
    received,
    statuses,
    holds: 0,
    next: () => new Promise<ReceivedRequest>((resolve) => waiters.push(resolve)),
    /** Answers the held requests 200. */
    answerHeld: () => {
      for (const res of held.splice(0)) res.end("ok");
    },
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name] = String(value);
      const request = {
        path: req.url ?? "",
        body: Buffer.concat(chunks).toString("utf8"),
        headers,
        remotePort: req.socket.remotePort,
      };
      received.push(request);
      if (receiver.holds > 0) {
        receiver.holds--;
        held.push(res);
      } else {
        res.statusCode = statuses.shift() ?? 200;
        res.end("ok");
      }
      waiters.shift()?.(request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
