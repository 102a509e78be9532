import { z } from "zod";
import { isoTimestamp, listSchema } from "./common";

const count = (description: string) => z.number().int().meta({ description });

export const probeSweepSchema = z
  .strictObject({
    id: z.guid().meta({ description: "The sweep's id." }),
    trigger: z.enum(["schedule", "manual"]).meta({ description: "PROBE_SCHEDULE, or `npm run probe`." }),
    started_at: isoTimestamp,
    finished_at: isoTimestamp.nullable().meta({
      description:
        "When `npm run probe` finished; null for scheduled sweeps (their probes run on the workers).",
    }),
    endpoints: count("Endpoints the sweep offered to the probes."),
    probed: count("Probes recorded from its start until the next sweep started (or now)."),
    outcomes: z
      .strictObject({
        challenge: count("A valid x402 payment challenge.").optional(),
        no_challenge: count("An answer without a payment challenge.").optional(),
        http_error: count("An HTTP error status.").optional(),
        network_error: count("No answer (refused, DNS, timeout, TLS).").optional(),
        refused: count("Not probed: the address is not public (SSRF guard).").optional(),
      })
      .meta({ description: "Those probes per outcome; outcomes with none are left out." }),
  })
  .meta({ id: "ProbeSweep", description: "One probe sweep and what its probes found." });

export const probeSweepListSchema = listSchema(probeSweepSchema, "ProbeSweepList");
