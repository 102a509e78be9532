import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { EvmAddressDeriver, isExtendedPublicKey } from "../../../src/chain/deposit-address";
import { TEST_ACCOUNT_KEY, TEST_XPUB } from "../../support/billing";

describe("EVM deposit addresses from an extended public key", () => {
  it.each([0, 1, 7, 1000])(
    "when child 0/%i is derived from the xpub, then it is the private key's address",
    (index) => {
      const privateKey = TEST_ACCOUNT_KEY.deriveChild(0).deriveChild(index).privateKey;
      if (!privateKey) throw new Error("test key has no private key");
      const expected = privateKeyToAccount(`0x${Buffer.from(privateKey).toString("hex")}`).address;
      expect(new EvmAddressDeriver(TEST_XPUB).address(index)).toBe(expected);
    },
  );

  it("when an extended private key is given, then it is refused", () => {
    expect(() => new EvmAddressDeriver(TEST_ACCOUNT_KEY.privateExtendedKey)).toThrow(/only an xpub/);
    expect(isExtendedPublicKey(TEST_ACCOUNT_KEY.privateExtendedKey)).toBe(false);
    expect(isExtendedPublicKey("xpub-nonsense")).toBe(false);
    expect(isExtendedPublicKey(TEST_XPUB)).toBe(true);
  });
});
