import { describe, expect, it } from "vitest";
import { routePolicy } from "../../../src/accounts/route-policy";

describe("routePolicy", () => {
  it.each([
    ["/v1/services", "catalogue", "public", "catalogue:read"],
    ["/v1/services/6d1f0a52-0000-4000-8000-000000000000/history", "catalogue", "public", "catalogue:read"],
    ["/v1/services/{id}", "catalogue", "public", "catalogue:read"],
    ["/v1/endpoints", "catalogue", "public", "catalogue:read"],
    ["/v1/categories", "catalogue", "public", "catalogue:read"],
    ["/v1/tags", "catalogue", "public", "catalogue:read"],
    ["/v1/crawls", "catalogue", "public", "catalogue:read"],
    ["/mcp", "catalogue", "public", "catalogue:read"],
    ["/v1/services.csv", "exports", "public", "catalogue:export"],
    ["/v1/history.csv", "exports", "public", "catalogue:export"],
    ["/v1/api-keys", "keys", "protected", "keys:write"],
    ["/v1/api-keys/6d1f0a52-0000-4000-8000-000000000000", "keys", "protected", "keys:write"],
    ["/v1/usage", "usage", "protected", "billing:read"],
    ["/v1/plans", "billing", "public", undefined],
    ["/", "pages", "public", "catalogue:read"],
    ["/services", "pages", "public", "catalogue:read"],
    ["/services/6d1f0a52-0000-4000-8000-000000000000", "pages", "public", "catalogue:read"],
    ["/endpoints", "pages", "public", "catalogue:read"],
    ["/stats", "pages", "public", "catalogue:read"],
    ["/badge/6d1f0a52-0000-4000-8000-000000000000.svg", "pages", "public", "catalogue:read"],
    ["/assets/pages.css", "pages", "public", "catalogue:read"],
    ["/servicesx", "other", "public", undefined],
    ["/docs", "other", "public", undefined],
    ["/llms.txt", "other", "public", undefined],
    ["/openapi.json", "other", "public", undefined],
    ["/v1/constructor", "other", "public", undefined],
    ["/v1/", "other", "public", undefined],
    ["/v2/services", "other", "public", undefined],
  ])("when the path is %s, then group %s, %s, scope %s", (path, group, access, scope) => {
    expect(routePolicy(path)).toEqual({ group, access, ...(scope ? { scope } : {}) });
  });

  it.each([
    ["GET", "/v1/payment-orders", "billing:read"],
    ["HEAD", "/v1/payment-orders/6d1f0a52-0000-4000-8000-000000000000", "billing:read"],
    ["POST", "/v1/payment-orders", "billing:write"],
    ["POST", "/v1/payment-orders/6d1f0a52-0000-4000-8000-000000000000/cancel", "billing:write"],
    ["GET", "/v1/merchant/subscriptions", "billing:read"],
    ["GET", "/v1/merchant/portal/invoices", "billing:read"],
    ["POST", "/v1/merchant/subscriptions", "billing:write"],
    ["POST", "/v1/merchant/subscriptions/6d1f0a52-0000-4000-8000-000000000000/change-plan", "billing:write"],
    ["POST", "/v1/merchant/subscriptions/6d1f0a52-0000-4000-8000-000000000000/cancel", "billing:write"],
  ])("when %s %s is asked for, then it is protected and needs %s", (method, path, scope) => {
    expect(routePolicy(path, method)).toMatchObject({ group: "billing", access: "protected", scope });
  });
});
