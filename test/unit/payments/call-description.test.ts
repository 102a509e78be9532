import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import {
  chooseCall,
  MAX_CALL_DESCRIPTION_BYTES,
  readCallDescription,
} from "../../../src/payments/call-description";
import { parsePaymentChallenge } from "../../../src/payments/challenge";
import { v1Entry, v2Entry } from "./fixtures";

/** The bazaar extension as @x402/extensions' declareDiscoveryExtension builds it for a GET route. */
const BAZAAR = {
  bazaar: {
    info: {
      input: { type: "http", method: "GET", queryParams: { city: "Paris" } },
      output: { type: "json", example: { tempC: 21 } },
    },
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { input: { type: "object", properties: { queryParams: { type: "object" } } } },
      required: ["input"],
    },
    routeTemplate: "/weather/:city",
  },
};

describe("readCallDescription", () => {
  it("when a v2 item carries the bazaar extension, then input, output, schema and route template are kept", () => {
    const warnings: string[] = [];
    expect(readCallDescription({ extensions: BAZAAR }, warnings)).toEqual({
      format: "bazaar_extension",
      input: BAZAAR.bazaar.info.input,
      output: BAZAAR.bazaar.info.output,
      input_schema: BAZAAR.bazaar.schema,
      route_template: "/weather/:city",
    });
    expect(warnings).toEqual([]);
  });

  it("when a v1 entry has an outputSchema, then its input and output are kept, output null when null", () => {
    expect(readCallDescription({ accepts: [v1Entry()] }, [])).toEqual({
      format: "v1_output_schema",
      input: { type: "http", method: "GET", queryParams: { city: "string" } },
      output: null,
      input_schema: null,
      route_template: null,
    });
  });

  it("when only a later accepts entry describes the call, then that one is read", () => {
    const accepts = [v2Entry(), v1Entry({ outputSchema: { output: { type: "json" } } })];
    expect(readCallDescription({ accepts }, [])).toMatchObject({ output: { type: "json" }, input: null });
  });

  it("when the extension and outputSchema both exist, then the extension wins", () => {
    expect(readCallDescription({ extensions: BAZAAR, accepts: [v1Entry()] }, [])?.format).toBe(
      "bazaar_extension",
    );
  });

  it("when only a feed's metadata has input, then it is read as metadata", () => {
    const metadata = { input: { type: "http", method: "POST", bodyType: "json" }, category: "ai" };
    expect(readCallDescription({ metadata }, [])).toMatchObject({
      format: "metadata",
      input: metadata.input,
    });
  });

  it.each([
    ["nothing is published", {}],
    ["the extension is an empty object", { extensions: { bazaar: {} } }],
    ["the extension is not an object", { extensions: { bazaar: "GET /weather" } }],
    ["outputSchema is a string", { accepts: [v1Entry({ outputSchema: "see docs" })] }],
    ["accepts is not an array", { accepts: { outputSchema: { input: {} } } }],
    ["input is an array", { metadata: { input: ["city"] } }],
  ])("when %s, then it stays null", (_name, sources) => {
    expect(readCallDescription(sources, [])).toBeNull();
  });

  it("when the description is huge, then it is dropped with a warning rather than stored", () => {
    const warnings: string[] = [];
    const example = "x".repeat(MAX_CALL_DESCRIPTION_BYTES);
    const extensions = { bazaar: { info: { input: { type: "http" }, output: { example } } } };
    expect(readCallDescription({ extensions }, warnings)).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/call description \(bazaar_extension\) is \d+ bytes/)]);
  });
});

describe("call descriptions in live challenges", () => {
  it("when a v2 PAYMENT-REQUIRED header carries the extension (empty body), then the challenge has it", () => {
    const payload = {
      x402Version: 2,
      resource: { url: "https://w.example/weather/paris" },
      accepts: [v2Entry()],
    };
    const header = encodePaymentRequiredHeader({
      ...payload,
      extensions: BAZAAR,
    } as unknown as PaymentRequired);
    const challenge = parsePaymentChallenge({
      status: 402,
      headers: { "payment-required": header },
      bodyText: "",
    });
    expect(challenge.call?.route_template).toBe("/weather/:city");
  });

  it("when a v1 body's entry has outputSchema, then the challenge has it", () => {
    const bodyText = JSON.stringify({ x402Version: 1, accepts: [v1Entry()] });
    expect(parsePaymentChallenge({ status: 402, headers: {}, bodyText }).call?.format).toBe(
      "v1_output_schema",
    );
  });
});

describe("chooseCall", () => {
  const listed = readCallDescription({ accepts: [v1Entry()] }, []);
  const live = readCallDescription({ extensions: BAZAAR }, []);

  it("when the live challenge describes the call, then it wins over the listing", () => {
    expect(chooseCall(listed, live)).toMatchObject({ source: "live_challenge", format: "bazaar_extension" });
  });

  it("when only the listing does, then the listing's is shown; with neither, null", () => {
    expect(chooseCall(listed, null)).toMatchObject({ source: "listing", format: "v1_output_schema" });
    expect(chooseCall(null, null)).toBeNull();
  });
});
