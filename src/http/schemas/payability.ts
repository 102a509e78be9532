import { z } from "zod";

/** What a payment option and an endpoint say about payability (src/payability/). */

export const optionPayabilityFields = {
  payable: z
    .boolean()
    .nullable()
    .meta({
      description:
        "Whether a standard x402 client could pay this option as published: a known scheme, a network (CAIP-2 " +
        "or a v1 name that maps to one), an asset that is a token contract on that network, an atomic amount " +
        "and a pay_to valid there. Null when the option was stored before verdicts existed.",
    }),
  unpayable_reasons: z.array(z.string()).meta({ description: "Why it cannot be paid; empty when payable." }),
};

export const payabilitySchema = z
  .strictObject({
    payable: z.boolean().meta({ description: "True when a standard x402 client can pay it as published." }),
    decided_by: z
      .enum(["live_challenge", "feed", "manifest", "directory"])
      .nullable()
      .meta({
        description:
          "Whose payment requirements decided: the endpoint's own 402 challenge (our latest probe) wins over " +
          "a discovery feed, which wins over the origin's manifest (/.well-known/x402), which wins over a " +
          "directory; null when nothing is published.",
      }),
    reasons: z
      .array(z.string())
      .meta({ description: "Why not, per option of the deciding source; empty when payable." }),
  })
  .meta({
    id: "Payability",
    description: "Can a standard x402 client construct a payment for this endpoint?",
  });
