import { createSIWxMessage, decodeBase58 } from "@x402/extensions/sign-in-with-x";
import { getAddress, isAddress } from "viem";
import { z } from "zod";

/**
 * The sign-in-with-x messages of an ownership challenge (CAIP-122; EIP-4361's text for EVM
 * chains, its Solana form for solana:*), one per pay_to the origin's endpoints' challenges name,
 * written by the official x402 extension (@x402/extensions/sign-in-with-x). Pure: the caller
 * gives the pay_tos, the nonce and the times.
 */

/** A pay_to as a payment option names it: its address on a CAIP-2 network. */
export interface NamedPayTo {
  network: string;
  address: string;
}

export const signableMessage = z.strictObject({
  address: z.string(),
  chain_id: z.string(),
  type: z.enum(["eip191", "ed25519"]),
  message: z.string(),
});
export type SignableMessage = z.infer<typeof signableMessage>;
export const signableMessages = z.array(signableMessage);

export interface ChallengeText {
  /** Who asks for the signature: the catalogue's host as the client reached it. */
  domain: string;
  origin: string;
  nonce: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** The address in the form its chain writes it, or null when it is no address of that chain. */
export function signerAddress(payTo: NamedPayTo): { address: string; type: SignableMessage["type"] } | null {
  if (/^eip155:\d+$/.test(payTo.network)) {
    return isAddress(payTo.address, { strict: false })
      ? { address: getAddress(payTo.address), type: "eip191" }
      : null;
  }
  if (/^solana:[1-9A-HJ-NP-Za-km-z]+$/.test(payTo.network)) {
    try {
      return decodeBase58(payTo.address).length === 32 ? { address: payTo.address, type: "ed25519" } : null;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * One message per distinct pay_to of an EVM or Solana network; pay_tos of other networks (or no
 * valid address) cannot sign and are left out.
 */
export function challengeMessages(payTos: readonly NamedPayTo[], text: ChallengeText): SignableMessage[] {
  const messages = new Map<string, SignableMessage>();
  for (const payTo of payTos) {
    const signer = signerAddress(payTo);
    if (signer === null) continue;
    const key = `${payTo.network} ${signer.address.toLowerCase()}`;
    if (messages.has(key)) continue;
    const message = createSIWxMessage(
      {
        domain: text.domain,
        uri: text.origin,
        statement: `Prove that you control ${text.origin} for the x402 catalogue.`,
        version: "1",
        chainId: payTo.network,
        type: signer.type,
        nonce: text.nonce,
        issuedAt: text.issuedAt.toISOString(),
        expirationTime: text.expiresAt.toISOString(),
      },
      signer.address,
    );
    messages.set(key, { address: signer.address, chain_id: payTo.network, type: signer.type, message });
  }
  return [...messages.values()];
}
