import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  path: string;
  body: string;
  headers: Record<string, string>;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers to give, in order; once empty, 200. */
  statuses: number[];
  close(): Promise<unknown>;
}

/** A webhook receiver on 127.0.0.1 that keeps every request and answers with the next of `statuses`. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name] = String(value);
      received.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8"), headers });
      res.statusCode = statuses.shift() ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, statuses, close: () => new Promise((resolve) => server.close(resolve)) };
}
