import { Bars } from "./charts";
import { count, percent } from "./format";
import { Layout } from "./layout";
import type { Figures, PriceBand } from "./page-data";

interface StatsProps {
  figures: Figures;
  prices: PriceBand[];
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
