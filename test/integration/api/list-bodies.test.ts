import http, { type Agent, get } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../../../src/http/server";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/** List bodies are assembled in pooled buffers: concurrent answers must never share or overwrite one. */
describe("list answers under concurrency", () => {
  let database: TestDatabase;
  let api: TestApp;
  let server: { port: number; close(): Promise<void> };
  let agent: Agent;

  const fetchText = (path: string) =>
    new Promise<string>((resolve, reject) => {
      get({ host: "127.0.0.1", port: server.port, path, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        res.on("error", reject);
      }).on("error", reject);
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedServices(
      database.db,
      Array.from({ length: 120 }, (_, i) => ({
        name: `Service ${i} ${i % 2 === 0 ? "weather" : "stock"}`,
        description: `Description ${"x".repeat(1000 + i * 5)}`,
        volumeUsdc30d: String(i * 10),
        endpoints: [{ method: "GET", url: `https://s${i}.example/api`, description: `endpoint ${i}` }],
      })),
    );
    api = createTestApp(database);
    server = await listen(api.app, 0, "127.0.0.1");
    agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  });

  afterAll(async () => {
    agent.destroy();
    await server.close();
    await api.close();
    await database.drop();
  });

  it("when a client reads its answers slowly, then answers sent meanwhile do not overwrite them", async () => {
    const path = "/v1/services?limit=200";
    const PIPELINED = 40;
    const expected = await fetchText(path);
    expect(expected.length).toBeLessThan(256 * 1024); // a pooled buffer
    // Pipelined requests on a socket nobody reads: the first answers fill the socket (loopback
    // takes a few MB), then one waits in the server, in its lent buffer, until the client reads.
    const slow = connect(server.port, "127.0.0.1");
    slow.pause();
    const ask = (headers: string) => `GET ${path} HTTP/1.1\r\nHost: test\r\n${headers}\r\n`;
    slow.write(ask("").repeat(PIPELINED - 1) + ask("Connection: close\r\n"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const others = await Promise.all(
      Array.from({ length: 10 }, () => fetchText("/v1/services?q=stock&limit=200")),
    );
    expect(new Set(others).size).toBe(1);
    const chunks: Buffer[] = [];
    slow.on("data", (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => slow.on("end", resolve));
    slow.resume();
    await ended;
    const received = Buffer.concat(chunks).toString("utf8");
    expect(received.split(expected).length - 1).toBe(PIPELINED);
  });

  it("when many different pages are asked for at once, then each body is exactly its page as asked alone", async () => {
    const paths = [
      "/v1/services?limit=200",
      "/v1/services?limit=7&offset=3",
      "/v1/services?q=weather",
      "/v1/services?q=stock&sort=name",
      "/v1/services?sort=name&order=desc&limit=31",
      "/v1/endpoints?limit=200",
      "/v1/endpoints?q=endpoint&limit=11",
    ];
    const alone = new Map<string, string>();
    for (const path of paths) alone.set(path, await fetchText(path));
    for (const body of alone.values()) expect(JSON.parse(body).items.length).toBeGreaterThan(0);

    const asked = Array.from({ length: 20 }, () => paths).flat();
    const answers = await Promise.all(asked.map(fetchText));
    const mismatched = asked.filter((path, i) => answers[i] !== alone.get(path));
    expect(mismatched).toEqual([]);
  });
});
