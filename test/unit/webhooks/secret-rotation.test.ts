import { describe, expect, it } from "vitest";
import {
  afterRotation,
  MAX_PREVIOUS_SECRETS,
  ROTATION_GRACE_MS,
  signingSecrets,
} from "../../../src/webhooks/secrets";

const T0 = new Date("2026-11-01T00:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;

describe("secrets rotated out", () => {
  it("when a secret is rotated twice within 24 h, then all three sign until each one's 24 h are over", () => {
    const once = afterRotation("s1", [], T0);
    const twice = afterRotation("s2", once, at(HOUR));
    const endpoint = { secret: "s3", previousSecrets: twice };
    expect(signingSecrets(endpoint, at(2 * HOUR))).toEqual(["s3", "s2", "s1"]);
    expect(signingSecrets(endpoint, at(ROTATION_GRACE_MS - 1))).toEqual(["s3", "s2", "s1"]);
    expect(signingSecrets(endpoint, at(ROTATION_GRACE_MS))).toEqual(["s3", "s2"]);
    expect(signingSecrets(endpoint, at(ROTATION_GRACE_MS + HOUR))).toEqual(["s3"]);
  });

  it("when a rotation happens after an earlier secret's 24 h, then that secret is dropped", () => {
    const once = afterRotation("s1", [], T0);
    expect(afterRotation("s2", once, at(25 * HOUR)).map((entry) => entry.secret)).toEqual(["s2"]);
  });

  it("when rotations pile up within 24 h, then the newest MAX_PREVIOUS_SECRETS sign", () => {
    let previous = afterRotation("s0", [], T0);
    for (let i = 1; i <= MAX_PREVIOUS_SECRETS + 5; i++) previous = afterRotation(`s${i}`, previous, at(i));
    expect(previous).toHaveLength(MAX_PREVIOUS_SECRETS);
    expect(previous[0]?.secret).toBe(`s${MAX_PREVIOUS_SECRETS + 5}`);
  });
});
