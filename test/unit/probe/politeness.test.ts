import { describe, expect, it } from "vitest";
import { HostRateLimiter } from "../../../src/probe/rate-limit";
import { hostKey, staggerByHost } from "../../../src/probe/schedule";

describe("staggerByHost", () => {
  const now = new Date("2026-03-01T12:00:00Z");

  it("when a host has several endpoints, then they start one spacing apart and other hosts start at once", () => {
    const jobs = staggerByHost(
      [
        { id: "a1", url: "https://a.example/1" },
        { id: "b1", url: "https://b.example/1" },
        { id: "a2", url: "https://A.example:8443/2" },
        { id: "a3", url: "http://a.example/3" },
      ],
      30,
      now,
    );
    expect(jobs.map((j) => [j.id, (j.startAfter.getTime() - now.getTime()) / 1000])).toEqual([
      ["a1", 0],
      ["b1", 0],
      ["a2", 2],
      ["a3", 4],
    ]);
  });

  it("when a URL cannot be parsed, then it is its own host and is not delayed", () => {
    expect(hostKey("not a url")).toBe("not a url");
    const jobs = staggerByHost(
      [
        { id: "x", url: "not a url" },
        { id: "y", url: "also bad" },
      ],
      1,
      now,
    );
    expect(jobs.map((j) => j.startAfter.getTime())).toEqual([now.getTime(), now.getTime()]);
  });
});

describe("HostRateLimiter", () => {
  it("when one host is asked for repeatedly, then turns are spaced and other hosts do not wait", async () => {
    const limiter = new HostRateLimiter(1200); // 50 ms apart
    const started = performance.now();
    const at: Record<string, number[]> = { a: [], b: [] };
    await Promise.all(
      ["a", "a", "a", "b"].map(async (host) => {
        await limiter.acquire(host);
        at[host]?.push(performance.now() - started);
      }),
    );
    const a = (at.a ?? []).sort((x, y) => x - y);
    // Timers may fire a little late, never early (1 ms of slack for clock rounding).
    expect(a[1]).toBeGreaterThanOrEqual(49);
    expect(a[2]).toBeGreaterThanOrEqual(99);
    expect(at.b?.[0]).toBeLessThan(30);
  });

  it("when the signal aborts during a wait, then the wait rejects with the reason", async () => {
    const limiter = new HostRateLimiter(1); // one a minute
    await limiter.acquire("slow.example");
    const controller = new AbortController();
    const waiting = limiter.acquire("slow.example", controller.signal);
    controller.abort(new Error("stopping"));
    await expect(waiting).rejects.toThrow("stopping");
  });
});
