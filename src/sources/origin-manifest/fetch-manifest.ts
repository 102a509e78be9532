import { type GuardedRequestDeps, guardedRequest } from "../../probe/guarded-request";
import type { HopResponse } from "../../probe/http-hop";
import { type ManifestReading, parseManifest } from "./parse-manifest";

/** Where origins publish their manifest, in the order they are tried. */
export const MANIFEST_PATHS = ["/.well-known/x402", "/.well-known/x402.json"] as const;

/**
 * What one origin answered. `absent`: it has no manifest (404, HTML, not JSON, a redirect to
 * another host), which is no error of the run. `failed`: a manifest may exist but could not be
 * read this time (network, refused address, 5xx, too large, broken JSON, unreadable shape), so
 * what is stored from it is kept.
 */
export type OriginAnswer =
  | { kind: "read"; manifestUrl: string; reading: ManifestReading; warnings: string[]; requests: number }
  | { kind: "absent"; reason: string; statusCode: number | null; requests: number }
  | { kind: "failed"; url: string; reason: string; statusCode: number | null; requests: number };

type PathAnswer =
  | { kind: "read"; manifestUrl: string; reading: ManifestReading; warnings: string[] }
  | { kind: "absent" | "failed"; url: string; reason: string; statusCode: number | null };

export interface ManifestFetchDeps {
  request: GuardedRequestDeps;
  /** Awaited before every request (politeness over all origins). */
  pace: (signal?: AbortSignal) => Promise<void>;
}

/**
 * Reads an origin's manifest: `/.well-known/x402`, then `/.well-known/x402.json` when the first
 * is absent. One request at a time per origin; every hop goes through the probes' address guard.
 */
export async function readOriginManifest(
  origin: string,
  deps: ManifestFetchDeps,
  signal?: AbortSignal,
): Promise<OriginAnswer> {
  const absences: string[] = [];
  let statusCode: number | null = null;
  let requests = 0;
  for (const path of MANIFEST_PATHS) {
    await deps.pace(signal);
    requests += 1;
    const answer = await readAt(new URL(path, origin), deps, signal);
    if (answer.kind === "read") return { ...answer, requests };
    if (answer.kind === "failed") return { ...answer, requests };
    absences.push(`${path}: ${answer.reason}`);
    statusCode ??= answer.statusCode;
    if (signal?.aborted) break;
  }
  return { kind: "absent", reason: `no manifest (${absences.join("; ")})`, statusCode, requests };
}

async function readAt(url: URL, deps: ManifestFetchDeps, signal?: AbortSignal): Promise<PathAnswer> {
  const answer = await guardedRequest({ url: url.href, method: "GET" }, deps.request, signal);
  if (answer.kind !== "answer")
    return { kind: "failed", url: url.href, reason: answer.reason, statusCode: answer.lastStatus };
  const status = answer.response.status;
  const outcome = (kind: "absent" | "failed", reason: string): PathAnswer => ({
    kind,
    url: url.href,
    reason,
    statusCode: status,
  });
  if (answer.url.hostname !== url.hostname)
    return outcome("absent", `redirected to another host (${answer.url.host}): not this origin's manifest`);
  if (status === 404 || status === 410) return outcome("absent", `HTTP ${status}`);
  if (status < 200 || status >= 300) return outcome("failed", `HTTP ${status}`);
  if (answer.response.truncated)
    return outcome("failed", `larger than ${deps.request.settings.maxResponseBytes} bytes: not read`);
  return readBody(answer.response, answer.url, outcome);
}

function readBody(
  response: HopResponse,
  finalUrl: URL,
  outcome: (kind: "absent" | "failed", reason: string) => PathAnswer,
): PathAnswer {
  const contentType = (response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  const body = response.bodyText.trim();
  if (body === "") return outcome("absent", "empty answer");
  // Single-page apps answer every path with their index page.
  if (contentType === "text/html" || body.startsWith("<"))
    return outcome("absent", `an HTML page (${contentType || "no content type"}), not a manifest`);
  const declaredJson = /[/+]json$/.test(contentType);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    // Served as JSON but broken: the manifest exists, this copy is unreadable.
    if (declaredJson) return outcome("failed", `broken JSON: ${why}`);
    return outcome("absent", `not JSON (${contentType || "no content type"})`);
  }
  const reading = parseManifest(json, finalUrl);
  if (typeof reading === "string") return outcome("failed", reading);
  const warnings = declaredJson
    ? []
    : [`served as ${contentType || "no content type"}, not application/json`];
  return { kind: "read", manifestUrl: finalUrl.href, reading, warnings };
}
