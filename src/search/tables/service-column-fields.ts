import type { ServiceFilters } from "../query/filters";
import type { Amount } from "./amounts";
import type { ServiceEntry } from "./service-entry";
import { gradeCode } from "./trust-codes";

/*
 * What the services' columns hold: which fields of an entry each number column and each list
 * reads. The columns (service-columns.ts) answer filters from them; the builder
 * (service-columns-builder.ts) makes them as a load reads the entries.
 */

/** The columns as ServiceColumnsBuilder makes them. */
export interface ColumnParts {
  everyEntry: Int32Array;
  withStatus: Map<string, Int32Array>;
  withCategory: Map<string, Int32Array>;
  healthCodes: Uint8Array;
  bounds: Record<BoundFilter, Float64Array>;
  volumeRanks: Float64Array;
  volumeOfRank: Amount[];
  withTag: Map<string, Int32Array>;
  withMethod: Map<string, Int32Array>;
  withWarning: Map<string, Int32Array>;
}

/**
 * The filters a number column answers, each a bound of its column: how the column reads an entry
 * (null: missing), whether the filter gives the column's lowest or highest value, and the bound a
 * filter's value means when it is not that number itself. A filter that bounds a number of the
 * entry is declared here and nowhere else in the search.
 */
export const BOUNDS = {
  minUptime: { read: (entry) => entry.uptime30d, lowest: true },
  maxResponseMs: { read: (entry) => entry.avgResponseMs30d, lowest: false },
  minTx: { read: (entry) => entry.txCount30d, lowest: true },
  minPayers: { read: (entry) => entry.payerCount30d, lowest: true },
  updatedSince: { read: (entry) => entry.infoUpdatedAt, lowest: true },
  minScore: { read: (entry) => entry.score, lowest: true },
  minUniquePayers: { read: (entry) => entry.observedUniquePayers, lowest: true },
  // Grades as codes, best 0: min_grade=B is the highest code a match may have.
  minGrade: { read: (entry) => gradeOf(entry), lowest: false, bound: gradeCode },
} satisfies {
  [F in keyof ServiceFilters]?: {
    read: (entry: ServiceEntry) => number | null;
    lowest: boolean;
    bound?: (value: NonNullable<ServiceFilters[F]>) => number;
  };
};

function gradeOf(entry: ServiceEntry): number | null {
  return entry.grade === null ? null : gradeCode(entry.grade);
}

export type BoundFilter = keyof typeof BOUNDS;
export const BOUND_FILTERS = Object.keys(BOUNDS) as BoundFilter[];

/** The number columns and how each is read from an entry (null: missing, kept as NaN). */
export const NUMBER_FIELDS: Record<NumberColumn, (entry: ServiceEntry) => number | null> = {
  ...Object.fromEntries(BOUND_FILTERS.map((filter) => [filter, BOUNDS[filter].read])),
  volumeRanks: (entry) => (entry.volume === null ? 0 : entry.sortRanks.volume),
} as Record<NumberColumn, (entry: ServiceEntry) => number | null>;

/** The list columns and the values of an entry each lists it under. */
export const LIST_FIELDS = {
  withStatus: (entry) => [entry.status],
  withCategory: (entry) => (entry.category === null ? [] : [entry.category]),
  withTag: (entry) => entry.tags,
  withMethod: (entry) => entry.methods,
  withWarning: (entry) => entry.warnings,
} satisfies Record<string, (entry: ServiceEntry) => readonly string[]>;

/**
 * Whether two versions of an entry give every bound column and every list the same values, so
 * the newer can take the older's place without the columns being made again (an in-place refresh).
 */
export function sameColumnValues(old: ServiceEntry, next: ServiceEntry): boolean {
  for (const filter of BOUND_FILTERS)
    if (BOUNDS[filter].read(old) !== BOUNDS[filter].read(next)) return false;
  for (const values of Object.values(LIST_FIELDS)) {
    const [before, after] = [values(old), values(next)];
    if (before.length !== after.length || !before.every((value) => after.includes(value))) return false;
  }
  return true;
}

export type NumberColumn = BoundFilter | "volumeRanks";
export type ListColumn = keyof typeof LIST_FIELDS;
export const NUMBER_COLUMNS: NumberColumn[] = [...BOUND_FILTERS, "volumeRanks"];
export const LIST_COLUMNS = Object.keys(LIST_FIELDS) as ListColumn[];
