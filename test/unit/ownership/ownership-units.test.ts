import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../../src/logging/safe-error";
import { challengeMessages } from "../../../src/ownership/challenge-message";
import {
  newChallengeToken,
  newOwnerCredential,
  ownerCredentialHash,
  publishedTokenHashes,
} from "../../../src/ownership/credential";
import { canonicalOrigin } from "../../../src/ownership/origins";
import { signatureVerifies } from "../../../src/ownership/signature-proof";
import { BASE, evmKey, SOLANA, solanaKey } from "../../support/ownership";

const text = {
  domain: "catalogue.example",
  origin: "https://api.example.com",
  nonce: "0123456789abcdef0123456789abcdef",
  issuedAt: new Date("2026-11-28T03:00:00.000Z"),
  expiresAt: new Date("2026-11-28T03:15:00.000Z"),
};

describe("ownership's pure parts", () => {
  it("when pay_tos are named, then one message per distinct EVM or Solana pay_to, others left out", () => {
    const evm = evmKey();
    const solana = solanaKey();
    const messages = challengeMessages(
      [
        { network: BASE, address: evm.address.toLowerCase() },
        { network: BASE, address: evm.address },
        { network: SOLANA, address: solana.address },
        { network: "eip155:8453", address: "not-an-address" },
        { network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", address: "0OIl" },
        { network: "aptos:1", address: "0x1" },
      ],
      text,
    );
    expect(messages.map((m) => [m.address, m.type])).toEqual([
      [evm.address, "eip191"],
      [solana.address, "ed25519"],
    ]);
    expect(messages[0]?.message).toContain("Chain ID: 8453");
    expect(messages[0]?.message).toContain("Expiration Time: 2026-11-28T03:15:00.000Z");
  });

  it("when a signature is malformed or by another key, then it verifies nothing", async () => {
    const evm = evmKey();
    const solana = solanaKey();
    const [forEvm, forSolana] = challengeMessages(
      [
        { network: BASE, address: evm.address },
        { network: SOLANA, address: solana.address },
      ],
      text,
    );
    if (!forEvm || !forSolana) throw new Error("two messages expected");
    expect(await signatureVerifies(forEvm, await evm.sign(forEvm.message))).toBe(true);
    expect(await signatureVerifies(forEvm, "0x1234")).toBe(false);
    expect(await signatureVerifies(forEvm, "not hex")).toBe(false);
    expect(await signatureVerifies(forSolana, await solana.sign(forSolana.message))).toBe(true);
    expect(await signatureVerifies(forSolana, await solanaKey().sign(forSolana.message))).toBe(false);
    expect(await signatureVerifies(forSolana, "0OIl")).toBe(false);
  });

  it("when a credential or token is read, then only its exact shape counts", () => {
    const credential = newOwnerCredential();
    expect(ownerCredentialHash(credential.text)).toEqual(credential.hash);
    expect(ownerCredentialHash(`${credential.text}x`)).toBeNull();
    expect(ownerCredentialHash(undefined)).toBeNull();
    const token = newChallengeToken();
    expect(publishedTokenHashes(`# comment\r\n  ${token.text}  \nxtok_short\n`)).toEqual([token.hash]);
  });

  it("when a log message quotes an owner credential, then it is hidden", () => {
    const { text: credential } = newOwnerCredential();
    expect(redactSecrets(`refused ${credential} for origin`)).toBe("refused xown_*** for origin");
  });

  it("when an origin is written, then only an http(s) origin without a path passes, in the URL parser's form", () => {
    expect(canonicalOrigin("HTTPS://API.Example.com:443")).toBe("https://api.example.com");
    expect(canonicalOrigin("http://127.0.0.1:8080/")).toBe("http://127.0.0.1:8080");
    expect(canonicalOrigin("https://api.example.com/path")).toBeNull();
    expect(canonicalOrigin("https://user:pw@api.example.com")).toBeNull();
    expect(canonicalOrigin("ftp://api.example.com")).toBeNull();
    expect(canonicalOrigin("api.example.com")).toBeNull();
  });
});
