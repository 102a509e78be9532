import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { routePolicy } from "../../../src/accounts/route-policy";
import { LIVENESS_PATH, READINESS_PATH } from "../../../src/http/health";
import { openApiDocument } from "../../../src/http/openapi/document";

const doc = readFileSync(new URL("../../../docs/security.md", import.meta.url), "utf8");
/** The access table's rows: route, without a key, what a key needs. */
const rows = new Map(
  [...doc.matchAll(/^\| `([A-Z]+ \S+)` \| ([^|]+) \| ([^|]+) \|$/gm)].map((m) => [m[1] ?? "", [m[2], m[3]]]),
);

/** The row the route policy implies for a route. */
function implied(route: string): [string, string] {
  const [method = "", path = ""] = route.split(" ");
  const policy = routePolicy(path, method);
  return [
    policy.access === "public" ? "allowed" : "refused (401)",
    policy.scope ? `\`${policy.scope}\`` : "any valid key",
  ];
}

describe("docs/security.md's access table", () => {
  // Liveness and readiness are answered before the guard: the document explains them beside the table.
  const beforeTheGuard = new Set([`GET ${LIVENESS_PATH}`, `GET ${READINESS_PATH}`]);
  const documented = Object.entries(openApiDocument().paths ?? {})
    .flatMap(([path, item]) => Object.keys(item ?? {}).map((method) => `${method.toUpperCase()} ${path}`))
    .filter((route) => !beforeTheGuard.has(route));

  it.each([...documented, "POST /mcp"])(
    "when %s is an operation, then the table states its policy",
    (route) => {
      expect(rows.get(route)).toEqual(implied(route));
    },
  );

  it("when the table names a route, then it states that route's policy", () => {
    expect(rows.size).toBeGreaterThan(documented.length);
    for (const [route, row] of rows) expect(row, route).toEqual(implied(route));
  });
});
