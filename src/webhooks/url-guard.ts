import { type HostResolver, type VettedTarget, vetTarget } from "../probe/resolve-target";
import type { AddressPolicy } from "../probe/ssrf-guard";

/**
 * Refused: `reason` is what the caller is told; `detail` (the resolved addresses and their kind)
 * goes to the debug log only, so the API never answers what a name resolves to inside our network.
 */
export type WebhookUrlCheck =
  | { ok: true; target: VettedTarget }
  | { ok: false; reason: string; detail: string };

const refused = (reason: string, detail = reason): WebhookUrlCheck => ({ ok: false, reason, detail });

/**
 * A webhook URL is user input aimed at our network: the probes' guard vets it (every address of
 * the name public, or inside WEBHOOK_ALLOWED_NETWORKS; metadata addresses never), and plain http
 * is accepted only when every address is inside an allowed range (a test receiver, an internal
 * relay an operator allowed): elsewhere the payload and signature would cross the internet in
 * clear. Checked when an endpoint is saved and again before every delivery (DNS may change).
 * The target's URL is the normalised one (`URL.href`): what is stored, answered and called.
 */
export async function vetWebhookUrl(
  raw: string,
  policy: AddressPolicy,
  resolve: HostResolver,
): Promise<WebhookUrlCheck> {
  if (!URL.canParse(raw)) return refused("must be an absolute http(s) URL");
  const url = new URL(raw);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return refused(`only http and https are accepted, not ${url.protocol}`);
  }
  if (url.username || url.password) return refused("the URL must not contain credentials");
  const check = await vetTarget(url.href, undefined, policy, resolve);
  if (!check.ok) {
    const host = url.hostname;
    return check.outcome === "network_error"
      ? refused(`${host} could not be resolved`, check.reason)
      : refused(
          `${host} is not a public address; non-public ranges are accepted only inside WEBHOOK_ALLOWED_NETWORKS`,
          check.reason,
        );
  }
  const { target } = check;
  if (
    target.url.protocol === "http:" &&
    !target.addresses.every(({ address }) => policy.allowListed(address))
  ) {
    return refused("plain http is accepted only inside WEBHOOK_ALLOWED_NETWORKS; use https");
  }
  return check;
}
