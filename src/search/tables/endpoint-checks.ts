import { VERIFIED_WITHIN_MS } from "../../catalogue/probe-stats";
import { MCP_METHOD } from "../../mcp-tools/tool-url";
import { type EndpointFilters, SHOWN_HEALTH } from "../query/filters";
import { amountOf } from "./amounts";
import { CALLABLE, DRIFT, type EndpointColumns, PAYABLE } from "./endpoint-columns";
import { DEAD, gradeCode, healthBits, warningBits } from "./trust-codes";

export type Check = (i: number) => boolean;

/** What a filter's check is made from, once per request. */
interface CheckContext {
  columns: EndpointColumns;
  filters: EndpointFilters;
  now: number;
}

/**
 * How each filter of the endpoint search is answered, so that a filter declared in filters.ts
 * without its check does not compile: "text" by the text index, "with max_price" by max_price's
 * check, a function by a check of the columns, made once per request.
 */
const ENDPOINT_CHECKS: {
  [F in keyof Required<EndpointFilters>]:
    | "text"
    | "with max_price"
    | ((value: NonNullable<EndpointFilters[F]>, context: CheckContext) => Check);
} = {
  q: "text",
  method: (method, { columns }) => {
    const code = columns.dictionaries.methods.find(method);
    return (i) => columns.method[i] === code;
  },
  // The method decides the transport (a database trigger keeps the column in step): MCP is a tool.
  transport: (transport, { columns }) => {
    const mcp = columns.dictionaries.methods.find(MCP_METHOD);
    return (i) => (columns.method[i] === mcp) === (transport === "mcp");
  },
  category: (category, { columns }) => {
    const code = columns.dictionaries.categories.find(category.toLowerCase());
    return (i) => code >= 0 && columns.category[i] === code;
  },
  network: (network, { columns }) => {
    const code = columns.dictionaries.networks.find(network.toLowerCase());
    return (i) => code >= 0 && columns.networks.some(i, (c) => c === code);
  },
  maxPrice: (maxPrice, { columns, filters }) => {
    const { prices } = columns;
    const ranks = columns.dictionaries.prices.rankTable();
    const highest = columns.dictionaries.prices.highestRankAtMost(amountOf(maxPrice));
    const unpriced = filters.includeUnpriced === true;
    return (i) =>
      prices.some(i, (code) => (ranks[code] as number) <= highest) || (unpriced && prices.isEmpty(i));
  },
  includeUnpriced: "with max_price",
  verified: (verified, { columns, now }) => {
    const since = now - VERIFIED_WITHIN_MS;
    // NaN (never verified) is not after any time.
    return (i) => (columns.lastVerifiedAt[i] as number) > since === verified;
  },
  drift: (drift, { columns }) => flagCheck(columns, DRIFT, drift),
  payable: (payable, { columns }) => flagCheck(columns, PAYABLE, payable),
  callable: (callable, { columns }) => flagCheck(columns, CALLABLE, callable),
  health: (health, { columns }) => {
    const allowed = healthBits(health);
    return (i) => (allowed & (1 << (columns.health[i] as number))) !== 0;
  },
  minGrade: (grade, { columns }) => {
    const worst = gradeCode(grade);
    // -1 (no grade) is below 0 (A): it never matches.
    return (i) => (columns.grade[i] as number) >= 0 && (columns.grade[i] as number) <= worst;
  },
  minScore:
    (score, { columns }) =>
    (i) =>
      (columns.score[i] as number) >= score,
  warnings: (warnings, { columns }) => {
    const wanted = warningBits(warnings);
    return (i) => ((columns.warnings[i] as number) & wanted) === wanted;
  },
  noWarnings: (warnings, { columns }) => {
    const refused = warningBits(warnings);
    return (i) => ((columns.warnings[i] as number) & refused) === 0;
  },
  minObservedVolume: (min, { columns }) => {
    // Exact: the volumes' ranks are in exact decimal order, and `min` becomes a lowest rank once.
    const { volumes } = columns.dictionaries;
    const ranks = volumes.rankTable();
    const below = volumes.highestRankBelow(amountOf(min));
    return (i) => {
      const code = columns.observedVolume[i] as number;
      return code >= 0 && (ranks[code] as number) > below;
    };
  },
  minUniquePayers:
    (payers, { columns }) =>
    (i) =>
      (columns.uniquePayers[i] as number) >= payers,
};

function flagCheck({ flags }: EndpointColumns, flag: number, wanted: boolean): Check {
  return (i) => (((flags[i] as number) & flag) !== 0) === wanted;
}

/**
 * The filters as one check of an entry; null when nothing is left out (no filter given and no
 * endpoint dead: a search then reads no column per match). Semantics as the services list's.
 */
export function endpointCheck(filters: EndpointFilters, columns: EndpointColumns, now: number): Check | null {
  const checks: Check[] = [];
  // Without health, every health but dead (a native scan of a byte per endpoint tells whether any is).
  const health = filters.health ?? (columns.health.includes(DEAD) ? SHOWN_HEALTH : undefined);
  for (const [field, value] of Object.entries({ ...filters, health })) {
    const answer = ENDPOINT_CHECKS[field as keyof EndpointFilters];
    if (typeof answer === "function" && value !== undefined)
      checks.push(answer(value as never, { columns, filters, now }));
  }
  if (checks.length === 0) return null;
  return (i) => checks.every((c) => c(i));
}
