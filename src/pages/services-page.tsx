import { SERVICE_SORTS } from "../catalogue/service-queries";
import { NETWORKS } from "../payments/networks";
import type { QueryReading } from "../search/catalogue-search";
import { ANY, Input, Select, text, YES_NO } from "./form-fields";
import { count, percent, queryString, usdc } from "./format";
import { Layout } from "./layout";
import type { ListPage, ServiceItem, ServiceQuery } from "./page-data";
import { Pager, Reading, Untrusted, Verdict } from "./widgets";

interface ServicesProps {
  page: ListPage<ServiceItem>;
  query: ServiceQuery;
  /** The query as given (strings), for the form's values and the links. */
  raw: Record<string, unknown>;
  categories: string[];
  networks: Array<{ name: string; caip2: string }>;
}

/** The API's filters and sorts as a form whose fields are the API's query parameters. */
function FilterForm({ raw, categories, networks }: Omit<ServicesProps, "page" | "query">) {
  return (
    <form class="filters" action="/services" method="get" aria-label="Filter services">
      <div class="field wide">
        <label for="f-q">Search</label>
        <input id="f-q" name="q" type="search" maxLength={200} value={text(raw, "q")} />
      </div>
      <Select
        name="category"
        label="Category"
        raw={raw}
        options={[ANY, ...categories.map((c) => [c, c] as const)]}
      />
      <Select
        name="network"
        label="Network"
        raw={raw}
        options={[ANY, ...networks.map((n) => [n.caip2, n.name] as const)]}
      />
      <Select
        name="method"
        label="Method"
        raw={raw}
        options={[ANY, ...["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => [m, m] as const)]}
      />
      <Select name="verified" label="Live (valid challenge in 24 h)" raw={raw} options={YES_NO} />
      <Select name="drift" label="Drift" raw={raw} options={YES_NO} />
      <Input name="min_uptime" label="Lowest uptime (%)" raw={raw} type="number" />
      <Input name="max_price" label="Highest price (USDC per call)" raw={raw} />
      <div class="field check">
        <input
          id="f-include_unpriced"
          name="include_unpriced"
          type="checkbox"
          value="true"
          checked={text(raw, "include_unpriced") === "true"}
        />
        <label for="f-include_unpriced">Keep services with no known price</label>
      </div>
      <Select
        name="status"
        label="Status"
        raw={raw}
        options={[
          ["", "listed"],
          ["delisted", "delisted"],
          ["all", "all"],
        ]}
      />
      <Select
        name="sort"
        label="Sort by"
        raw={raw}
        options={[["", "default"], ...SERVICE_SORTS.map((s) => [s, s.replace("_", " ")] as const)]}
      />
      <Select
        name="order"
        label="Order"
        raw={raw}
        options={[
          ["", "default"],
          ["asc", "ascending"],
          ["desc", "descending"],
        ]}
      />
      <Select
        name="limit"
        label="Per page"
        raw={raw}
        options={[
          ["", "50"],
          ["25", "25"],
          ["100", "100"],
          ["200", "200"],
        ]}
      />
      <div class="actions">
        <button type="submit">Apply</button> <a href="/services">Clear</a>
      </div>
    </form>
  );
}

const NAMES = new Map(NETWORKS.map((n) => [n.caip2, n.name]));

/** A network's short name where the catalogue knows it, else its CAIP-2 id. */
const networkName = (caip2: string) => NAMES.get(caip2) ?? caip2;

function ServiceRow({ service }: { service: ServiceItem }) {
  return (
    <tr>
      <th scope="row">
        <a href={`/services/${service.id}`}>
          <Untrusted text={service.name} max={80} />
        </a>
      </th>
      <td>
        <Untrusted text={service.domain} max={60} />
      </td>
      <td>
        <Untrusted text={service.category} max={40} />
      </td>
      <td>{service.price_usdc_min === null ? "–" : `from ${usdc(service.price_usdc_min)}`}</td>
      <td>{service.networks.length === 0 ? "–" : service.networks.map(networkName).join(", ")}</td>
      <td>
        <Verdict health={service.health} grade={service.grade} />
      </td>
      <td>{percent(service.uptime_30d)}</td>
      <td>{usdc(service.volume_usdc_30d)}</td>
      <td>{usdc(service.observed_volume_usdc_30d)}</td>
    </tr>
  );
}

/** `/services`: the list with the API's filters, facets and paging. */
export function ServicesPage({
  page,
  query,
  raw,
  categories,
  networks,
}: ServicesProps & { reading?: QueryReading }) {
  const qs = queryString(raw);
  return (
    <Layout
      title="Services"
      path="/services"
      links={{ json: `/v1/services${qs}`, csv: `/v1/services.csv${qs}` }}
    >
      <h1>Services</h1>
      <FilterForm raw={raw} categories={categories} networks={networks} />
      <Reading reading={page.reading} />
      <p class="muted">{count(page.total)} services match.</p>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Services matching the filters</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Domain</th>
              <th scope="col">Category</th>
              <th scope="col">Price</th>
              <th scope="col">Networks</th>
              <th scope="col">Health, grade</th>
              <th scope="col">Uptime (30 d)</th>
              <th scope="col">Claimed volume (30 d)</th>
              <th scope="col">Observed volume (30 d)</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((service) => (
              <ServiceRow key={service.id} service={service} />
            ))}
          </tbody>
        </table>
      </div>
      <Pager path="/services" query={raw} offset={query.offset} limit={query.limit} total={page.total} />
    </Layout>
  );
}
