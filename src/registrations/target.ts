import type { Scope } from "../accounts/scopes";
import type { RegistrationTarget } from "./registrations";

/** The scope a key needs to register and re-index (route-policy.ts). */
export const REGISTER_SCOPE: Scope = "catalogue:register";

/** The body's target, normalised as the registration stores it (the URL parser's form, the method upper-case). */
export function targetOf(body: { url?: string; method?: string; origin?: string }): RegistrationTarget {
  if (body.url !== undefined) {
    const url = new URL(body.url);
    url.hash = "";
    return { kind: "url", url: url.href, method: body.method ?? "GET", origin: url.origin };
  }
  return { kind: "origin", origin: new URL(body.origin ?? "").origin };
}
