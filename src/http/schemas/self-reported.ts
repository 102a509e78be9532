import { z } from "zod";
import { isoTimestamp } from "./common";

/** What a feed says about an endpoint on its seller's behalf, and the catalogue's own evidence. */

const nullableCount = z.number().int().nullable();

export const selfReportedSchema = z
  .strictObject({
    service_name: z.string().nullable().meta({ description: "The feed's serviceName." }),
    tags: z.array(z.string()).meta({ description: "The feed's tags, lower-cased." }),
    icon_url: z.string().nullable().meta({ description: "The feed's iconUrl (http(s) only)." }),
    quality: z
      .strictObject({
        total_calls_30d: nullableCount.meta({ description: "The feed's l30DaysTotalCalls." }),
        unique_payers_30d: nullableCount.meta({ description: "The feed's l30DaysUniquePayers." }),
        last_called_at: isoTimestamp.nullable().meta({ description: "The feed's lastCalledAt." }),
      })
      .meta({ description: "The feed's quality block: its own usage figures." }),
  })
  .nullable()
  .meta({
    id: "SelfReported",
    description:
      "Self-reported: what a discovery feed says on the seller's behalf (serviceName, tags, iconUrl, quality), " +
      "unchecked. Weigh it against evidence. Null when no feed said anything.",
  });

export const evidenceSchema = z
  .strictObject({
    pay_to_shared_with_origins: nullableCount.meta({
      description: "Other domains paid to one of this endpoint's pay_to addresses; null when it has none.",
    }),
    answers_our_probes: z.boolean().nullable().meta({
      description: "Our latest probe got an HTTP answer below 500; null when never probed.",
    }),
    listed_since: isoTimestamp.meta({ description: "When the listing that lists it was first seen." }),
    listing_age_days: z.number().int().meta({ description: "Whole days since listed_since." }),
  })
  .meta({ id: "EndpointEvidence", description: "What the catalogue itself observed about the endpoint." });
