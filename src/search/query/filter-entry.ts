import type { z } from "zod";

/** One filter: the field of the search's filters its query parameter sets. */
export interface FilterEntry<Field extends string = string, Param extends z.ZodType = z.ZodType> {
  field: Field;
  param: Param;
}

export const filter = <const Field extends string, Param extends z.ZodType>(
  field: Field,
  param: Param,
): FilterEntry<Field, Param> => ({ field, param });
