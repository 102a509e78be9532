import { parseArgs } from "node:util";
import { z } from "zod";
import type { Database } from "../db/prisma-client";
import { type ApiKeySummary, createApiKey, getApiKeyOwner, getApiKeys, revokeApiKey } from "./api-keys";
import { ensureOrganisation, getOrganisationByName } from "./organisations";
import { ENVIRONMENTS, SCOPES } from "./scopes";

export const KEYS_USAGE = `Usage:
  npm run keys -- create --org NAME --env live|test --scope SCOPE [--scope SCOPE …]
  npm run keys -- list --org NAME [--env live|test]
  npm run keys -- revoke --id KEY_ID
Scopes: ${SCOPES.join(", ")}. create makes the organisation the first time it is named.`;

const organisationName = z.string().trim().min(1, "--org must not be empty").max(200, "--org is too long");
const environment = z.enum(ENVIRONMENTS, { error: "--env must be live or test" });
const scopes = z
  .array(z.enum(SCOPES, { error: `--scope must be one of ${SCOPES.join(", ")}` }), {
    error: "create needs at least one --scope",
  })
  .min(1, "create needs at least one --scope");

const commandSchema = z.discriminatedUnion("command", [
  z.object({ command: z.literal("create"), org: organisationName, env: environment, scope: scopes }),
  z.object({ command: z.literal("list"), org: organisationName, env: environment.optional() }),
  z.object({ command: z.literal("revoke"), id: z.guid({ error: "--id must be a key id (a UUID)" }) }),
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
        .map((issue) => (issue.code === "invalid_union" ? "unknown command" : issue.message))
        .join("; "),
    );
  }
  return result.data;
}

function describeKey(key: ApiKeySummary): string {
  const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : "active";
  const used = key.lastUsedAt ? `last used ${key.lastUsedAt.toISOString()}` : "never used";
  return `${key.id}  ${key.prefix}…${key.lastFour}  ${key.scopes.join(",")}  created ${key.createdAt.toISOString()}  ${used}  ${state}`;
}

/** Runs one command; returns the exit code and writes what an operator reads. */
export async function runKeysCommand(
  db: Database,
  command: KeysCommand,
  print: (line: string) => void,
): Promise<number> {
  switch (command.command) {
    case "create": {
      const organisation = await ensureOrganisation(db, command.org);
      const key = await createApiKey(
        db,
        { organisationId: organisation.id, environment: command.env },
        command.scope,
      );
      print(describeKey(key));
      print(`API key (shown once, store it now): ${key.key}`);
      return 0;
    }
    case "list": {
      const organisation = await getOrganisationByName(db, command.org);
      if (!organisation) {
        print(`No organisation named ${command.org}`);
        return 1;
      }
      for (const env of command.env ? [command.env] : ENVIRONMENTS) {
        for (const key of await getApiKeys(db, { organisationId: organisation.id, environment: env }))
          print(describeKey(key));
      }
      return 0;
    }
    case "revoke": {
      const owner = await getApiKeyOwner(db, command.id);
      const key = owner && (await revokeApiKey(db, owner, command.id));
      if (!key) {
        print(`No API key with id ${command.id}`);
        return 1;
      }
      print(describeKey(key));
      return 0;
    }
  }
}
