import { z } from "zod";
import { EVENT_KINDS, EVENT_TYPES } from "../../events/kinds";
import { DEFAULT_LIMIT, enumParam, integerParam, MAX_LIMIT, repeatableParam, serviceIdParam } from "./common";

const eventType = enumParam(EVENT_TYPES);

export const eventListQuery = z.strictObject({
  after: z
    .string({ error: "must be given once" })
    .regex(/^\d{1,20}\.\d{1,20}$/, "must be a next_cursor from an earlier answer")
    .optional()
    .meta({
      description: "Read on after this cursor (an answer's next_cursor); omitted: the oldest event kept.",
    }),
  types: repeatableParam(eventType, EVENT_TYPES.length)
    .optional()
    .meta({ description: "Only these kinds (repeat the parameter for more)." }),
  service_id: serviceIdParam.optional().meta({ description: "Only events about this service." }),
  limit: integerParam(1, MAX_LIMIT)
    .default(DEFAULT_LIMIT)
    .meta({ description: `Page size, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` }),
});

/** One envelope schema per kind, so each payload is documented (and versioned) on its own. */
export const eventSchemas = EVENT_TYPES.map((type) => {
  const kind = EVENT_KINDS[type];
  const name = type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
  return z
    .strictObject({
      id: z.string().meta({ description: "The event's id (a UUID): the webhook-id of its deliveries." }),
      type: z.literal(type).meta({ description: "The event kind." }),
      version: z.literal(kind.version).meta({ description: "The payload version of this kind." }),
      created_at: z.string().meta({ format: "date-time", description: "When the change committed." }),
      data: kind.data.meta({ description: "The kind's payload." }),
    })
    .meta({ id: `${name}Event`, description: `${kind.description} (${kind.visibility})` });
});

export const eventSchema = z.union(eventSchemas).meta({ id: "Event" });

export const eventPageSchema = z
  .strictObject({
    items: z.array(eventSchema).meta({ description: "Oldest first, in a stable order." }),
    has_more: z.boolean().meta({ description: "More events follow next_cursor now." }),
    next_cursor: z.string().nullable().meta({ description: "Pass as after to read on." }),
  })
  .meta({ id: "EventPage" });
