import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { CallDescription } from "../payments/call-description";
import { type ChallengeInput, parsePaymentChallenge } from "../payments/challenge";
import { blankResult, type ProbeResult } from "../probe/probe-endpoint";
import { challengeChecks } from "../trust/checks/challenge";
import { check } from "../trust/types";
import { readToolPaymentRequired, type ToolCallAnswer } from "./payment-required";

/**
 * One unpaid `tools/call` answer as a probe result, in the model HTTP probes use: a tool result
 * carrying x402 payment requirements is the MCP transport's 402 (status 402, the code of its
 * `x402/error`), read by the same challenge reader and checks; any other answer is no challenge
 * (status 200, the HTTP status a tool result comes back with). Pure.
 */

/** How to call the tool, as its server's tools/list describes it. */
export function toolCall(tool: Tool): CallDescription {
  return {
    format: "mcp_tool",
    input: { type: "mcp", tool: tool.name, inputSchema: tool.inputSchema },
    output: tool.outputSchema ? { schema: tool.outputSchema } : null,
    input_schema: null,
    route_template: null,
  };
}

/** The tool's schema describes its input, whatever the challenge says. */
const describedByTools = (checks: ProbeResult["checks"]) =>
  checks.map((c) =>
    c.id === "input_described" && c.result !== "not_applicable"
      ? check("input_described", "pass", "the server's tools/list describes its input schema")
      : c,
  );

export function toolProbeResult(answer: ToolCallAnswer, tool: Tool, latencyMs: number | null): ProbeResult {
  const found = readToolPaymentRequired(answer);
  const call = toolCall(tool);
  const base = blankResult(latencyMs, [...found.warnings]);
  if (found.payload === null) {
    const input: ChallengeInput = { status: 200, headers: {}, bodyText: null, transport: "mcp" };
    const error = found.isError
      ? `the tool answered an error without x402 payment requirements${found.errorText ? `: ${found.errorText}` : ""}`
      : "the tool answered without asking for payment";
    return { ...base, outcome: "no_challenge", statusCode: 200, call, error, checks: challengeChecks(input) };
  }
  const input: ChallengeInput = {
    status: 402,
    headers: {},
    bodyText: JSON.stringify(found.payload),
    transport: "mcp",
  };
  const challenge = parsePaymentChallenge(input);
  return {
    ...base,
    outcome: "challenge",
    statusCode: 402,
    challengeValid: challenge.valid,
    x402Version: challenge.x402Version,
    options: challenge.options,
    call: challenge.call ?? call,
    warnings: [...base.warnings, ...challenge.warnings],
    error: challenge.error,
    checks: describedByTools(challengeChecks(input)),
    traits: challenge.traits,
  };
}
