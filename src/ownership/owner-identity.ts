import { z } from "zod";

/** Who proved an origin, as events and answers show it. */
export const ownerIdentitySchema = z
  .strictObject({
    method: z
      .enum(["signature", "token_file"])
      .meta({ description: "How it proved the origin: a pay_to's signature, or the token file." }),
    address: z.string().nullable().meta({ description: "The pay_to that signed; null for the token file." }),
    chain_id: z
      .string()
      .nullable()
      .meta({ description: "CAIP-2 chain of the signature; null for the token file." }),
  })
  .meta({ id: "OriginOwnerIdentity" });
