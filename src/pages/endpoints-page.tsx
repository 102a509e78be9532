import { ENDPOINT_SORTS } from "../search/catalogue-search";
import { Input, Select, text, YES_NO } from "./form-fields";
import { count, priceRange, queryString, when } from "./format";
import { Layout } from "./layout";
import type { EndpointHit, EndpointQuery, ListPage } from "./page-data";
import { Pager, Reading, Untrusted, UntrustedLink } from "./widgets";

interface EndpointsProps {
  page: ListPage<EndpointHit>;
  query: EndpointQuery;
  raw: Record<string, unknown>;
}

/** `/endpoints`: endpoint search ("an endpoint that does X"). */
export function EndpointsPage({ page, query, raw }: EndpointsProps) {
  const qs = queryString(raw);
  return (
    <Layout title="Endpoints" path="/endpoints" links={{ json: `/v1/endpoints${qs}` }}>
      <h1>Endpoints</h1>
      <form class="filters" action="/endpoints" method="get" aria-label="Search endpoints">
        <div class="field wide">
          <label for="f-q">An endpoint that does</label>
          <input id="f-q" name="q" type="search" maxLength={200} value={text(raw, "q")} />
        </div>
        <Input name="max_price" label="Highest price (USDC per call)" raw={raw} />
        <Select name="payable" label="Payable by a standard client" raw={raw} options={YES_NO} />
        <Select
          name="sort"
          label="Sort by"
          raw={raw}
          options={[["", "default"], ...ENDPOINT_SORTS.map((sort) => [sort, sort] as const)]}
        />
        <div class="actions">
          <button type="submit">Search</button> <a href="/endpoints">Clear</a>
        </div>
      </form>
      <Reading reading={page.reading} />
      <p class="muted">{count(page.total)} endpoints match.</p>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Endpoints matching the search</caption>
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Service</th>
              <th scope="col">Price</th>
              <th scope="col">Payable</th>
              <th scope="col">Last verified</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((hit, k) => (
              <tr key={`${hit.service_id}-${hit.method}-${hit.url}-${k}`}>
                <th scope="row">
                  <span class="method">{hit.method}</span> <UntrustedLink url={hit.url} max={80} />
                  <br />
                  <span class="muted">
                    <Untrusted text={hit.description} max={160} />
                  </span>
                </th>
                <td>
                  <a href={`/services/${hit.service_id}`}>
                    <Untrusted text={hit.service_name} max={60} />
                  </a>
                </td>
                <td>{priceRange(hit.payment_options.map((o) => o.price_usdc))}</td>
                <td>
                  {hit.payability.payable === true
                    ? "yes"
                    : hit.payability.payable === false
                      ? "no"
                      : "unknown"}
                </td>
                <td>{hit.verified ? when(hit.last_verified_at) : "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager path="/endpoints" query={raw} offset={query.offset} limit={query.limit} total={page.total} />
    </Layout>
  );
}
