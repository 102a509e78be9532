import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { renderDocsPage } from "../../../src/http/openapi/docs-page";
import { openApiDocument } from "../../../src/http/openapi/document";
import { renderLlmsTxt } from "../../../src/http/openapi/llms-txt";
import { exampleBody, operationsOf } from "../../../src/http/openapi/operation-parts";
import { createApiKeyBody } from "../../../src/http/schemas/accounts";
import { ownerReportBody, ownershipProofBody } from "../../../src/http/schemas/ownership";
import { createPaymentOrderBody } from "../../../src/http/schemas/payment-orders";
import { preflightBody } from "../../../src/http/schemas/preflight";
import {
  cancelSubscriptionBody,
  changePlanBody,
  createSubscriptionBody,
} from "../../../src/http/schemas/subscriptions";
import { createWebhookEndpointBody, updateWebhookEndpointBody } from "../../../src/http/schemas/webhooks";
import { registrationBody } from "../../../src/registrations/schemas";

/** The zod schema each route validates its body with (src/http/routes). */
const BODY_SCHEMAS: Record<string, z.ZodType> = {
  "POST /v1/api-keys": createApiKeyBody,
  "POST /v1/payment-orders": createPaymentOrderBody,
  "POST /v1/merchant/subscriptions": createSubscriptionBody,
  "POST /v1/merchant/subscriptions/{id}/change-plan": changePlanBody,
  "POST /v1/merchant/subscriptions/{id}/cancel": cancelSubscriptionBody,
  "POST /v1/webhook-endpoints": createWebhookEndpointBody,
  "POST /v1/preflight": preflightBody,
  "POST /v1/registrations": registrationBody,
  "PATCH /v1/webhook-endpoints/{id}": updateWebhookEndpointBody,
  "POST /v1/registrations/{id}/ownership-proof": ownershipProofBody,
  "PUT /v1/origin-owners/{origin}/report": ownerReportBody,
  "POST /v1/origin-owners/{origin}/webhook-endpoint": createWebhookEndpointBody,
};

const document = openApiDocument();
const withBodies = operationsOf(document).flatMap((entry) => {
  const example = exampleBody(document, entry);
  return example ? [{ name: `${entry.method.toUpperCase()} ${entry.path}`, example }] : [];
});

describe("request-body examples in /llms.txt and /docs", () => {
  it("when the document is read, then every operation with a body is one whose schema the test knows", () => {
    expect(withBodies.map(({ name }) => name).sort()).toEqual(Object.keys(BODY_SCHEMAS).sort());
  });

  it.each(withBodies)(
    "when $name shows its example body, then the route's own schema accepts it",
    ({ name, example }) => {
      const result = BODY_SCHEMAS[name]?.safeParse(JSON.parse(example));
      expect(result?.success, result?.error?.message).toBe(true);
    },
  );

  it("when /llms.txt is rendered, then each operation with a body is followed by its example", () => {
    const text = renderLlmsTxt(false);
    for (const { name, example } of withBodies) {
      const [method, path] = name.split(" ");
      expect(text).toContain(`- [${method} ${path}](/openapi.json)`);
      expect(text).toContain(`  Body (JSON), e.g. \`${example}\``);
    }
  });

  it("when /docs is rendered, then each operation with a body shows its fields and the example", () => {
    const page = renderDocsPage(document);
    const section = page.slice(page.indexOf('id="op-createPaymentOrder"'));
    expect(section).toMatch(/<h3>Request body \(JSON\)<\/h3>/);
    expect(section).toContain("<code>amount</code> (required)");
    expect(section).toContain("<code>accepted_assets[].chain</code>");
    expect(section).toContain("&quot;amount&quot;:&quot;12.50&quot;");
  });
});
