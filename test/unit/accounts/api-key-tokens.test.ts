import { describe, expect, it } from "vitest";
import {
  bearerCredential,
  generateKeyToken,
  hashKeyToken,
  isWellFormedKey,
  sameKeyHash,
} from "../../../src/accounts/api-key-tokens";

const WELL_FORMED = `xcat_test_${"A".repeat(40)}b-_`;

describe("API key tokens", () => {
  it("when a key is generated, then it carries its environment, 256 random bits and its hash", () => {
    const live = generateKeyToken("live");
    const again = generateKeyToken("live");
    expect(live.token).toMatch(/^xcat_live_[A-Za-z0-9_-]{43}$/);
    expect(live.token).not.toBe(again.token);
    expect(live.prefix).toBe("xcat_live_");
    expect(live.lastFour).toBe(live.token.slice(-4));
    expect(sameKeyHash(live.hash, hashKeyToken(live.token))).toBe(true);
    expect(sameKeyHash(live.hash, again.hash)).toBe(false);
    expect(generateKeyToken("test").token.startsWith("xcat_test_")).toBe(true);
  });

  it.each([
    ["", false],
    ["xcat_live_", false],
    [`xcat_live_${"a".repeat(42)}`, false],
    [`xcat_live_${"a".repeat(44)}`, false],
    [`xcat_prod_${"a".repeat(43)}`, false],
    [`XCAT_live_${"a".repeat(43)}`, false],
    [`xcat_live_${"a".repeat(42)}=`, false],
    [`xcat_live_${"a".repeat(42)}+`, false],
    [WELL_FORMED, true],
  ])("when the text is %j, then well-formed is %s", (text, expected) => {
    expect(isWellFormedKey(text)).toBe(expected);
  });

  it.each([
    [undefined, { kind: "none" }],
    [`Bearer ${WELL_FORMED}`, { kind: "key", token: WELL_FORMED }],
    [`bearer ${WELL_FORMED}`, { kind: "key", token: WELL_FORMED }],
    [`BEARER   ${WELL_FORMED} `, { kind: "key", token: WELL_FORMED }],
    ["", { kind: "malformed" }],
    ["Bearer", { kind: "malformed" }],
    ["Bearer ", { kind: "malformed" }],
    [`Basic ${WELL_FORMED}`, { kind: "malformed" }],
    [`Token ${WELL_FORMED}`, { kind: "malformed" }],
    [`Bearer ${WELL_FORMED} extra`, { kind: "malformed" }],
    [`Bearer ${WELL_FORMED},Bearer ${WELL_FORMED}`, { kind: "malformed" }],
    [WELL_FORMED, { kind: "malformed" }],
    ["Bearer sk_live_51H8", { kind: "malformed" }],
  ])("when Authorization is %j, then the credential is %j", (header, expected) => {
    expect(bearerCredential(header)).toEqual(expected);
  });
});
