import type { AddressInfo } from "node:net";
import type { FacilitatorClient, RouteConfig } from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { UptoEvmScheme } from "@x402/evm/upto/server";
import { paymentMiddleware, x402ResourceServer } from "@x402/express";
import { ExactSvmScheme } from "@x402/svm/exact/server";
import express, { type RequestHandler } from "express";
import { paymentMiddleware as legacyPaymentMiddleware } from "x402-express";
import type { FixtureAnswer } from "./x402-fixture";

/**
 * 402 answers exactly as the official server libraries emit them: an Express app with the
 * middleware runs on loopback for one unpaid request per route. The v2 middleware reads the
 * payment kinds a facilitator supports before it prices a route, so it gets an in-process
 * facilitator that answers only that question (and never verifies or settles).
 */
export const SELLER_EVM = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
export const SELLER_SOLANA = "CKPKJWNdJEqa81x7CkZ14BVPiY6y16Sxs7owznqtWYp5";
export const FEE_PAYER = "2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4";
export const UPTO_FACILITATOR = "0x1111111111111111111111111111111111111111";

const SOLANA_DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";

function facilitatorStub(solanaFeePayer: string | null): FacilitatorClient {
  const refuse = (): never => {
    throw new Error("the challenge fixture never verifies or settles");
  };
  return {
    verify: async () => refuse(),
    settle: async () => refuse(),
    getSupported: async () => ({
      kinds: [
        { x402Version: 2, scheme: "exact", network: "eip155:84532" },
        {
          x402Version: 2,
          scheme: "upto",
          network: "eip155:84532",
          extra: { facilitatorAddress: UPTO_FACILITATOR },
        },
        {
          x402Version: 2,
          scheme: "exact",
          network: SOLANA_DEVNET,
          ...(solanaFeePayer === null ? {} : { extra: { feePayer: solanaFeePayer } }),
        },
      ],
      extensions: [],
      signers: {},
    }),
  };
}

async function answersOf(middleware: RequestHandler, paths: string[]): Promise<FixtureAnswer[]> {
  const app = express();
  app.use(middleware);
  app.use((_req, res) => {
    res.json({ ok: true });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const answers: FixtureAnswer[] = [];
    for (const path of paths) {
      const response = await fetch(`${origin}${path}`, { headers: { accept: "application/json" } });
      const headers: Record<string, string> = {};
      const required = response.headers.get("payment-required");
      if (required !== null) headers["payment-required"] = required;
      answers.push({ status: response.status, headers, body: await response.text() });
    }
    return answers;
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The official v2 resource server (@x402/core), with the EVM and Solana schemes, on the facilitator stub. */
export function officialResourceServer(solanaFeePayer: string | null = FEE_PAYER): x402ResourceServer {
  return new x402ResourceServer(facilitatorStub(solanaFeePayer))
    .register("eip155:84532", new ExactEvmScheme())
    .register("eip155:84532", new UptoEvmScheme())
    .register(SOLANA_DEVNET, new ExactSvmScheme());
}

/** v2 (@x402/express) answers, one per route, in the order given. */
export async function officialV2Answers(
  routes: Record<string, RouteConfig>,
  options: { solanaFeePayer?: string | null } = {},
): Promise<FixtureAnswer[]> {
  const server = officialResourceServer(options.solanaFeePayer ?? FEE_PAYER);
  const paths = Object.keys(routes).map((key) => key.split(" ")[1] ?? key);
  return answersOf(paymentMiddleware(routes, server), paths);
}

/** v1 (x402-express) answers for EVM routes; the legacy middleware prices them without a facilitator. */
export async function officialV1Answers(routes: Parameters<typeof legacyPaymentMiddleware>[1] & object) {
  const middleware = legacyPaymentMiddleware(SELLER_EVM, routes) as unknown as RequestHandler;
  return answersOf(middleware, Object.keys(routes));
}
