import type { CountSeries, EcosystemSeries } from "../catalogue/ecosystem-series";
import { NETWORKS } from "../payments/networks";
import { Bars, LineChart, type Series } from "./charts";
import { clip, count, percent } from "./format";
import { Layout } from "./layout";
import { type Figures, PRICE_BANDS, type PriceBand, STATS_DAYS } from "./page-data";

interface StatsProps {
  figures: Figures;
  prices: PriceBand[];
  series: EcosystemSeries;
}

/** How many categories get a line of their own; the rest are summed as "other". */
const CHARTED_CATEGORIES = 6;

/** The largest series (by the last day's count) and the rest summed as "other". */
function largest(series: CountSeries[], keep: number, days: number): Series[] {
  const ranked = [...series].sort((a, b) => (b.counts[days - 1] ?? 0) - (a.counts[days - 1] ?? 0));
  const shown: Series[] = ranked.slice(0, keep).map((s) => ({ name: clip(s.name, 40), values: s.counts }));
  const rest = ranked.slice(keep);
  if (rest.length > 0) {
    shown.push({
      name: `other (${rest.length})`,
      values: Array.from({ length: days }, (_, k) => rest.reduce((sum, s) => sum + (s.counts[k] ?? 0), 0)),
    });
  }
  return shown;
}

const networkName = (caip2: string) => NETWORKS.find((n) => n.caip2 === caip2)?.name ?? caip2;

const bandName = (k: number) =>
  k < PRICE_BANDS.length
    ? `up to ${PRICE_BANDS[k]} USDC`
    : k === PRICE_BANDS.length
      ? `more than ${PRICE_BANDS[PRICE_BANDS.length - 1]} USDC`
      : "no USDC price";

/** The ecosystem per day: services by category and network, endpoints, the verified share and prices. */
function OverTime({ series }: { series: EcosystemSeries }) {
  const { days } = series;
  const services = days.map((_, k) => series.categories.reduce((sum, s) => sum + (s.counts[k] ?? 0), 0));
  const counted = (value: number | null) => count(value);
  const chart = (id: string, title: string, yTitle: string, lines: Series[]) => (
    <LineChart
      id={id}
      title={title}
      xTitle="Day (UTC)"
      yTitle={yTitle}
      times={days}
      series={lines}
      format={counted}
    />
  );
  return (
    <div class="charts">
      {chart(
        "chart-categories-daily",
        "Listed services by category",
        "Services",
        largest(
          series.categories.map((s) => ({ ...s, name: s.name || "uncategorised" })),
          CHARTED_CATEGORIES,
          days.length,
        ),
      )}
      {chart(
        "chart-networks-daily",
        "Listed services by network",
        "Services",
        largest(
          series.networks.map((s) => ({ ...s, name: networkName(s.name) })),
          CHARTED_CATEGORIES,
          days.length,
        ),
      )}
      {chart("chart-totals-daily", "Listed services and their endpoints", "Count", [
        { name: "services", values: services },
        { name: "endpoints", values: series.endpoints },
      ])}
      <LineChart
        id="chart-verified-daily"
        title="Verified share: services with a valid challenge that day"
        xTitle="Day (UTC)"
        yTitle="Share of listed services (%)"
        times={days}
        series={[
          {
            name: "verified",
            values: services.map((total, k) =>
              total === 0 ? null : Math.round((10_000 * (series.verified[k] ?? 0)) / total) / 100,
            ),
          },
        ]}
        format={(value) => percent(value)}
      />
      {chart(
        "chart-prices-daily",
        "Verified services by the lowest price their challenges asked that day",
        "Services",
        series.priceBands
          .map((values, k) => ({ name: bandName(k), values }))
          .filter((s) => s.values.some((v) => v > 0)),
      )}
    </div>
  );
}

/** `/stats`: the catalogue today by category, network, live share and price, and each over time. */
export function StatsPage({ figures, prices, series }: StatsProps) {
  const priceRows = prices.map((band, k) => ({
    label: band.upTo === null ? `more than ${prices[k - 1]?.upTo ?? "0"} USDC` : `up to ${band.upTo} USDC`,
    value: band.services,
  }));
  return (
    <Layout title="Stats" path="/stats" links={{ json: "/v1/categories", csv: "/v1/services.csv" }}>
      <h1>The ecosystem in figures</h1>
      <section aria-labelledby="h-today">
        <h2 id="h-today">Today</h2>
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
      </section>
      <section aria-labelledby="h-over-time">
        <h2 id="h-over-time">The last {STATS_DAYS} days</h2>
        <p class="muted">
          A service counts from the day it was first seen until the day it was delisted; networks are those
          its payment options name today. Verified and prices come from that day's probes.
        </p>
        <OverTime series={series} />
      </section>
    </Layout>
  );
}
