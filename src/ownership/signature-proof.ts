import { ed25519 } from "@noble/curves/ed25519.js";
import { decodeBase58 } from "@x402/extensions/sign-in-with-x";
import { type Hex, isHex, verifyMessage } from "viem";
import type { SignableMessage } from "./challenge-message";

/**
 * Whether `signature` signs the challenge's message for its address: EIP-191 (personal_sign)
 * recovered with viem for EVM addresses, Ed25519 with @noble/curves for Solana ones (signature
 * as base58, as Solana wallets give it, or 0x hex). A malformed signature verifies nothing.
 */
export async function signatureVerifies(message: SignableMessage, signature: string): Promise<boolean> {
  if (message.type === "eip191") {
    if (!isHex(signature)) return false;
    try {
      return await verifyMessage({
        address: message.address as Hex,
        message: message.message,
        signature: signature as Hex,
      });
    } catch {
      return false;
    }
  }
  try {
    const bytes = isHex(signature) ? Buffer.from(signature.slice(2), "hex") : decodeBase58(signature);
    const publicKey = decodeBase58(message.address);
    return ed25519.verify(bytes, new TextEncoder().encode(message.message), publicKey);
  } catch {
    return false;
  }
}
