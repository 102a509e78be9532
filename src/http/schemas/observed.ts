import { z } from "zod";
import { FLAG_RULES } from "../../activity/wash-rules";
import { decimalString, isoTimestamp } from "./common";

/** What the chain shows a service's or an endpoint's pay_tos were paid (docs/agents.md, "Observed volume"). */

const figures = z
  .strictObject({
    volume_usdc: decimalString.meta({ description: "USDC received, exact." }),
    tx_count: z.number().int().meta({ description: "Transfers received." }),
    unique_payers: z.number().int().meta({ description: "Distinct payer addresses." }),
  })
  .meta({ id: "ObservedFigures" });

const windows = z
  .strictObject({ "24h": figures, "7d": figures, "30d": figures })
  .meta({ id: "ObservedWindows", description: "Over the last 24 hours, 7 days and 30 days." });

const flaggedTransfer = z.strictObject({
  chain: z.string().meta({ description: "CAIP-2, e.g. eip155:8453." }),
  tx_hash: z.string().meta({ description: "The flagged transfer's transaction." }),
  log_index: z.number().int().meta({ description: "Its Transfer log's index in the block." }),
  payer: z.string().meta({ description: "The sender, lower-case." }),
  pay_to: z.string().meta({ description: "The watched address paid, lower-case." }),
  value_usdc: decimalString,
  at: isoTimestamp,
  evidence: z.array(z.string()).meta({ description: "Up to 10 transactions that triggered the rule." }),
  evidence_count: z.number().int().meta({ description: "How many transactions triggered it." }),
});

const flagSummary = z
  .strictObject({
    rule: z.enum(FLAG_RULES).meta({ description: "The rule (docs/agents.md, Observed volume)." }),
    transfer_count: z.number().int().meta({ description: "Transfers it flagged." }),
    volume_usdc: decimalString,
    transfers: z.array(flaggedTransfer).meta({ description: "The 10 latest flagged transfers." }),
  })
  .meta({ id: "ActivityFlag" });

const claim = z.strictObject({
  source: z
    .enum(["directory", "feed"])
    .meta({ description: "Who claims it: a directory or a feed's quality block." }),
  figure: z
    .enum(["volume_usdc", "tx_count", "unique_payers"])
    .meta({ description: "The 30-day figure claimed." }),
  claimed: z.string().meta({ description: "The claimed value (exact decimal for volume)." }),
  observed: z.string().meta({ description: "The adjusted 30-day figure." }),
  ratio: z.number().nullable().meta({ description: "claimed / observed; null when nothing was observed." }),
});

const observedFields = {
  pay_to: z
    .array(
      z.strictObject({
        chain: z.string().meta({ description: "CAIP-2, e.g. eip155:8453." }),
        address: z.string().meta({ description: "The pay_to, lower-case." }),
      }),
    )
    .meta({
      description: "The pay_tos read, lower-case.",
    }),
  shared_with: z.array(z.string()).meta({
    description: "Other services that publish one of these pay_tos: each is credited with their payments.",
  }),
  raw: windows,
  adjusted: windows.meta({ description: "The same, without flagged transfers." }),
  last_payment_at: isoTimestamp.nullable(),
  flags: z.array(flagSummary).meta({ description: "Each rule that flagged payments, with its evidence." }),
  claims: z
    .array(claim)
    .meta({ description: "The directory's and the feed's 30-day figures beside the observed ones." }),
  claim_ratio: z.number().nullable().meta({ description: "The largest claim ratio." }),
  warnings: z.array(z.enum(["claims_exceed_observed"])).meta({
    description: "claims_exceed_observed: a claim is more than twice the adjusted 30-day figure.",
  }),
  computed_at: isoTimestamp,
};

export const endpointObservedSchema = z.strictObject(observedFields).nullable().meta({
  id: "EndpointObserved",
  description: "What the chain shows this endpoint's pay_tos were paid; null when no chain is read for them.",
});

export const serviceObservedSchema = z
  .strictObject({
    ...observedFields,
    daily: z
      .array(
        z.strictObject({
          day: z.string().meta({ description: "UTC day." }),
          raw: figures,
          adjusted: figures,
        }),
      )
      .meta({ description: "Days with payments over the last 30 days, oldest first." }),
  })
  .nullable()
  .meta({
    id: "ServiceObserved",
    description: "What the chain shows the service's pay_tos were paid; null when no chain is read for them.",
  });
