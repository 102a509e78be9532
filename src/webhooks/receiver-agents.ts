import http from "node:http";
import https from "node:https";
import type { VettedTarget } from "../probe/resolve-target";

/** Agents kept; the least recently used is dropped first (its idle sockets close on their timeout). */
const MAX_AGENTS = 256;
/**
 * An idle connection is closed after this: under the 5 s keep-alive timeout of Node servers, so we
 * rarely send on a connection the receiver is closing (Node also honours a shorter
 * `Keep-Alive: timeout=` that the receiver announces).
 */
const IDLE_MS = 4_000;

/**
 * Keep-alive connections to webhook receivers, without loosening the address guard. A request
 * connects only to the addresses its attempt just vetted (the pinned lookup), and a pooled
 * socket skips that lookup; so there is one agent per origin *and vetted address set*: every
 * socket an agent holds was connected to an address of the set this attempt vetted. When a name
 * resolves elsewhere, its attempts get a new agent and the old sockets are never used again.
 */
export class ReceiverAgents {
  /** In use order: the first entry is the least recently used. */
  private readonly agents = new Map<string, http.Agent>();

  constructor(private readonly maxSocketsPerAgent: number) {}

  agentFor(target: VettedTarget): http.Agent {
    const addresses = target.addresses.map(({ address }) => address).sort();
    const key = `${target.url.protocol}//${target.url.host} ${addresses.join(",")}`;
    const found = this.agents.get(key);
    const agent = found ?? this.create(target.url.protocol === "https:");
    this.agents.delete(key);
    this.agents.set(key, agent);
    if (!found && this.agents.size > MAX_AGENTS) {
      // Not destroyed: a request may still be running on it.
      const [oldest] = this.agents.keys();
      if (oldest !== undefined) this.agents.delete(oldest);
    }
    return agent;
  }

  /** Closes every connection; call once no attempt is running. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private create(tls: boolean): http.Agent {
    const options = { keepAlive: true, maxSockets: this.maxSocketsPerAgent, timeout: IDLE_MS };
    return tls ? new https.Agent(options) : new http.Agent(options);
  }
}
