import { clip, queryString, safeHref } from "./format";

/**
 * Crawled text: escaped by the renderer, isolated for bidirectional text (a right-to-left
 * override stays inside its element) and clipped to `max` characters with the whole in a title.
 */
export function Untrusted({ text, max }: { text: string | null | undefined; max?: number }) {
  if (text === null || text === undefined || text === "") return <span class="none">–</span>;
  const shown = max === undefined ? text : clip(text, max);
  return <bdi title={shown === text ? undefined : clip(text, 1000)}>{shown}</bdi>;
}

/** A crawled URL: a link only when it is http or https, plain text otherwise. */
export function UntrustedLink({ url, max = 120 }: { url: string | null | undefined; max?: number }) {
  const href = safeHref(url);
  if (href === undefined) return <Untrusted text={url} max={max} />;
  return (
    <a href={href} rel="nofollow noopener noreferrer">
      <Untrusted text={url} max={max} />
    </a>
  );
}

/** Health and grade when the data carries them (trust verdicts), else nothing. */
export function Verdict({ health, grade }: { health?: string | null; grade?: string | null }) {
  if (!health && !grade) return <span class="none">–</span>;
  return (
    <span class="verdict">
      {health ? <span class={`health health-${health.replace(/[^a-z]/g, "")}`}>{health}</span> : null}
      {grade ? <span class="grade">grade {grade}</span> : null}
    </span>
  );
}

interface PagerProps {
  path: string;
  query: Record<string, unknown>;
  offset: number;
  limit: number;
  total: number;
}

/** Previous and next links that keep every filter in the query string. */
export function Pager({ path, query, offset, limit, total }: PagerProps) {
  const last = Math.min(offset + limit, total);
  const previous =
    offset > 0 ? `${path}${queryString(query, { offset: String(Math.max(0, offset - limit)) })}` : null;
  const next =
    offset + limit < total ? `${path}${queryString(query, { offset: String(offset + limit) })}` : null;
  return (
    <nav class="pager" aria-label="Pages">
      <p>
        {total === 0
          ? "Nothing matches."
          : `${(offset + 1).toLocaleString("en-US")}–${last.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}`}
      </p>
      {previous ? (
        <a href={previous} rel="prev">
          ← Previous
        </a>
      ) : null}
      {next ? (
        <a href={next} rel="next">
          Next →
        </a>
      ) : null}
    </nav>
  );
}

/** How the search read q (corrections, partial matches), as the API's `query` says. */
export function Reading({
  reading,
}: {
  reading:
    | { corrected: Array<{ word: string; to: string[] }>; dropped: string[]; partial: boolean }
    | undefined;
}) {
  if (!reading) return null;
  const notes = [
    ...reading.corrected.map((c) => `“${c.word}” read as ${c.to.map((t) => `“${t}”`).join(" or ")}`),
    ...reading.dropped.map((word) => `“${word}” matches nothing and was left out`),
    ...(reading.partial ? ["no entry has every word: the best partial matches come first"] : []),
  ];
  return notes.length === 0 ? null : (
    <p class="reading" role="status">
      {notes.join("; ")}.
    </p>
  );
}
