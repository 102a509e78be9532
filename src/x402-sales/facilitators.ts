import { x402Facilitator } from "@x402/core/facilitator";
import { type FacilitatorClient, HTTPFacilitatorClient } from "@x402/core/server";
import type { SupportedResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, defineChain, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { SalesSettings } from "./settings";

/**
 * The built-in facilitator: the official `@x402/core` facilitator with `@x402/evm`'s `exact`
 * scheme. It verifies a payer's EIP-3009 authorisation against the chain and submits
 * `transferWithAuthorization` with its own key, which only pays gas: the USDC moves from the payer
 * straight to the authorisation's recipient (X402_PAY_TO).
 */
export function builtInFacilitator(
  key: `0x${string}`,
  rpcUrls: ReadonlyMap<string, string>,
): FacilitatorClient {
  const facilitator = new x402Facilitator();
  const account = privateKeyToAccount(key);
  for (const [network, url] of rpcUrls) {
    const id = Number(network.slice("eip155:".length));
    const chain = defineChain({
      id,
      name: network,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    const client = createWalletClient({ account, chain, transport: http(url) }).extend(publicActions);
    // viem's own parameter types are stricter unions than the signer's plain records.
    type Loose<F> = F extends (args: never) => infer R ? (args: unknown) => R : never;
    const loose = <F>(method: F) => method as Loose<F>;
    const signer = toFacilitatorEvmSigner({
      address: account.address,
      readContract: (args) => loose(client.readContract)(args),
      verifyTypedData: (args) => loose(client.verifyTypedData)(args),
      writeContract: (args) => loose(client.writeContract)(args),
      sendTransaction: (args) => client.sendTransaction(args),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      getCode: (args) => client.getCode(args),
    });
    registerExactEvmScheme(facilitator, { signer, networks: network as `${string}:${string}` });
  }
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}

/** The facilitator of the settings: a remote one by URL, else the built-in one. */
export function salesFacilitator(settings: SalesSettings): FacilitatorClient {
  if (settings.facilitatorUrl) return new HTTPFacilitatorClient({ url: settings.facilitatorUrl });
  if (!settings.facilitatorKey) {
    throw new Error(
      "selling over x402 needs X402_FACILITATOR_URL, or X402_FACILITATOR_KEY and X402_RPC_URLS",
    );
  }
  const missing = [...settings.payTo.keys()].filter((network) => !settings.rpcUrls.has(network));
  if (missing.length > 0) throw new Error(`X402_RPC_URLS names no RPC URL for ${missing.join(", ")}`);
  return builtInFacilitator(settings.facilitatorKey, settings.rpcUrls);
}
