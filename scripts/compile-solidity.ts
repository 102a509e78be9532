import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import solc from "solc";

/**
 * The bytecode of each named contract in one Solidity source, compiled once per source text and
 * kept in the temp dir: solc takes seconds, a read milliseconds.
 */
export async function compiledContracts<Name extends string>(
  source: string,
  names: readonly Name[],
): Promise<Record<Name, `0x${string}`>> {
  const hash = createHash("sha256").update(source).update(names.join(",")).digest("hex").slice(0, 16);
  const cached = path.join(tmpdir(), "x402-catalogue-solc", `${hash}.json`);
  try {
    return JSON.parse(await readFile(cached, "utf8")) as Record<Name, `0x${string}`>;
  } catch {
    const input = {
      language: "Solidity",
      sources: { "Contracts.sol": { content: source } },
      settings: { evmVersion: "paris", outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input)));
    const result = {} as Record<Name, `0x${string}`>;
    for (const name of names) {
      const object: string | undefined = output.contracts?.["Contracts.sol"]?.[name]?.evm?.bytecode?.object;
      if (!object) throw new Error(`solc failed for ${name}: ${JSON.stringify(output.errors)}`);
      result[name] = `0x${object}`;
    }
    await mkdir(path.dirname(cached), { recursive: true });
    await writeFile(cached, JSON.stringify(result));
    return result;
  }
}
