import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type Registrar, RegistrationLimited } from "../registrations/registrar";
import { registrationJson } from "../registrations/registration-json";
import type { Submitter } from "../registrations/registrations";
import { targetOf } from "../registrations/registrations-route";
import { registrationBody, registrationSchema } from "../registrations/schemas";

/** Who calls the tool: a submitter, or why the call's key may not register. */
export type McpSubmitter = Submitter | { refused: string };

/** The registrar and the caller of one MCP request. */
export interface McpRegistration {
  registrar: Registrar | undefined;
  submitter: McpSubmitter;
}

export const REGISTER_RESOURCE_TOOL = {
  title: "Register an x402 resource",
  description:
    "Add a paid URL (url, with method) or a whole origin (origin: its /.well-known/x402 manifest is read) to the " +
    "catalogue, like POST /v1/registrations: the URL is probed at once through our SSRF guard and listed when it " +
    "answers a valid x402 challenge; otherwise the answer says why (the probe's verdict). Resubmitting returns the " +
    "same registration. Without a key, a few an hour per address.",
} as const;

const failure = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] });

export function registerRegistrationTool(server: McpServer, live: McpRegistration): void {
  server.registerTool(
    "register_resource",
    {
      ...REGISTER_RESOURCE_TOOL,
      inputSchema: registrationBody,
      // The shape without the component id, which the tool listing would emit as a bare reference.
      outputSchema: z.strictObject(registrationSchema.shape),
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (body) => {
      const { registrar, submitter } = live;
      if (registrar === undefined) return failure("Registrations are not taken by this server");
      if ("refused" in submitter) return failure(submitter.refused);
      try {
        const { registration } = await registrar.register(targetOf(body), submitter);
        const json = registrationJson(registration);
        const text = JSON.stringify(json);
        if (registration.state === "refused")
          return {
            isError: true,
            content: [{ type: "text", text: `Not listed: ${registration.reason}\n${text}` }],
          };
        return { content: [{ type: "text", text }], structuredContent: json };
      } catch (error) {
        if (error instanceof RegistrationLimited) return failure(error.message);
        throw error;
      }
    },
  );
}
