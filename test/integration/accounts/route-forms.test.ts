import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RoutePolicy, routePolicy } from "../../../src/accounts/route-policy";
import { SCOPES, type Scope } from "../../../src/accounts/scopes";
import { openApiDocument } from "../../../src/http/openapi/document";
import { type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { concretePath, type RegisteredRoute, registeredRoutes } from "../../support/routes";

/** The segment the policy reads: the first after /v1/, or the first of any other path. */
function policySegment(path: string): number {
  return path.startsWith("/v1/") ? 2 : 1;
}

/**
 * The same route written otherwise: letter case, a trailing slash, percent-encoded letters and
 * slashes, doubled slashes and dot segments. None of them may reach a route the policy misreads.
 */
function otherForms(path: string): string[] {
  const segments = path.split("/");
  const at = policySegment(path);
  const segment = segments[at] ?? "";
  const replaced = (index: number, text: string) =>
    segments.map((part, i) => (i === index ? text : part)).join("/");
  const forms = [
    path.toUpperCase(),
    segments.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("/"),
    `${path}/`,
    `/${path}`,
    `/zz/..${path}`,
  ];
  if (segment) {
    const hex = segment.charCodeAt(0).toString(16).toUpperCase();
    forms.push(
      replaced(at, segment.toUpperCase()),
      replaced(at, `%${hex}${segment.slice(1)}`),
      replaced(at, `/${segment}`),
      replaced(at, `./${segment}`),
    );
  }
  if (segments.length > 2) forms.push(`/${segments[1]}%2F${segments.slice(2).join("/")}`);
  return [...new Set(forms)].filter((form) => form !== path);
}

interface Answer {
  status: number;
  message: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** The path exactly as written (fetch would resolve dot segments before sending). */
function rawCall(port: number, method: string, path: string, key?: IssuedKey): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: key ? { authorization: `Bearer ${key.key}` } : {},
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => {
          let message = "";
          try {
            message = String((JSON.parse(text) as { message?: unknown }).message ?? "");
          } catch {
            // Not a JSON error body: a handler answered.
          }
          resolve({ status: response.statusCode ?? 0, message });
        });
      },
    );
    request.on("error", reject);
    request.end();
  });
}

const noRoute = (answer: Answer) => answer.status === 404 && answer.message.startsWith("No route for");

/** What the policy answers a caller: 401 without a key on a protected route, 403 without the scope. */
function refusal(policy: RoutePolicy, scopes: readonly Scope[] | undefined): number | undefined {
  if (scopes === undefined) return policy.access === "protected" ? 401 : undefined;
  return policy.scope && !scopes.includes(policy.scope) ? 403 : undefined;
}

async function inTurns<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

describe("every route in every written form against the route policy", () => {
  let database: TestDatabase;
  let api: Replica;
  let routes: RegisteredRoute[];
  const callers: Array<{ name: string; scopes?: readonly Scope[]; key?: IssuedKey }> = [
    { name: "anonymous" },
  ];
  let everything: IssuedKey;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startReplica(database);
    routes = registeredRoutes(api.app);
    // Readiness answers 503 until the catalogue has loaded: every route is walked once it has.
    await vi.waitFor(async () => expect((await fetch(`${api.url}/readyz`)).status).toBe(200), {
      timeout: 30_000,
      interval: 100,
    });
    for (const scope of SCOPES) {
      callers.push({
        name: scope,
        scopes: [scope],
        key: await issueKey(database.db, "acme", "live", [scope]),
      });
    }
    everything = await issueKey(database.db, "acme", "live", [...SCOPES]);
  });
  afterAll(async () => {
    agent.destroy();
    await api.close();
    await database.drop();
  });

  it("when the app's routes are read from its stack, then the protected ones and /mcp are among them", () => {
    const listed = routes.map((route) => `${route.method} ${route.path}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        "POST /mcp",
        "GET /v1/api-keys",
        "POST /v1/webhook-endpoints/:id/rotate-secret",
      ]),
    );
  });

  it("when a /v1 route is registered, then the policy names its group and the OpenAPI document states that policy", () => {
    const paths = openApiDocument().paths ?? {};
    for (const route of routes.filter((candidate) => candidate.path.startsWith("/v1/"))) {
      const policy = routePolicy(route.path, route.method);
      const documented = paths[route.path.replace(/:([A-Za-z]+)/g, "{$1}")] as
        | Record<string, { security?: unknown }>
        | undefined;
      const keyed = { bearerAuth: policy.scope ? [policy.scope] : [] };
      expect(policy.group, `${route.method} ${route.path}`).not.toBe("other");
      expect(documented?.[route.method.toLowerCase()]?.security, `${route.method} ${route.path}`).toEqual(
        policy.access === "protected" ? [keyed] : [{}, keyed],
      );
    }
  });

  it("when each caller calls each route as written, then the policy's refusals are given and the rest pass the guard", async () => {
    const wrong: string[] = [];
    await inTurns(routes, 4, async (route) => {
      const path = concretePath(route.path);
      const policy = routePolicy(path, route.method);
      for (const caller of callers) {
        const answer = await rawCall(api.server.port, route.method, path, caller.key);
        const expected = refusal(policy, caller.scopes);
        const passed = ![401, 403].includes(answer.status) && answer.status < 500 && !noRoute(answer);
        if (expected ? answer.status !== expected : !passed) {
          wrong.push(`${caller.name} ${route.method} ${path}: ${answer.status} ${answer.message}`);
        }
      }
    });
    expect(wrong).toEqual([]);
  });

  it("when a route is written in another case, with slashes, dots or percent-encoding, then each caller is refused as the policy says or no route answers", async () => {
    const wrong: string[] = [];
    let forms = 0;
    await inTurns(routes, 4, async (route) => {
      const canonical = concretePath(route.path);
      const policy = routePolicy(canonical, route.method);
      for (const form of otherForms(canonical)) {
        forms += 1;
        const reached = await rawCall(api.server.port, route.method, form, everything);
        if (!noRoute(reached)) {
          // Reachable in this form: the guard must read the very policy of the route it reaches.
          const seen = routePolicy(form.split("?")[0] ?? form, route.method);
          if (JSON.stringify(seen) !== JSON.stringify(policy)) {
            wrong.push(`${route.method} ${form} reaches ${route.path} (${reached.status}) as ${seen.group}`);
          }
        }
        for (const caller of callers) {
          const expected = refusal(policy, caller.scopes);
          if (!expected) continue;
          const answer = await rawCall(api.server.port, route.method, form, caller.key);
          if (answer.status !== expected && !noRoute(answer)) {
            wrong.push(`${caller.name} ${route.method} ${form}: ${answer.status} ${answer.message}`);
          }
        }
      }
    });
    expect(forms).toBeGreaterThan(routes.length * 5);
    expect(wrong).toEqual([]);
  });
});
