import type { ObservedTotals } from "../catalogue/ecosystem-series";
import { count, percent, usdc } from "./format";
import { Layout } from "./layout";
import type { Figures, ServiceItem } from "./page-data";
import { Untrusted } from "./widgets";

interface HomeProps {
  figures: Figures;
  /** The chain's payments to listed services; null when no chain is read for any. */
  observed: ObservedTotals | null;
  newest: ServiceItem[];
  busiest: ServiceItem[];
}

function ServiceLinks({ services, label }: { services: ServiceItem[]; label: string }) {
  return (
    <section aria-labelledby={`h-${label}`}>
      <h2 id={`h-${label}`}>{label === "newest" ? "Newest services" : "Most used services"}</h2>
      <ol class="plain">
        {services.map((service) => (
          <li key={service.id}>
            <a href={`/services/${service.id}`}>
              <Untrusted text={service.name} max={80} />
            </a>{" "}
            <span class="muted">
              <Untrusted text={service.domain} max={60} />
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** `/`: search, the ecosystem's figures, categories, newest and busiest services. */
export function HomePage({ figures, observed, newest, busiest }: HomeProps) {
  const liveShare = figures.services === 0 ? null : (100 * figures.verified) / figures.services;
  return (
    <Layout title="Overview" path="/" links={{ json: "/v1/categories", csv: "/v1/services.csv" }}>
      <h1>The x402 catalogue</h1>
      <search>
        <form class="search" action="/services" method="get">
          <label for="q">Search pay-per-call APIs</label>
          <input id="q" name="q" type="search" maxLength={200} placeholder="e.g. weather, stock quotes" />
          <button type="submit">Search</button>
        </form>
      </search>
      <section aria-labelledby="h-figures">
        <h2 id="h-figures">The ecosystem today</h2>
        <dl class="figures">
          <div>
            <dt>Services</dt>
            <dd>{count(figures.services)}</dd>
          </div>
          <div>
            <dt>Endpoints</dt>
            <dd>{count(figures.endpoints)}</dd>
          </div>
          <div>
            <dt>Live (valid challenge in 24 h)</dt>
            <dd>{percent(liveShare)}</dd>
          </div>
          <div>
            <dt>Networks in use</dt>
            <dd>{count(figures.networks.length)}</dd>
          </div>
          {observed ? (
            <div>
              <dt>
                Observed volume, 30 days ({count(observed.services)}{" "}
                {observed.services === 1 ? "service" : "services"} read on chain)
              </dt>
              <dd>{usdc(observed.volumeUsdc30d)}</dd>
            </div>
          ) : null}
        </dl>
      </section>
      <div class="columns">
        <section aria-labelledby="h-categories">
          <h2 id="h-categories">Categories</h2>
          <ul class="plain">
            {figures.categories.map((c) => (
              <li key={c.category}>
                <a href={`/services?category=${encodeURIComponent(c.category)}`}>
                  <Untrusted text={c.category} max={60} />
                </a>{" "}
                <span class="muted">{count(c.service_count)}</span>
              </li>
            ))}
          </ul>
        </section>
        <ServiceLinks services={newest} label="newest" />
        <ServiceLinks services={busiest} label="busiest" />
      </div>
    </Layout>
  );
}
