import { count, percent } from "./format";
import { Layout } from "./layout";
import type { Figures, PriceBand } from "./page-data";
import { Untrusted } from "./widgets";

interface StatsProps {
  figures: Figures;
  prices: PriceBand[];
}

/** A horizontal bar per row, as SVG, beside a table of the same numbers. */
function Bars({
  id,
  title,
  rows,
}: {
  id: string;
  title: string;
  rows: Array<{ label: string; value: number }>;
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
              width={Math.max(1, (row.value / max) * 380)}
              height={16}
            />
            <text x={210 + (row.value / max) * 380} y={k * rowHeight + 15}>
              {count(row.value)}
            </text>
          </g>
        ))}
        <text class="axis-title" x={394} y={height - 6} text-anchor="middle">
          Services
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
                <td>{count(row.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** `/stats`: the catalogue by category and network, its live share and its price distribution. */
export function StatsPage({ figures, prices }: StatsProps) {
  const priceRows = prices.map((band, k) => ({
    label: band.upTo === null ? `more than ${prices[k - 1]?.upTo ?? "0"} USDC` : `up to ${band.upTo} USDC`,
    value: band.services,
  }));
  return (
    <Layout title="Stats" path="/stats" links={{ json: "/v1/categories", csv: "/v1/services.csv" }}>
      <h1>The ecosystem in figures</h1>
      <p>
        {count(figures.services)} listed services with {count(figures.endpoints)} endpoints;{" "}
        {count(figures.verified)} (
        {percent(figures.services === 0 ? null : (100 * figures.verified) / figures.services)}) answered a
        valid x402 challenge within 24 hours.
      </p>
      <div class="charts">
        <Bars
          id="chart-categories"
          title="Services by category"
          rows={figures.categories.map((c) => ({ label: c.category, value: c.service_count }))}
        />
        <Bars
          id="chart-networks"
          title="Services by network"
          rows={figures.networks.map((n) => ({ label: n.name, value: n.services }))}
        />
        <Bars
          id="chart-verified"
          title="Live share"
          rows={[
            { label: "valid challenge in 24 h", value: figures.verified },
            { label: "not verified", value: figures.services - figures.verified },
          ]}
        />
        <Bars id="chart-prices" title="Lowest price per call" rows={priceRows} />
      </div>
    </Layout>
  );
}
