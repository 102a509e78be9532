import type { NewEvent } from "../../src/events/emit";
import type { HostResolver } from "../../src/probe/resolve-target";
import type { WebhookSettings } from "../../src/webhooks/settings";

/** Loopback: where the tests' receivers listen. */
export const ALLOWED_NETWORKS = ["127.0.0.0/8"];

/** Made-up names for the URL guard: a public address, a private one, IPv6 loopback; IPv4 literals as they are. */
export const madeUpNames: HostResolver = async (hostname) => {
  if (hostname === "public.example") return [{ address: "93.184.216.34", family: 4 }];
  if (hostname === "internal.example") return [{ address: "10.1.2.3", family: 4 }];
  if (hostname === "v6.example") return [{ address: "::1", family: 6 }];
  if (/^[\d.]+$/.test(hostname)) return [{ address: hostname, family: 4 }];
  throw new Error(`unknown host ${hostname}`);
};

/** Delivery settings of tests that drive deliveries themselves: one at a time, retries due at once. */
export const testWebhookSettings: WebhookSettings = {
  deliver: true,
  allowedNetworks: ALLOWED_NETWORKS,
  eventRetentionDays: 30,
  concurrency: 1,
  pollMs: 1_000,
  timeoutMs: 10_000,
  retryWindowMs: 72 * 3_600_000,
  firstRetryDelayMs: 0,
  maxRetryDelayMs: 0,
  userAgent: "test",
  resolve: madeUpNames,
};

/** A service.listed event of a service named `name`. */
export function listedEvent(name: string): NewEvent {
  const id = "00000000-0000-4000-8000-000000000001";
  return {
    type: "service.listed",
    serviceId: id,
    data: { service: { id, name, source: "directory", detail_url: `https://dir.example/${name}` } },
  };
}
