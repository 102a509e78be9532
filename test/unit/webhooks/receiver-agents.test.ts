import { afterEach, describe, expect, it } from "vitest";
import type { VettedTarget } from "../../../src/probe/resolve-target";
import { ReceiverAgents } from "../../../src/webhooks/receiver-agents";

const target = (url: string, ...addresses: string[]): VettedTarget => ({
  url: new URL(url),
  hostname: new URL(url).hostname,
  addresses: addresses.map((address) => ({ address, family: 4 })),
});

describe("keep-alive agents per vetted address set", () => {
  const agents = new ReceiverAgents(4);
  afterEach(() => agents.close());

  it("when a name is vetted to the same addresses again, in any order, then its attempts share one agent", () => {
    const first = agents.agentFor(target("https://hooks.example/a", "93.184.216.34", "93.184.216.35"));
    const again = agents.agentFor(target("https://hooks.example/b", "93.184.216.35", "93.184.216.34"));
    expect(again).toBe(first);
    expect(first.maxSockets).toBe(4);
  });

  it("when the name now resolves elsewhere, or another origin is asked, then the attempt gets another agent (no socket to an address it did not vet)", () => {
    const before = agents.agentFor(target("https://hooks.example/", "93.184.216.34"));
    expect(agents.agentFor(target("https://hooks.example/", "198.51.100.7"))).not.toBe(before);
    expect(agents.agentFor(target("https://hooks.example:8443/", "93.184.216.34"))).not.toBe(before);
    expect(agents.agentFor(target("http://hooks.example/", "93.184.216.34"))).not.toBe(before);
  });
});
