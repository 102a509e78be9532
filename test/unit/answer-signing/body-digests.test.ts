import { describe, expect, it } from "vitest";
import { BodyDigests } from "../../../src/answer-signing/body-digests";
import { bodyDigest } from "../../../src/answer-signing/signed-string";

const body = (fill: string, size = 80_000) => Buffer.alloc(size, fill);

describe("remembered body digests", () => {
  it("when a body is asked again under its ETag, then its digest is the SHA-256 of its bytes", () => {
    const digests = new BodyDigests();
    const first = body("a");
    expect(digests.digestOf(first, 'W/"1"')).toBe(bodyDigest(first));
    expect(digests.digestOf(Buffer.from(first), 'W/"1"')).toBe(bodyDigest(first));
  });

  it("when other bytes come under a remembered ETag, then the digest is of the new bytes, and remembered for them", () => {
    const digests = new BodyDigests();
    const before = body("a");
    const after = Buffer.concat([before.subarray(0, -1), Buffer.from("b")]);
    digests.digestOf(before, 'W/"same"');
    expect(digests.digestOf(after, 'W/"same"')).toBe(bodyDigest(after));
    expect(digests.digestOf(after, 'W/"same"')).toBe(bodyDigest(after));
    expect(digests.digestOf(before, 'W/"same"')).toBe(bodyDigest(before));
  });

  it("when the body that was digested is overwritten afterwards (a pooled buffer reused), then the digest remembered is still of what was sent", () => {
    const digests = new BodyDigests();
    const pooled = body("a");
    const sent = bodyDigest(pooled);
    digests.digestOf(pooled, 'W/"pooled"');
    pooled.fill("z");
    expect(digests.digestOf(body("a"), 'W/"pooled"')).toBe(sent);
    expect(digests.digestOf(pooled, 'W/"pooled"')).toBe(bodyDigest(pooled));
  });

  it("when many bodies pass, then the oldest are forgotten and every digest stays right", () => {
    const digests = new BodyDigests();
    const bodies = Array.from({ length: 300 }, (_, k) => body(String.fromCharCode(65 + (k % 50)), 8_000 + k));
    for (const [k, each] of bodies.entries())
      expect(digests.digestOf(each, `W/"${k}"`)).toBe(bodyDigest(each));
    for (const [k, each] of bodies.entries())
      expect(digests.digestOf(each, `W/"${k}"`)).toBe(bodyDigest(each));
  });

  it("when a body has no ETag or is small, then it is digested as it is", () => {
    const digests = new BodyDigests();
    expect(digests.digestOf(body("a"), undefined)).toBe(bodyDigest(body("a")));
    expect(digests.digestOf(Buffer.from("{}"), 'W/"2"')).toBe(bodyDigest(Buffer.from("{}")));
    expect(digests.digestOf(Buffer.from("[]"), 'W/"2"')).toBe(bodyDigest(Buffer.from("[]")));
  });
});
