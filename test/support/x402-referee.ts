import { generateKeyPairSigner, getBase58Decoder, type KeyPairSigner } from "@solana/kit";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { UptoEvmScheme } from "@x402/evm/upto/client";
import { wrapFetchWithPayment as wrapV2, x402Client } from "@x402/fetch";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { ExactSvmSchemeV1 } from "@x402/svm/exact/v1/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { wrapFetchWithPayment as wrapV1 } from "x402-fetch";
import { type FixtureAnswer, type FixtureRequest, X402Fixture } from "./x402-fixture";

/**
 * The official x402 clients as referees: each is handed one 402 answer (served from a loopback
 * origin) and either signs a payment and retries with it, or refuses. Nothing is paid: the
 * retried request lands on the same loopback origin, which only records it. Keys are generated
 * per run; the Solana client reads its mint and blockhash from a loopback JSON-RPC stub.
 */
export interface RefereeVerdict {
  signed: boolean;
  /** The client's own words when it refused. */
  error: string | null;
}

const PAYMENT_HEADERS = ["payment-signature", "x-payment"];

/** Answers the two JSON-RPC calls a Solana payment needs: a 6-decimal SPL mint and a blockhash. */
function solanaRpc(request: FixtureRequest): FixtureAnswer {
  const call = JSON.parse(request.body) as { id: unknown; method: string };
  const context = { slot: 1 };
  let result: unknown = null;
  if (call.method === "getAccountInfo") {
    // SPL mint layout: authority option (4) + authority (32) + supply (8) + decimals (1) + initialised (1) + freeze (36).
    const mint = Buffer.alloc(82);
    mint[44] = 6;
    mint[45] = 1;
    result = {
      context,
      value: {
        data: [mint.toString("base64"), "base64"],
        executable: false,
        lamports: 1_461_600,
        owner: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
        rentEpoch: 0,
        space: 82,
      },
    };
  } else if (call.method === "getLatestBlockhash") {
    const blockhash = getBase58Decoder().decode(new Uint8Array(32).fill(7));
    result = { context, value: { blockhash, lastValidBlockHeight: 1000 } };
  }
  return { status: 200, body: JSON.stringify({ jsonrpc: "2.0", id: call.id, result }) };
}

/** Both official client generations, wired to throwaway keys. */
export class Referee {
  /** Serves the challenges under /paid/… and the Solana JSON-RPC stub at /rpc. */
  private readonly origin = new X402Fixture();
  private solana: KeyPairSigner | null = null;
  private readonly evm = privateKeyToAccount(generatePrivateKey());

  async start(): Promise<this> {
    await this.origin.start();
    this.origin.set("/rpc", solanaRpc);
    this.solana = await generateKeyPairSigner();
    return this;
  }

  async stop(): Promise<void> {
    await this.origin.stop();
  }

  /**
   * @x402/fetch with the EVM (exact, upto) and Solana (exact) schemes, v2 and v1. Its spend
   * controls (a $1 cap, default tokens only) are a wallet owner's policy, not what the client
   * can pay, so they are off.
   */
  private currentClient(): x402Client {
    const solana = this.solanaSigner();
    const base = x402Client.fromConfig({ schemes: [], spendControls: false });
    const client = registerExactEvmScheme(base, { signer: this.evm });
    const config = { rpcUrl: this.origin.url("/rpc") };
    client.register("solana:*", new ExactSvmScheme(solana, config));
    client.register("eip155:*", new UptoEvmScheme(this.evm));
    for (const network of ["solana", "solana-devnet"]) {
      client.registerV1(network, new ExactSvmSchemeV1(solana, config));
    }
    return client;
  }

  private solanaSigner(): KeyPairSigner {
    if (this.solana === null) throw new Error("referee not started");
    return this.solana;
  }

  /** Serves `answer` on a fresh path and lets `pay` call it; signed when a retry carried a payment. */
  private async judge(
    answer: FixtureAnswer,
    pay: (url: string) => Promise<unknown>,
  ): Promise<RefereeVerdict> {
    const path = `/paid/${this.origin.answers.size}`;
    this.origin.set(path, answer);
    let error: string | null = null;
    try {
      await pay(this.origin.url(path));
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    }
    const signed = this.origin.requests.some(
      (r) => r.path === path && PAYMENT_HEADERS.some((h) => typeof r.headers[h] === "string"),
    );
    return { signed, error: signed ? null : (error ?? "no payment was sent") };
  }

  /** The current official client (@x402/fetch), which reads v2 headers and v1 bodies. */
  current(answer: FixtureAnswer): Promise<RefereeVerdict> {
    const paying = wrapV2(fetch, this.currentClient());
    return this.judge(answer, (url) => paying(url));
  }

  /** The v1 official client (x402-fetch) with an EVM account; no spending cap of its own. */
  legacyEvm(answer: FixtureAnswer): Promise<RefereeVerdict> {
    const paying = wrapV1(fetch, this.evm, 10n ** 30n);
    return this.judge(answer, (url) => paying(url));
  }
}
