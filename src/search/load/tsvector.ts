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

const QUOTE = 0x27;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const ZERO = 0x30;
const NINE = 0x39;
/** 'A' … 'D': weight codes 3 … 0. */
const WEIGHT_A = 0x41;

/**
 * Walks tsvector text (`'quot':3A,7 'stock':2A,9C`) without building anything per lexeme but
 * its string: `lexeme` is called with each lexeme (unescaped), then `position` with each of its
 * positions, encoded (position << 2) | weight. A character scan: the catalogue's documents are
 * read this way at every load (millions of lexemes at 100,000 services), where a regular
 * expression and a string split per lexeme cost a third of the load's CPU.
 */
export function scanTsVector(
  text: string,
  lexeme: (value: string) => void,
  position: (encoded: WeightedPosition) => void,
): void {
  let i = 0;
  const length = text.length;
  while (i < length) {
    if (text.charCodeAt(i) !== QUOTE) {
      i += 1;
      continue;
    }
    // A lexeme: up to the closing quote, '' and \x being escapes (rare: sliced when absent).
    let end = i + 1;
    let escaped = false;
    for (;;) {
      const code = text.charCodeAt(end);
      if (Number.isNaN(code)) throw new Error(`unterminated lexeme in ${JSON.stringify(text)}`);
      if (code === BACKSLASH) {
        escaped = true;
        end += 2;
      } else if (code === QUOTE) {
        if (text.charCodeAt(end + 1) !== QUOTE) break;
        escaped = true;
        end += 2;
      } else end += 1;
    }
    lexeme(escaped ? readQuoted(text, i).value : text.slice(i + 1, end));
    i = end + 1;
    if (text.charCodeAt(i) !== COLON) continue;
    i += 1;
    for (;;) {
      let value = 0;
      let code = text.charCodeAt(i);
      while (code >= ZERO && code <= NINE) {
        value = value * 10 + (code - ZERO);
        i += 1;
        code = text.charCodeAt(i);
      }
      let weight = 0;
      if (code >= WEIGHT_A && code <= WEIGHT_A + 3) {
        weight = 3 - (code - WEIGHT_A);
        i += 1;
        code = text.charCodeAt(i);
      }
      position((value << 2) | weight);
      if (code !== COMMA) break;
      i += 1;
    }
  }
}

/** `'quot':3A,7 'stock':2A,9C` → lexemes with weighted positions (none for a stripped vector). */
export function parseTsVector(text: string): LexemePositions[] {
  const lexemes: LexemePositions[] = [];
  scanTsVector(
    text,
    (value) => lexemes.push({ lexeme: value, positions: [] }),
    (encoded) => lexemes[lexemes.length - 1]?.positions.push(encoded),
  );
  return lexemes;
}
