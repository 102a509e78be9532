import type { z } from "zod";
import { enumParam } from "../../http/schemas/common";

/** One filter: the field of the search's filters its query parameter sets. */
export interface FilterEntry<Field extends string = string, Param extends z.ZodType = z.ZodType> {
  field: Field;
  param: Param;
}

export const filter = <const Field extends string, Param extends z.ZodType>(
  field: Field,
  param: Param,
): FilterEntry<Field, Param> => ({ field, param });

/** Only the two words: "1", "yes" or an empty value are refused rather than guessed at. */
export const booleanParam = enumParam(["true", "false"]).transform((text) => text === "true");
