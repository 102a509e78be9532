import { parseArgs } from "node:util";
import { z } from "zod";
import type { Database } from "../db/prisma-client";
import {
  type ApiKeySummary,
  apiKeyJson,
  createApiKey,
  getApiKeyOwner,
  getApiKeys,
  revokeApiKey,
} from "./api-keys";
import { ensureOrganisation, getOrganisationByName } from "./organisations";
import { apiKeyName, ENVIRONMENTS, SCOPES } from "./scopes";

export const KEYS_USAGE = `Usage:
  npm run keys -- create --org NAME --env live|test --scope SCOPE [--scope SCOPE …] [--name KEY_NAME] [--json]
  npm run keys -- list --org NAME [--env live|test] [--json]
  npm run keys -- revoke --id KEY_ID [--json]
Scopes: ${SCOPES.join(", ")}. create makes the organisation the first time it is named.
stdout holds the result alone (create: the key itself; --json: one JSON document); messages go to stderr.`;

const organisationName = z.string().trim().min(1, "--org must not be empty").max(200, "--org is too long");
const environment = z.enum(ENVIRONMENTS, { error: "--env must be live or test" });
const scopes = z
  .array(z.enum(SCOPES, { error: `--scope must be one of ${SCOPES.join(", ")}` }), {
    error: "create needs at least one --scope",
  })
  .min(1, "create needs at least one --scope");

const json = z.boolean().default(false);

const commandSchema = z.discriminatedUnion("command", [
  z.object({
    command: z.literal("create"),
    org: organisationName,
    env: environment,
    scope: scopes,
    name: apiKeyName.optional(),
    json,
  }),
  z.object({ command: z.literal("list"), org: organisationName, env: environment.optional(), json }),
  z.object({ command: z.literal("revoke"), id: z.guid({ error: "--id must be a key id (a UUID)" }), json }),
]);

export type KeysCommand = z.output<typeof commandSchema>;

export class UsageError extends Error {}

/** Parses the command line (scopes may also be given comma-separated); bad input is a UsageError. */
export function parseKeysCommand(argv: readonly string[]): KeysCommand {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        org: { type: "string" },
        env: { type: "string" },
        scope: { type: "string", multiple: true },
        id: { type: "string" },
        name: { type: "string" },
        json: { type: "boolean" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  if (positionals.length !== 1) throw new UsageError("name one command: create, list or revoke");
  const scope = (values.scope as string[] | undefined)?.flatMap((text) =>
    text.split(",").map((s) => s.trim()),
  );
  const result = commandSchema.safeParse({ command: positionals[0], ...values, scope });
  if (!result.success) {
    throw new UsageError(
      result.error.issues
        .map((issue) => {
          if (issue.code === "invalid_union") return "unknown command";
          // The shared name rules speak of "the name"; the operator typed --name.
          return issue.path[0] === "name" ? `--name ${issue.message}` : issue.message;
        })
        .join("; "),
    );
  }
  return result.data;
}

function describeKey(key: ApiKeySummary): string {
  const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : "active";
  const used = key.lastUsedAt ? `last used ${key.lastUsedAt.toISOString()}` : "never used";
  const name = key.name === null ? "" : `  "${key.name}"`;
  return `${key.id}${name}  ${key.prefix}…${key.lastFour}  ${key.scopes.join(",")}  created ${key.createdAt.toISOString()}  ${used}  ${state}`;
}

/** Where a command writes: its result (stdout, for scripts to capture) and messages for a person (stderr). */
export interface CommandOutput {
  result(text: string): void;
  message(text: string): void;
}

/** Runs one command; returns the exit code. */
export async function runKeysCommand(
  db: Database,
  command: KeysCommand,
  out: CommandOutput,
): Promise<number> {
  const print = (value: unknown) => out.result(JSON.stringify(value));
  switch (command.command) {
    case "create": {
      const organisation = await ensureOrganisation(db, command.org);
      const key = await createApiKey(
        db,
        { organisationId: organisation.id, environment: command.env },
        command.scope,
        command.name ?? null,
      );
      if (command.json) print({ ...apiKeyJson(key), key: key.key });
      else {
        out.message(describeKey(key));
        out.message("The API key follows on stdout, shown this once: store it now.");
        out.result(key.key);
      }
      return 0;
    }
    case "list": {
      const organisation = await getOrganisationByName(db, command.org);
      if (!organisation) {
        out.message(`No organisation named ${command.org}`);
        return 1;
      }
      const keys: ApiKeySummary[] = [];
      for (const env of command.env ? [command.env] : ENVIRONMENTS)
        keys.push(...(await getApiKeys(db, { organisationId: organisation.id, environment: env })));
      if (command.json) print({ items: keys.map(apiKeyJson) });
      else for (const key of keys) out.result(describeKey(key));
      return 0;
    }
    case "revoke": {
      const owner = await getApiKeyOwner(db, command.id);
      const key = owner && (await revokeApiKey(db, owner, command.id));
      if (!key) {
        out.message(`No API key with id ${command.id}`);
        return 1;
      }
      if (command.json) print(apiKeyJson(key));
      else out.result(describeKey(key));
      return 0;
    }
  }
}
