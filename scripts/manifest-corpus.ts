/**
 * How many manifests of the real corpus (test/fixtures/manifests/real) a manifest parser reads
 * correctly: every expected resource listed, none more, and the unreadable ones refused.
 * Usage: npx tsx scripts/manifest-corpus.ts [path to a parse-manifest.ts; default this checkout's]
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

interface Expected {
  servedAt: string;
  unreadable?: string;
  listed?: string[];
}
type Parse = (json: unknown, url: URL) => string | { resources: { method: string; resourceUrl: string }[] };

const corpusDir = join(import.meta.dirname, "../test/fixtures/manifests/real");
const parserPath = resolve(
  process.argv[2] ?? join(import.meta.dirname, "../src/sources/origin-manifest/parse-manifest.ts"),
);

async function main(): Promise<void> {
  const { parseManifest } = (await import(pathToFileURL(parserPath).href)) as { parseManifest: Parse };
  const corpus = JSON.parse(readFileSync(join(corpusDir, "expected.json"), "utf8")) as Record<
    string,
    Expected
  >;
  const wrong: string[] = [];
  for (const [slug, expected] of Object.entries(corpus)) {
    const json: unknown = JSON.parse(readFileSync(join(corpusDir, `${slug}.json`), "utf8"));
    const reading = parseManifest(json, new URL(expected.servedAt));
    const listed =
      typeof reading === "string" ? null : reading.resources.map((r) => `${r.method} ${r.resourceUrl}`);
    const right =
      expected.unreadable !== undefined
        ? listed === null
        : JSON.stringify(listed) === JSON.stringify(expected.listed);
    if (!right) wrong.push(slug);
  }
  const total = Object.keys(corpus).length;
  console.log(`${parserPath}: ${total - wrong.length}/${total} manifests read correctly`);
  if (wrong.length > 0) console.log(`not: ${wrong.join(", ")}`);
}

void main();
