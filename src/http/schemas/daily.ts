import { z } from "zod";
import { MAX_DAILY_DAYS } from "../../catalogue/daily-queries";
import { decimalString, integerParam } from "./common";
import { probeWindowSchema } from "./services";

/** `GET /v1/services/{id}/history/daily`: a service's figures per UTC day. */

export const DEFAULT_DAILY_DAYS = 30;

export const dailyQuery = z.strictObject({
  days: integerParam(1, MAX_DAILY_DAYS)
    .default(DEFAULT_DAILY_DAYS)
    .meta({
      description: `Days ending today (UTC), 1 to ${MAX_DAILY_DAYS} (default ${DEFAULT_DAILY_DAYS}).`,
    }),
});

const nullableDecimal = decimalString.nullable();

export const dailyItemSchema = z
  .strictObject({
    day: z.iso.date().meta({ description: "The UTC day." }),
    probes: probeWindowSchema.meta({
      description: "Our probes that day: count, uptime, p50 and p99 latency.",
    }),
    price_min_usdc: nullableDecimal.meta({
      description: "Lowest USDC price per call the day's valid challenges asked; null when none.",
    }),
    price_max_usdc: nullableDecimal.meta({ description: "Highest such price; null when none." }),
    claimed_volume_usdc_30d: nullableDecimal.meta({
      description: "The listings' 30-day volume as it stood at the day's end; null when unknown.",
    }),
    observed_volume_usdc_30d: nullableDecimal.meta({
      description:
        "USDC paid to its pay_tos over the 30 days ending with the day; null when no chain is read.",
    }),
    adjusted_volume_usdc_30d: nullableDecimal.meta({
      description: "The same without flagged transfers; null when no chain is read.",
    }),
  })
  .meta({ id: "DailyFigures", description: "A service's figures over one UTC day." });

export const dailyListSchema = z
  .strictObject({
    items: z.array(dailyItemSchema).meta({ description: "Every day of the range, oldest first." }),
  })
  .meta({ id: "DailyList" });
