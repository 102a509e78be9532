import http from "node:http";
import https from "node:https";

/** The agents got (and so Crawlee's HTTP client) takes per request: one per protocol. */
export interface RunAgents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * The keep-alive connections of one crawler run, closed when the run ends.
 *
 * Why not Node's global agent, which got-scraping uses by default: a socket keeps the async
 * context it was opened in, and Crawlee opens it inside a request handler's timeout context, which
 * holds that run's crawler and request queue. A keep-alive socket of the global agent outlives the
 * run, and with it the finished run's queue (16 MB of Crawlee's deduplication slots, plus its
 * requests; heap snapshot of bench/crawl-memory.ts at 20,000 services: 3 finished runs' queues
 * held by sockets). HTTPS pages that negotiate HTTP/2 use got-scraping's own HTTP/2 agent.
 */
export class RunConnections {
  readonly agents: RunAgents = openAgents();

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

function openAgents(): RunAgents {
  return { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
}

/** A pre-navigation hook that sends the page through the run's connections. */
export function useRunConnections(connections: RunConnections) {
  return (_context: unknown, gotOptions: { agent?: unknown }) => {
    gotOptions.agent = connections.agents;
  };
}
