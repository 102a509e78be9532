import { createApiKey } from "../../src/accounts/api-keys";
import { ensureOrganisation } from "../../src/accounts/organisations";
import type { Environment, Scope } from "../../src/accounts/scopes";
import type { Database } from "../../src/db/prisma-client";
import { listen, type RunningServer } from "../../src/http/server";
import { createTestApp, type TestApp, type TestAppOptions } from "./app";
import type { TestDatabase } from "./database";

export interface IssuedKey {
  id: string;
  key: string;
}

/** A key as an operator creates it (npm run keys -- create …). */
export async function issueKey(
  db: Database,
  organisation: string,
  environment: Environment,
  scopes: Scope[],
): Promise<IssuedKey> {
  const { id: organisationId } = await ensureOrganisation(db, organisation);
  const { id, key } = await createApiKey(db, { organisationId, environment }, scopes);
  return { id, key };
}

/** One API process listening on 127.0.0.1 (tests start two on one database to act as replicas). */
export interface Replica extends TestApp {
  url: string;
  server: RunningServer;
}

export async function startReplica(
  database: Pick<TestDatabase, "db" | "url">,
  options: TestAppOptions = {},
): Promise<Replica> {
  const app = createTestApp(database, options);
  const server = await listen(app.app, 0, "127.0.0.1");
  return {
    ...app,
    server,
    url: `http://127.0.0.1:${server.port}`,
    close: async () => {
      await server.close();
      await app.close();
    },
  };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** What a test reads from an answer: JSON as a loose record (each test asserts what it expects). */
export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read answers of many shapes
  body: any;
  text: string;
}

export async function call(baseUrl: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  const json = response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, body: json, text };
}

/** A JSON request with a bearer key (null: none); a string body is sent as it is (malformed JSON). */
export function callAs(
  baseUrl: string,
  key: IssuedKey | null,
  path: string,
  method = "GET",
  body?: unknown,
): Promise<Answer> {
  return call(baseUrl, path, {
    method,
    headers: {
      ...(key ? bearer(key.key) : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}
