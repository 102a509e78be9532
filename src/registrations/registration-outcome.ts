import type { Prisma } from "../generated/prisma/client";
import { MCP_METHOD, readMcpToolUrl } from "../mcp-tools/tool-url";
import type { OriginAnswer } from "../sources/origin-manifest/fetch-manifest";
import type { OriginCheck } from "./check-origin";
import { answersChallenge, type ProbedUrl, probeVerdictJson, refusalOfProbe } from "./probed-resource";
import type { ListedResource, Registration, RegistrationOutcome } from "./registrations";

/** Problems of a manifest shown with a registration: enough to fix it, not the whole list. */
const SHOWN_PROBLEMS = 20;

/**
 * What a check means for one registration (pure). A URL is listed when its origin's registered
 * source lists it (its probe answered a valid challenge, or the manifest lists it, or it is kept
 * because the probe got no answer this time); otherwise it is refused with the probe's verdict.
 * An origin is listed when its manifest was read and lists resources (or could not be read and
 * what it listed is kept); otherwise it is refused with what the manifest read came to.
 */
export function registrationOutcome(
  registration: Pick<Registration, "kind" | "method" | "url" | "origin" | "state">,
  check: OriginCheck,
  endpoints: readonly ListedResource[],
): Omit<RegistrationOutcome, "sourceId" | "checkedAt"> {
  const manifest = manifestJson(check.manifest);
  if (registration.kind === "url") {
    const ofIt = (e: { method: string; url: string }) => registeredBy(registration, e);
    const probed = check.probes.find(ofIt);
    const verdict = { probe: probed ? probeVerdictJson(probed) : null, manifest };
    const listed = endpoints.filter(ofIt);
    if (listed.length > 0) return { state: "listed", reason: null, verdict, listed };
    return {
      state: "refused",
      reason: urlRefusal(registration, probed, check.incomplete),
      verdict,
      listed: [],
    };
  }
  const verdict = { probe: null, manifest };
  const reason = manifestRefusal(check.manifest, registration.origin);
  const kept = check.manifest.kind === "failed" && registration.state === "listed";
  if ((reason === null || kept) && endpoints.length > 0) {
    return { state: "listed", reason: null, verdict, listed: [...endpoints] };
  }
  return { state: "refused", reason: reason ?? "nothing it lists could be listed", verdict, listed: [] };
}

/**
 * Whether an endpoint (or a probe) is the registered URL's: the same method and URL, or, for an
 * MCP server (method MCP), one of the server's tools (its URL with the tool's name as fragment).
 */
function registeredBy(
  registration: Pick<Registration, "method" | "url">,
  { method, url }: { method: string; url: string },
): boolean {
  if (method !== registration.method) return false;
  if (url === registration.url) return true;
  return method === MCP_METHOD && readMcpToolUrl(url)?.serverUrl === registration.url;
}

/** Why a registered URL is not listed: its probe's verdict, or why a valid answer was held back. */
function urlRefusal(
  registration: Pick<Registration, "method" | "url">,
  probed: ProbedUrl | undefined,
  incomplete: string | null,
): string {
  const target = `${registration.method} ${registration.url}`;
  if (probed === undefined) return `${target} was not probed`;
  if (answersChallenge(probed.result))
    return `${target} answers a valid x402 challenge, but its origin's listing was kept as stored (${incomplete ?? "not stored"}); submit it again later`;
  return refusalOfProbe(probed);
}

/** Why an origin's manifest lists nothing, or null when it lists resources. */
function manifestRefusal(answer: OriginAnswer, origin: string): string | null {
  if (answer.kind === "absent") return `${origin} publishes no x402 manifest: ${answer.reason}`;
  if (answer.kind === "failed") return `the manifest of ${origin} could not be read: ${answer.reason}`;
  if (answer.reading.resources.length > 0) return null;
  const [first] = answer.reading.problems;
  const problems = answer.reading.problems.length;
  const why =
    first === undefined ? "" : `; ${problems} items not read, the first at ${first.where}: ${first.message}`;
  return `the manifest at ${answer.manifestUrl} lists no resource on ${origin}${why}`;
}

/** The manifest read as the API shows it with a registration. */
export function manifestJson(answer: OriginAnswer): Prisma.InputJsonObject {
  if (answer.kind !== "read") {
    const url = answer.kind === "failed" ? answer.url : null;
    return { outcome: answer.kind, url, reason: answer.reason, resources: 0, problems: [] };
  }
  return {
    outcome: "read",
    url: answer.manifestUrl,
    reason: null,
    resources: answer.reading.resources.length,
    problems: answer.reading.problems
      .slice(0, SHOWN_PROBLEMS)
      .map(({ where, message }) => ({ where, message })),
  };
}
