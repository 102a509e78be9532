/**
 * Postgres tsvector and tsquery text, read back into JavaScript so that the text index
 * (text-index.ts) matches and ranks exactly the lexemes Postgres produced: stemming, unaccent and
 * stop words stay Postgres's job (the `catalogue_search` configuration), done once per document
 * when it is written and once per distinct query text.
 */

/** A position with its weight: (position << 2) | weight, weight 3 = A, 2 = B, 1 = C, 0 = D. */
export type WeightedPosition = number;

export interface LexemePositions {
  lexeme: string;
  positions: WeightedPosition[];
}

const WEIGHT_CODES: Readonly<Record<string, number>> = { A: 3, B: 2, C: 1, D: 0 };

/** Reads a quoted lexeme at `start` (the opening quote): '' is a quote, \x is x. */
export function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (char === "\\" && i + 1 < text.length) {
      value += text[i + 1];
      i += 2;
    } else if (char === "'") {
      if (text[i + 1] === "'") {
        value += "'";
        i += 2;
      } else {
        return { value, end: i + 1 };
      }
    } else {
      value += char;
      i += 1;
    }
  }
  throw new Error(`unterminated lexeme in ${JSON.stringify(text)}`);
}

/** A lexeme in quotes ('' and \x are escapes), then its positions if any: 'quot':3A,7 */
const LEXEME = /'((?:[^'\\]|''|\\.)*)'(?::([0-9A-D,]+))?/g;

function unescapeLexeme(text: string): string {
  return text.includes("'") || text.includes("\\")
    ? text.replace(/''|\\(.)/g, (_match, c?: string) => c ?? "'")
    : text;
}

/** `'quot':3A,7 'stock':2A,9C` → lexemes with weighted positions (none for a stripped vector). */
export function parseTsVector(text: string): LexemePositions[] {
  const lexemes: LexemePositions[] = [];
  for (const match of text.matchAll(LEXEME)) {
    const positions: WeightedPosition[] = [];
    for (const item of match[2]?.split(",") ?? []) {
      const weight = WEIGHT_CODES[item.charAt(item.length - 1)];
      const position = Number.parseInt(weight === undefined ? item : item.slice(0, -1), 10);
      positions.push((position << 2) | (weight ?? 0));
    }
    lexemes.push({ lexeme: unescapeLexeme(match[1] ?? ""), positions });
  }
  return lexemes;
}
