import { HDKey } from "@scure/bip32";
import { DEFAULT_ADDRESS_REST_SECONDS, type SettlementChain } from "../../src/billing/settlement-chains";

/** A fixed test wallet: its account key m/44'/60'/0' (private, for tests only) and that key's xpub. */
export const TEST_ACCOUNT_KEY = HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).derive("m/44'/60'/0'");
export const TEST_XPUB = TEST_ACCOUNT_KEY.publicExtendedKey;

export function testChain(overrides: Partial<SettlementChain> = {}): SettlementChain {
  return {
    chain: "base",
    rpcUrl: "http://127.0.0.1:1",
    usdcContract: "0x0000000000000000000000000000000000000001",
    confirmations: 1,
    xpub: TEST_XPUB,
    addressRestSeconds: DEFAULT_ADDRESS_REST_SECONDS,
    ...overrides,
  };
}
