import { secp256k1 } from "@noble/curves/secp256k1.js";
import { HDKey } from "@scure/bip32";
import { bytesToHex, getAddress } from "viem";
import { publicKeyToAddress } from "viem/accounts";

/**
 * Deposit addresses of the EVM chain family, derived from an extended PUBLIC key (BIP32): the
 * service can tell where to pay but could never move the funds. Index i is the child 0/i of the
 * key (the "receive" branch below an account key such as m/44'/60'/0').
 */
export class EvmAddressDeriver {
  private readonly receive: HDKey;

  constructor(xpub: string) {
    const key = HDKey.fromExtendedKey(xpub);
    if (key.privateKey) throw new Error("an extended private key was given; only an xpub belongs here");
    this.receive = key.deriveChild(0);
  }

  address(index: number): `0x${string}` {
    const compressed = this.receive.deriveChild(index).publicKey;
    if (!compressed) throw new Error(`no public key at index ${index}`);
    const uncompressed = secp256k1.Point.fromBytes(compressed).toBytes(false);
    return getAddress(publicKeyToAddress(bytesToHex(uncompressed)));
  }
}

/** True when `text` is an extended public key this deriver accepts. */
export function isExtendedPublicKey(text: string): boolean {
  try {
    return !HDKey.fromExtendedKey(text).privateKey;
  } catch {
    return false;
  }
}
