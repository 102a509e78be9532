import type { TsQuery } from "../query/tsquery";
import type { Lexicon } from "./lexicon";
import { type Documents, EMPTY, type Postings, termIndex, union } from "./text-postings";

/**
 * `document @@ query` for any tsquery tree, one document at a time: the general path of a search
 * (OR, NOT, phrases), and the candidates it walks.
 */

export type Term = Extract<TsQuery, { kind: "term" }>;

/** Each query term's lexeme id, -1 for a lexeme no document has. */
export type LexemeIds = Map<Term, number>;

/** A positions list, or ANY inside a phrase where a negation leaves positions unknown. */
type Positions = number[] | "any";

/**
 * The lexeme id of every term. Neither websearch_to_tsquery nor the typo fallback's to_tsquery of
 * plain words writes a prefix (`:*`) or a weight restriction (`:AB`), so the index has no path for
 * them: such a query is a programming error, not an empty answer.
 */
export function resolveTerms(query: TsQuery, lexicon: Lexicon): LexemeIds {
  const resolved: LexemeIds = new Map();
  const visit = (node: TsQuery): void => {
    if (node.kind === "term") {
      if (node.prefix || node.weights !== 0) {
        throw new Error(`the text index reads no prefix or weight restriction (${node.lexeme})`);
      }
      resolved.set(node, lexicon.get(node.lexeme) ?? -1);
    } else if (node.kind === "not") visit(node.arg);
    else {
      visit(node.left);
      visit(node.right);
    }
  };
  visit(query);
  return resolved;
}

/** A superset of the matching documents, ascending; null when any document may match (NOT). */
export function candidates(node: TsQuery, postings: Postings, ids: LexemeIds): Int32Array | null {
  switch (node.kind) {
    case "term": {
      const id = ids.get(node) ?? -1;
      return id < 0 ? EMPTY : postings.posting(id).docs;
    }
    case "not":
      return null;
    case "or": {
      const left = candidates(node.left, postings, ids);
      const right = candidates(node.right, postings, ids);
      return left === null || right === null ? null : union(left, right);
    }
    default: {
      // and, phrase: both sides must match, so either side's candidates will do: the fewer.
      const left = candidates(node.left, postings, ids);
      const right = candidates(node.right, postings, ids);
      if (left === null) return right;
      if (right === null) return left;
      return left.length <= right.length ? left : right;
    }
  }
}

/** The term's slot in the document, or -1 when the document lacks it. */
function termSlot(documents: Documents, doc: number, term: Term, ids: LexemeIds): number {
  const id = ids.get(term) ?? -1;
  return id < 0 ? -1 : termIndex(documents, doc, id);
}

/** Whether the document matches the query. */
export function matches(documents: Documents, node: TsQuery, doc: number, ids: LexemeIds): boolean {
  switch (node.kind) {
    case "term":
      return termSlot(documents, doc, node, ids) >= 0;
    case "not":
      return !matches(documents, node.arg, doc, ids);
    case "and":
      return matches(documents, node.left, doc, ids) && matches(documents, node.right, doc, ids);
    case "or":
      return matches(documents, node.left, doc, ids) || matches(documents, node.right, doc, ids);
    case "phrase": {
      const positions = phrasePositions(documents, node, doc, ids);
      return positions === "any" || positions.length > 0;
    }
  }
}

/** Positions (without weights) where the node's match ends, for phrase matching. */
function phrasePositions(documents: Documents, node: TsQuery, doc: number, ids: LexemeIds): Positions {
  switch (node.kind) {
    case "term": {
      const k = termSlot(documents, doc, node, ids);
      if (k < 0) return [];
      const { termStarts, termEnds, positions } = documents;
      const found: number[] = [];
      for (let p = termStarts[k] ?? 0; p < (termEnds[k] ?? 0); p += 1) found.push((positions[p] ?? 0) >> 2);
      return found;
    }
    case "not":
      // Where a negated word is absent anyway the phrase is free of it; otherwise, no match.
      return matches(documents, node.arg, doc, ids) ? [] : "any";
    case "phrase": {
      const left = phrasePositions(documents, node.left, doc, ids);
      const right = phrasePositions(documents, node.right, doc, ids);
      if (right === "any") return left === "any" ? "any" : left.map((p) => p + node.distance);
      if (left === "any") return right;
      const starts = new Set(left);
      return right.filter((p) => starts.has(p - node.distance));
    }
    default: {
      const left = phrasePositions(documents, node.left, doc, ids);
      const right = phrasePositions(documents, node.right, doc, ids);
      if (left === "any" || right === "any") return left === "any" ? right : left;
      if (node.kind === "and" && (left.length === 0 || right.length === 0)) return [];
      return [...new Set([...left, ...right])].sort((a, b) => a - b);
    }
  }
}

/** Words joined by AND only: matching is then the intersection of postings (TextIndex's fast path). */
export function isPlainConjunction(query: TsQuery): boolean {
  switch (query.kind) {
    case "term":
      return true;
    case "and":
      return isPlainConjunction(query.left) && isPlainConjunction(query.right);
    default:
      return false;
  }
}
