import { type Lexicon, type PackedLexemes, PackedLexicon } from "../text/lexicon";
import type { TextData, TextIndex } from "../text/text-index";
import { joinInSlices, sortInSlices } from "./sorting-in-slices";

/**
 * Packs lexemes given in id order (a Map's keys, as a builder numbers them), sorting and joining
 * them a slice per turn of the event loop (a few hundred ms for 200,000 lexemes).
 */
export async function packLexemes(lexemes: Iterable<string>): Promise<PackedLexemes> {
  const byId = [...lexemes];
  const order = await sortInSlices(Int32Array.from(byId.keys()), (a, b) => {
    const x = byId[a] as string;
    const y = byId[b] as string;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const starts = new Int32Array(order.length + 1);
  let offset = 0;
  order.forEach((id, k) => {
    starts[k] = offset;
    offset += (byId[id] as string).length + 1;
  });
  starts[order.length] = offset;
  const text = await joinInSlices(order.length, (k) => `${byId[order[k] as number]}\0`);
  return { text, starts, ids: order };
}

/** The lexicon as packed parts: a packed one's own, a Map's packed. */
function packedLexemes(lexicon: Lexicon): Promise<PackedLexemes> | PackedLexemes {
  return lexicon instanceof PackedLexicon ? lexicon.parts() : packLexemes(lexicon.keys());
}

/** A text index as plain data, what a worker moves and an image stores: its own arrays, its lexicon packed. */
export async function textData(index: TextIndex): Promise<TextData> {
  const { lexicon, documents } = index.parts();
  return { lexemes: await packedLexemes(lexicon), documents };
}
