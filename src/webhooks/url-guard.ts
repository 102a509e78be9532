import { type HostResolver, type VettedTarget, vetTarget } from "../probe/resolve-target";
import type { AddressPolicy } from "../probe/ssrf-guard";

export type WebhookUrlCheck = { ok: true; target: VettedTarget } | { ok: false; reason: string };

/**
 * A webhook URL is user input aimed at our network: the probes' guard vets it (every address of
 * the name public, or inside WEBHOOK_ALLOWED_NETWORKS; metadata addresses never), and plain http
 * is accepted only when every address is inside an allowed range (a test receiver, an internal
 * relay an operator allowed): elsewhere the payload and signature would cross the internet in
 * clear. Checked when an endpoint is saved and again before every delivery (DNS may change).
 */
export async function vetWebhookUrl(
  raw: string,
  policy: AddressPolicy,
  resolve: HostResolver,
): Promise<WebhookUrlCheck> {
  const check = await vetTarget(raw, undefined, policy, resolve);
  if (!check.ok) return { ok: false, reason: check.reason };
  const { target } = check;
  if (target.url.username || target.url.password) {
    return { ok: false, reason: "the URL must not contain credentials" };
  }
  if (
    target.url.protocol === "http:" &&
    !target.addresses.every(({ address }) => policy.allowListed(address))
  ) {
    return { ok: false, reason: "plain http is accepted only inside WEBHOOK_ALLOWED_NETWORKS; use https" };
  }
  return check;
}
