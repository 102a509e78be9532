// The cost of signing one answer of a data route (the signed string, SHA-256 of the body, the
// Ed25519 signature, the header), per body size, in µs.
// Standalone: `node --import tsx bench/answer-signing.ts [answers per size]`.
import { fileURLToPath } from "node:url";
import { AnswerKeyRing } from "../src/answer-signing/answer-keys";
import { bodyDigest, formatSignatureHeader, signedString } from "../src/answer-signing/signed-string";
import { markdownTable } from "./support";

const SIZES = [1_000, 20_000, 200_000];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runAnswerSigningBenchmark(answers = 20_000): Promise<string> {
  const keys = AnswerKeyRing.ephemeral();
  const rows: (string | number)[][] = [];
  for (const size of SIZES) {
    const body = Buffer.alloc(size, "x");
    const times: number[] = [];
    for (let i = 0; i < answers; i += 1) {
      const started = performance.now();
      const timestamp = Math.floor(Date.now() / 1000);
      const message = signedString({
        method: "GET",
        target: `/v1/services?q=w${i}`,
        status: 200,
        bodyDigest: bodyDigest(body),
        timestamp,
      });
      formatSignatureHeader({ timestamp, kid: keys.currentKeyId, signature: keys.sign(message) });
      times.push((performance.now() - started) * 1000);
    }
    times.sort((a, b) => a - b);
    const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
    rows.push([
      `${(size / 1000).toFixed(0)} kB`,
      answers,
      mean.toFixed(1),
      percentile(times, 50).toFixed(1),
      percentile(times, 99).toFixed(1),
    ]);
  }
  return [
    "## Signing an answer (Ed25519, node:crypto)",
    "",
    markdownTable(["body", "answers", "mean µs", "p50 µs", "p99 µs"], rows),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await runAnswerSigningBenchmark(Number(process.argv[2] ?? 20_000)));
}
