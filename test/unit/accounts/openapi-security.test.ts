import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../../src/http/openapi/document";

type Operation = { security?: Array<Record<string, string[]>>; responses: Record<string, unknown> };

function operation(path: string, method: "get" | "post" | "delete"): Operation {
  const item = openApiDocument().paths?.[path] as Record<string, Operation> | undefined;
  const found = item?.[method];
  if (!found) throw new Error(`${method} ${path} is not documented`);
  return found;
}

describe("the OpenAPI document's authentication", () => {
  it("when tools read the components, then the bearer scheme is declared", () => {
    expect(openApiDocument().components?.securitySchemes?.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
  });

  it.each([
    ["/v1/services", "get", [{}, { bearerAuth: ["catalogue:read"] }]],
    ["/v1/services/{id}/history", "get", [{}, { bearerAuth: ["catalogue:read"] }]],
    ["/v1/history.csv", "get", [{}, { bearerAuth: ["catalogue:export"] }]],
    ["/v1/api-keys", "post", [{ bearerAuth: ["keys:write"] }]],
    ["/v1/api-keys", "get", [{ bearerAuth: ["keys:write"] }]],
    ["/v1/api-keys/{id}", "delete", [{ bearerAuth: ["keys:write"] }]],
    ["/v1/usage", "get", [{ bearerAuth: ["billing:read"] }]],
    ["/v1/merchant/subscriptions", "post", [{ bearerAuth: ["billing:write"] }]],
    ["/v1/merchant/subscriptions/{id}/change-plan", "post", [{ bearerAuth: ["billing:write"] }]],
    ["/v1/merchant/subscriptions/{id}/cancel", "post", [{ bearerAuth: ["billing:write"] }]],
    ["/v1/merchant/portal/invoices", "get", [{ bearerAuth: ["billing:read"] }]],
  ] as const)(
    "when %s %s is read, then it declares the enforced access and scope",
    (path, method, security) => {
      const described = operation(path, method);
      expect(described.security).toEqual(security);
      expect(Object.keys(described.responses)).toEqual(expect.arrayContaining(["401", "403", "429"]));
    },
  );
});
