import { afterAll, describe, expect, it } from "vitest";
import { sampleValue, scrape } from "../../support/metrics";
import { preparedDataDir } from "../../support/prepared-data-dir";
import { productEnv, type StartedProcess, startEntryPoint, TestLeftovers } from "../../support/processes";

async function portLogged(proc: StartedProcess, message: string): Promise<number> {
  const line = await proc.waitForLog((l) => typeof l.msg === "string" && l.msg.includes(message));
  return line.port as number;
}

async function stop(proc: StartedProcess): Promise<void> {
  proc.child.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
}

describe("which process serves its metrics where", () => {
  const leftovers = new TestLeftovers();
  afterAll(() => leftovers.cleanUp());
  async function dataDir(): Promise<string> {
    const dir = await preparedDataDir("catalogue-metrics-");
    leftovers.dirs.push(dir);
    return dir;
  }
  function start(script: string, env: Record<string, string>): StartedProcess {
    const proc = startEntryPoint(script, [], env);
    leftovers.processes.push(proc);
    return proc;
  }

  it("when npm start and a worker have METRICS_PORT, then each serves /metrics there only, with its own pool, and the API is ready", async () => {
    const dir = await dataDir();
    const api = start("src/main.ts", productEnv(dir, { METRICS_PORT: "0" }));
    const metricsPort = await portLogged(api, "metrics served");
    const apiPort = await portLogged(api, "listening on");
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    expect((await fetch(`${apiUrl}/metrics`)).status).toBe(404);
    const scraped = await scrape(`http://127.0.0.1:${metricsPort}`);
    expect(scraped.families.some((f) => f.name === "x402_db_pool_connections_in_use")).toBe(true);
    expect(scraped.text).toContain('x402_db_pool_connections_idle{pool="api"}');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(404);
    await api.waitForLog((l) => l.msg === "catalogue index loaded");
    expect((await fetch(`${apiUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${apiUrl}/v1/services`)).status).toBe(200);
    const after = await scrape(`http://127.0.0.1:${metricsPort}`);
    expect(sampleValue(after, "x402_http_requests_total", { group: "catalogue", status: "200" })).toBe(1);
    expect(sampleValue(after, "x402_catalogue_reloads_total", { way: "database" })).toBeGreaterThanOrEqual(1);

    const worker = start("jobs/worker.ts", productEnv(dir, { METRICS_PORT: "0" }));
    const workerPort = await portLogged(worker, "metrics served");
    const workerMetrics = await scrape(`http://127.0.0.1:${workerPort}`);
    expect(workerMetrics.text).toContain('x402_db_pool_connections_idle{pool="worker"}');
    expect(workerMetrics.families.some((f) => f.name === "x402_nodejs_eventloop_lag_seconds")).toBe(true);
    await stop(worker);
    await stop(api);
  });

  it("when METRICS_ENABLED is false, then npm start serves no /metrics, on no port", async () => {
    const dir = await dataDir();
    const api = start("src/main.ts", productEnv(dir, { METRICS_ENABLED: "false", METRICS_PORT: "0" }));
    const apiPort = await portLogged(api, "listening on");
    expect((await fetch(`http://127.0.0.1:${apiPort}/metrics`)).status).toBe(404);
    expect(api.lines.some((l) => l.msg?.includes("metrics served"))).toBe(false);
    await stop(api);
  });

  it("when METRICS_PORT is unset, then npm start serves /metrics on the API's port and a worker says it serves none", async () => {
    const dir = await dataDir();
    const api = start("src/main.ts", productEnv(dir));
    const apiPort = await portLogged(api, "listening on");
    const scraped = await scrape(`http://127.0.0.1:${apiPort}`);
    expect(scraped.text).toContain('x402_db_pool_connections_idle{pool="api"}');
    const worker = start("jobs/worker.ts", productEnv(dir));
    await worker.waitForLog((l) => l.msg === "METRICS_PORT is unset: this process serves no metrics");
    await worker.waitForLog((l) => l.msg === "worker ready");
    await stop(worker);
    await stop(api);
  });
});
