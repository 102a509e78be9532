import { readQuoted } from "../load/tsvector";

/**
 * A tsquery as Postgres prints it (`'stock' & 'quot'`, `'weather' <-> 'forecast'`, `!'rain'`,
 * `( 'a' | 'b' ) & 'c'`, `'pre':*`, `'word':AB`), as a tree. Precedence as in Postgres:
 * ! binds tightest, then <N>, then &, then |.
 */
export type TsQuery =
  | {
      kind: "term";
      lexeme: string;
      prefix: boolean /** bit per weight (1 << code); 0 = any */;
      weights: number;
    }
  | { kind: "not"; arg: TsQuery }
  | { kind: "and" | "or"; left: TsQuery; right: TsQuery }
  | { kind: "phrase"; left: TsQuery; right: TsQuery; distance: number };

const WEIGHT_BITS: Readonly<Record<string, number>> = { A: 1 << 3, B: 1 << 2, C: 1 << 1, D: 1 << 0 };

class Parser {
  private i = 0;

  constructor(private readonly text: string) {}

  parse(): TsQuery | null {
    this.skipSpaces();
    if (this.i >= this.text.length) return null; // an empty query: only stop words were typed
    const query = this.parseOr();
    this.skipSpaces();
    if (this.i < this.text.length) this.fail("end of query");
    return query;
  }

  private parseOr(): TsQuery {
    let left = this.parseAnd();
    while (this.accept("|")) left = { kind: "or", left, right: this.parseAnd() };
    return left;
  }

  private parseAnd(): TsQuery {
    let left = this.parsePhrase();
    while (this.accept("&")) left = { kind: "and", left, right: this.parsePhrase() };
    return left;
  }

  private parsePhrase(): TsQuery {
    let left = this.parseNot();
    for (;;) {
      this.skipSpaces();
      const match = /^<(-|\d+)>/.exec(this.text.slice(this.i, this.i + 8));
      if (!match?.[1]) return left;
      this.i += match[0].length;
      const distance = match[1] === "-" ? 1 : Number(match[1]);
      left = { kind: "phrase", left, right: this.parseNot(), distance };
    }
  }

  private parseNot(): TsQuery {
    if (this.accept("!")) return { kind: "not", arg: this.parseNot() };
    if (this.accept("(")) {
      const inner = this.parseOr();
      if (!this.accept(")")) this.fail("')'");
      return inner;
    }
    return this.parseTerm();
  }

  private parseTerm(): TsQuery {
    this.skipSpaces();
    if (this.text[this.i] !== "'") this.fail("a quoted lexeme");
    const { value, end } = readQuoted(this.text, this.i);
    this.i = end;
    let prefix = false;
    let weights = 0;
    if (this.text[this.i] === ":") {
      this.i += 1;
      for (
        let char = this.text[this.i];
        char !== undefined && /[*A-D]/.test(char);
        char = this.text[this.i]
      ) {
        if (char === "*") prefix = true;
        else weights |= WEIGHT_BITS[char] ?? 0;
        this.i += 1;
      }
    }
    return { kind: "term", lexeme: value, prefix, weights };
  }

  private accept(token: string): boolean {
    this.skipSpaces();
    if (this.text[this.i] !== token) return false;
    this.i += 1;
    return true;
  }

  private skipSpaces(): void {
    while (this.text[this.i] === " ") this.i += 1;
  }

  private fail(expected: string): never {
    throw new Error(`tsquery ${JSON.stringify(this.text)}: expected ${expected} at ${this.i}`);
  }
}

/** Null for the empty query, which matches nothing (as `@@` answers for it). */
export function parseTsQuery(text: string): TsQuery | null {
  return new Parser(text).parse();
}

/** Every term of the query, each lexeme once, negated ones included (ts_rank counts them too). */
export function queryTerms(query: TsQuery): Array<Extract<TsQuery, { kind: "term" }>> {
  const terms = new Map<string, Extract<TsQuery, { kind: "term" }>>();
  const visit = (node: TsQuery): void => {
    if (node.kind === "term") terms.set(`${node.lexeme}\u0000${node.prefix}`, node);
    else if (node.kind === "not") visit(node.arg);
    else {
      visit(node.left);
      visit(node.right);
    }
  };
  visit(query);
  return [...terms.values()];
}
