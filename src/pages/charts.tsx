import { line } from "d3-shape";
import { count } from "./format";
import { Untrusted } from "./widgets";

/** Server-rendered SVG line charts with titled axes and a table equivalent for screen readers. */

export interface Series {
  name: string;
  /** One value per time, null where unknown (the line breaks there). */
  values: ReadonlyArray<number | null>;
}

interface LineChartProps {
  id: string;
  title: string;
  xTitle: string;
  yTitle: string;
  /** ISO timestamps, oldest first. */
  times: readonly string[];
  series: readonly Series[];
  /** How a value reads in the table (exact text where the data has it). */
  format: (value: number | null, series: number, row: number) => string;
}

const WIDTH = 640;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 16, bottom: 44, left: 64 };

/** The rounded top of the y axis: 1, 2 or 5 times a power of ten at or above the largest value. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((m) => m * power >= max) ?? 10;
  return step * power;
}

function short(value: number): string {
  return Math.abs(value) >= 1000
    ? `${Number((value / 1000).toPrecision(3))}k`
    : `${Number(value.toPrecision(3))}`;
}

export function LineChart({ id, title, xTitle, yTitle, times, series, format }: LineChartProps) {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const stamps = times.map((t) => Date.parse(t));
  const first = stamps[0] ?? 0;
  const last = stamps[stamps.length - 1] ?? first;
  const span = last - first || 1;
  const top = niceMax(Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null))));
  const x = (k: number) =>
    MARGIN.left + (stamps.length === 1 ? plotWidth / 2 : (((stamps[k] ?? first) - first) / span) * plotWidth);
  const y = (v: number) => MARGIN.top + plotHeight - (v / top) * plotHeight;
  const path = line<number | null>()
    .defined((v) => v !== null)
    .x((_, k) => x(k))
    .y((v) => y(v ?? 0));
  const ticks = [0, top / 2, top];
  return (
    <figure class="chart" id={id}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title`}
        data-points={times.length}
      >
        <title id={`${id}-title`}>{`${title}: ${times.length} points; the table below has the values`}</title>
        {ticks.map((tick) => (
          <g key={tick} class="tick">
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(tick)} y2={y(tick)} />
            <text x={MARGIN.left - 6} y={y(tick) + 4} text-anchor="end">
              {short(tick)}
            </text>
          </g>
        ))}
        <text class="axis-title" x={MARGIN.left + plotWidth / 2} y={HEIGHT - 6} text-anchor="middle">
          {xTitle}
        </text>
        <text
          class="axis-title"
          transform={`translate(14 ${MARGIN.top + plotHeight / 2}) rotate(-90)`}
          text-anchor="middle"
        >
          {yTitle}
        </text>
        <text x={MARGIN.left} y={HEIGHT - 24} text-anchor="start">
          {times[0]?.slice(0, 10) ?? ""}
        </text>
        <text x={WIDTH - MARGIN.right} y={HEIGHT - 24} text-anchor="end">
          {times[times.length - 1]?.slice(0, 10) ?? ""}
        </text>
        {series.every((s) => s.values.every((v) => v === null)) ? (
          <text x={MARGIN.left + plotWidth / 2} y={MARGIN.top + plotHeight / 2} text-anchor="middle">
            No values recorded
          </text>
        ) : null}
        {series.map((s, k) => (
          <g key={s.name} class={`series series-${k}`}>
            <path d={path(s.values) ?? ""} />
            {s.values.map((v, i) =>
              v === null ? null : <circle key={times[i]} class="point" cx={x(i)} cy={y(v)} r={3} />,
            )}
          </g>
        ))}
      </svg>
      <figcaption>
        {title}
        {series.length > 1 ? (
          <span class="legend">
            {series.map((s, k) => (
              <span key={s.name} class={`key key-${k}`}>
                {s.name}
              </span>
            ))}
          </span>
        ) : null}
      </figcaption>
      <details>
        <summary>{`${title} as a table`}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{xTitle}</th>
              {series.map((s) => (
                <th key={s.name} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {times.map((time, row) => (
              <tr key={time}>
                <th scope="row">{time.slice(0, 16).replace("T", " ")}</th>
                {series.map((s, k) => (
                  <td key={s.name}>{format(s.values[row] ?? null, k, row)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** A horizontal bar per row, as SVG, beside a table of the same numbers. */
export function Bars({
  id,
  title,
  rows,
  axis = "Services",
  format = count,
}: {
  id: string;
  title: string;
  rows: Array<{ label: string; value: number }>;
  /** The value axis's title. */
  axis?: string;
  format?: (value: number) => string;
}) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const rowHeight = 22;
  const height = rows.length * rowHeight + 30;
  return (
    <figure class="chart" id={id}>
      <svg viewBox={`0 0 640 ${height}`} role="img" aria-labelledby={`${id}-title`} data-points={rows.length}>
        <title id={`${id}-title`}>{`${title}; the table below has the values`}</title>
        {rows.map((row, k) => (
          <g key={row.label} class="bar">
            <text x={196} y={k * rowHeight + 15} text-anchor="end">
              {row.label.length > 30 ? `${row.label.slice(0, 29)}…` : row.label}
            </text>
            <rect
              class="point"
              x={204}
              y={k * rowHeight + 3}
              width={Math.max(1, (row.value / max) * 340)}
              height={16}
            />
            <text x={210 + (row.value / max) * 340} y={k * rowHeight + 15}>
              {format(row.value)}
            </text>
          </g>
        ))}
        <text class="axis-title" x={394} y={height - 6} text-anchor="middle">
          {axis}
        </text>
      </svg>
      <figcaption>{title}</figcaption>
      <details>
        <summary>{`${title} as a table`}</summary>
        <table>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">
                  <Untrusted text={row.label} max={100} />
                </th>
                <td>{format(row.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
