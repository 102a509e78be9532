import { describe, expect, it } from "vitest";
import { readToolPaymentRequired } from "../../../src/mcp-tools/payment-required";

/** A v2 PaymentRequired as @x402/core's createPaymentRequiredResponse makes it for an MCP tool. */
const required = {
  x402Version: 2,
  error: "Payment required to access this tool",
  resource: {
    url: "mcp://tool/financial_analysis",
    description: "Tool: financial_analysis",
    mimeType: "application/json",
  },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:84532",
      amount: "10000",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
      maxTimeoutSeconds: 60,
      extra: { name: "USDC", version: "2" },
    },
  ],
};

const wrapper = (data: unknown, code = 402) => ({
  "x402/error": { code, message: "Payment required", data },
});
const text = (value: unknown) => [{ type: "text", text: JSON.stringify(value) }];

describe("readToolPaymentRequired: where MCP servers put x402's PaymentRequired", () => {
  it("@x402/mcp's payment wrapper: structuredContent and content[0].text, isError (the spec's preferred form)", () => {
    // coinbase/x402 typescript/packages/mcp/src/server/paymentWrapper.ts, createPaymentRequiredResult
    const found = readToolPaymentRequired({
      kind: "result",
      result: { structuredContent: required, content: text(required), isError: true },
    });
    expect(found).toEqual({
      payload: required,
      location: "structuredContent",
      isError: true,
      warnings: [],
      errorText: null,
    });
  });

  it("the spec's settlement failure: structuredContent with x402/payment-response beside the requirements", () => {
    // coinbase/x402 specs/transports-v2/mcp.md, "Settlement Failure"
    const failed = {
      ...required,
      "x402/payment-response": { success: false, errorReason: "insufficient_funds" },
    };
    const found = readToolPaymentRequired({
      kind: "result",
      result: { structuredContent: failed, content: [], isError: true },
    });
    expect(found.location).toBe("structuredContent");
    expect(found.payload).toEqual(failed);
  });

  it("the spec's wrapped form in structuredContent: x402/error.data", () => {
    const found = readToolPaymentRequired({
      kind: "result",
      result: { structuredContent: wrapper(required), content: [], isError: true },
    });
    expect(found).toMatchObject({ payload: required, location: "structuredContent.x402/error" });
    expect(found.warnings).toEqual([
      "payment requirements in structuredContent.x402/error, not in structuredContent",
    ]);
  });

  it("the spec's required form alone: content[0].text holding the x402/error wrapper", () => {
    // coinbase/x402 specs/transports-v2/mcp.md, "Required Response Format"; @x402/mcp's client reads this
    const found = readToolPaymentRequired({
      kind: "result",
      result: { content: text(wrapper(required)), isError: true },
    });
    expect(found).toMatchObject({ payload: required, location: "content.text.x402/error" });
  });

  it("the Cloudflare Agents SDK's paidTool: _meta x402/error and the JSON in content[0].text", () => {
    // cloudflare/agents packages/agents/src/mcp/x402.ts, withX402 → paidTool → paymentRequired()
    const payload = {
      x402Version: 2,
      error: "PAYMENT_REQUIRED",
      resource: { url: "x402://weather" },
      accepts: required.accepts,
    };
    const found = readToolPaymentRequired({
      kind: "result",
      result: { isError: true, _meta: { "x402/error": payload }, content: text(payload) },
    });
    expect(found).toMatchObject({ payload, location: "content.text" });
  });

  it("only in _meta x402/error (no JSON in the content): found there, with a warning", () => {
    const found = readToolPaymentRequired({
      kind: "result",
      result: {
        isError: true,
        _meta: { "x402/error": required },
        content: [{ type: "text", text: "Payment required" }],
      },
    });
    expect(found.location).toBe("_meta.x402/error");
    expect(found.warnings).toEqual([
      'payment requirements only in _meta["x402/error"], not in structuredContent or content',
    ]);
  });

  it("the transport's first draft: a JSON-RPC error 402 with the requirements as data (mark3labs/mcp-go-x402)", () => {
    const found = readToolPaymentRequired({
      kind: "error",
      code: 402,
      message: "Payment required",
      data: required,
    });
    expect(found).toMatchObject({ payload: required, location: "jsonrpc_error", isError: true });
  });

  it("a wrapper whose code is not 402: read, with a warning", () => {
    const found = readToolPaymentRequired({
      kind: "result",
      result: { content: text(wrapper(required, 400)), isError: true },
    });
    expect(found.payload).toEqual(required);
    expect(found.warnings).toContain("x402/error code is 400, not 402");
  });

  it("requirements in a result not marked isError: read, with a warning", () => {
    const found = readToolPaymentRequired({
      kind: "result",
      result: { structuredContent: required, content: [] },
    });
    expect(found.warnings).toEqual(["payment requirements in a tool result not marked isError"]);
  });

  it("the SDK's input validation error: an error without requirements, its text kept", () => {
    const message = "MCP error -32602: Input validation error: Invalid arguments for tool financial_analysis";
    const found = readToolPaymentRequired({
      kind: "result",
      result: { content: [{ type: "text", text: message }], isError: true },
    });
    expect(found).toEqual({ payload: null, location: null, isError: true, warnings: [], errorText: message });
  });

  it("a free tool's answer, and other JSON-RPC errors: no requirements", () => {
    expect(
      readToolPaymentRequired({ kind: "result", result: { content: text({ price: 1 }) } }),
    ).toMatchObject({
      payload: null,
      isError: false,
      errorText: null,
    });
    expect(
      readToolPaymentRequired({ kind: "error", code: -32602, message: "Unknown tool", data: required }),
    ).toMatchObject({
      payload: null,
      errorText: "Unknown tool",
    });
  });
});
