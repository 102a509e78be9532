import { execFile } from "node:child_process";
import autocannon from "autocannon";

export interface LoadResult {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  /** Sent with every request (the API key of the "with a key" rows). */
  headers?: Record<string, string>;
}

/**
 * Closed-loop load with autocannon, cycling through `paths` on every connection. The load
 * generator runs in a worker thread so it does not share the server's event loop (on two cores
 * it still shares the CPU with the server and Postgres, for the bare route as for the others).
 */
export async function load(baseUrl: string, paths: string[], options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    workers: 1,
    requests: paths.map((path) => ({ method: "GET", path, headers: options.headers })),
  });
  return {
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export interface StreamResult {
  bytes: number;
  records: number;
  seconds: number;
}

/**
 * Runs in a child process: downloads a CSV and counts CRLF-terminated records without keeping the
 * body. Out of process, as a remote client would be: it neither steals the server's event loop
 * nor counts in the server's memory.
 */
const DOWNLOADER = `
const http = require("node:http");
const started = performance.now();
http.get(process.argv[1], (response) => {
  if (response.statusCode !== 200) throw new Error(process.argv[1] + ": HTTP " + response.statusCode);
  let bytes = 0, records = 0, previous = 0;
  response.on("data", (chunk) => {
    bytes += chunk.length;
    if (previous === 13 && chunk[0] === 10) records += 1;
    for (let i = chunk.indexOf(10, 1); i !== -1; i = chunk.indexOf(10, i + 1)) if (chunk[i - 1] === 13) records += 1;
    previous = chunk[chunk.length - 1];
  });
  response.on("end", () => console.log(JSON.stringify({ bytes, records, seconds: (performance.now() - started) / 1000 })));
});
`;

export function streamCsv(url: string): Promise<StreamResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["-e", DOWNLOADER, url], { maxBuffer: 1024 * 1024 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout) as StreamResult);
    });
  });
}
