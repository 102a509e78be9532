import { z } from "zod";

/** What a payment option and an endpoint say about payability (src/payability/). */

export const optionPayabilityFields = {
  payable: z
    .boolean()
    .nullable()
    .meta({
      description:
        "Whether the official x402 client (@x402/fetch with @x402/evm and @x402/svm; x402-fetch for v1) builds " +
        "a payment for this option as published: a scheme it implements (exact; upto in v2), a CAIP-2 network " +
        "(or, in v1, a name in the official clients' table), a token contract on that network, an atomic " +
        "amount, a pay_to valid there, and what the scheme reads from extra (EVM exact: the EIP-712 name and " +
        "version; EVM upto: facilitatorAddress; Solana exact: feePayer). Null when the option was stored " +
        "before verdicts existed.",
    }),
  unpayable_reasons: z.array(z.string()).meta({ description: "Why it cannot be paid; empty when payable." }),
};

export const priceKindSchema = z.enum(["exact", "maximum"]).meta({
  description:
    "exact: the amount is what a call costs; maximum: the amount is a ceiling the seller may charge less " +
    "than (scheme upto).",
});

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
