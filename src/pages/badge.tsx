import { renderToString } from "preact-render-to-string";
import { clip, percent } from "./format";
import type { ServiceView } from "./page-data";

/** An embeddable status badge for a service: health, grade and probe uptime, in the shields style. */

export interface BadgeFacts {
  health: string | null;
  grade: string | null;
  verified: boolean;
  uptimePct: number | null;
}

export function badgeFacts(service: ServiceView): BadgeFacts {
  return {
    health: service.health ?? null,
    grade: service.grade ?? null,
    verified: service.probe.verified,
    uptimePct: service.probe.windows["30d"].uptime_pct,
  };
}

/** The badge's words: health (or whether our probe verified it), grade and 30-day uptime. */
export function badgeMessage(facts: BadgeFacts): string {
  const parts = [facts.health ?? (facts.verified ? "verified" : "unverified")];
  if (facts.grade) parts.push(`grade ${facts.grade}`);
  if (facts.uptimePct !== null) parts.push(`${percent(facts.uptimePct).replace(" ", "")} up`);
  return clip(parts.join(" · "), 60);
}

function colour(facts: BadgeFacts): string {
  const health = facts.health ?? (facts.verified ? "healthy" : "unknown");
  if (health === "healthy") return "#1a7f37";
  if (health === "degraded") return "#9a6700";
  if (health === "unknown") return "#57606a";
  return "#cf222e";
}

/** Approximate width of text in 11 px Verdana: enough for the badge's own words. */
const widthOf = (text: string) => Math.round(Array.from(text).length * 6.6) + 10;

export function Badge({ facts }: { facts: BadgeFacts }) {
  const label = "x402";
  const message = badgeMessage(facts);
  const left = widthOf(label);
  const right = widthOf(message);
  const width = left + right;
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={width}
      height={20}
      role="img"
      aria-label={`${label}: ${message}`}
    >
      <title>{`${label}: ${message}`}</title>
      <rect width={left} height={20} fill="#24292f" />
      <rect x={left} width={right} height={20} fill={colour(facts)} />
      <g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">
        <text x={left / 2} y={14}>
          {label}
        </text>
        <text x={left + right / 2} y={14}>
          {message}
        </text>
      </g>
    </svg>
  );
}

export function renderBadge(facts: BadgeFacts): string {
  return renderToString(<Badge facts={facts} />);
}
