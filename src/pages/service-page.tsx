import { clientSnippet, curlExample } from "./call-snippets";
import { LineChart } from "./charts";
import { clip, count, millis, percent, priceRange, usdc, when } from "./format";
import { Layout } from "./layout";
import {
  CHARTED_DAYS,
  CHARTED_HISTORY,
  type DailyItem,
  type EndpointView,
  type HistoryItem,
  type ServicePageData,
} from "./page-data";
import { Untrusted, UntrustedLink, Verdict } from "./widgets";

/** Decimal strings to chart coordinates only; the tables show the exact strings. */
const plotted = (value: string | null | undefined) =>
  value === null || value === undefined ? null : Number(value);

function Payability({ endpoint }: { endpoint: EndpointView }) {
  const { payable, decided_by: decidedBy, reasons } = endpoint.payability;
  return (
    <div>
      <p>
        <strong>
          {payable === true ? "Payable" : payable === false ? "Not payable" : "Payability unknown"}
        </strong>{" "}
        <span class="muted">(decided by {decidedBy ?? "nothing yet"})</span>
      </p>
      {reasons.length > 0 ? (
        <ul>
          {reasons.map((reason) => (
            <li key={reason}>
              <Untrusted text={reason} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Endpoint({ endpoint, index }: { endpoint: EndpointView; index: number }) {
  const last = endpoint.probe.last_probe;
  const headingId = `endpoint-${index}`;
  return (
    <section class="endpoint" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <span class="method">{endpoint.method}</span> <UntrustedLink url={endpoint.url} max={200} />
      </h3>
      <p>
        <Untrusted text={endpoint.description} max={2000} />
      </p>
      <dl class="pairs">
        <dt>Price</dt>
        <dd>{priceRange(endpoint.payment_options.map((o) => o.price_usdc))}</dd>
        <dt>Networks</dt>
        <dd>
          {[...new Set(endpoint.payment_options.map((o) => o.network_name ?? o.network ?? "?"))].join(", ") ||
            "–"}
        </dd>
        <dt>Health</dt>
        <dd>
          <Verdict health={endpoint.health} />
          {endpoint.probe.verified ? " valid challenge" : " no valid challenge"}
        </dd>
        <dt>Last probe</dt>
        <dd>
          {last ? (
            <>
              {when(last.at)}: {last.outcome}
              {last.status_code === null ? "" : ` (HTTP ${last.status_code})`}
              {last.error ? (
                <>
                  {" – "}
                  <Untrusted text={last.error} max={300} />
                </>
              ) : null}
            </>
          ) : (
            "not probed yet"
          )}
        </dd>
      </dl>
      <Payability endpoint={endpoint} />
      {endpoint.payment_options.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption>Payment options</caption>
            <thead>
              <tr>
                <th scope="col">Network</th>
                <th scope="col">Asset</th>
                <th scope="col">Price</th>
                <th scope="col">Pay to</th>
                <th scope="col">Payable</th>
              </tr>
            </thead>
            <tbody>
              {endpoint.payment_options.map((option, k) => (
                <tr key={`${option.network}-${option.pay_to}-${k}`}>
                  <td>
                    <Untrusted text={option.network_name ?? option.network} max={60} />
                  </td>
                  <td>
                    <Untrusted text={option.asset_symbol ?? option.asset} max={60} />
                  </td>
                  <td>{usdc(option.price_usdc)}</td>
                  <td class="mono">
                    <Untrusted text={option.pay_to} max={80} />
                  </td>
                  <td>
                    {option.payable ? "yes" : "no"}
                    {option.unpayable_reasons.length > 0 ? (
                      <>
                        {": "}
                        <Untrusted text={option.unpayable_reasons.join("; ")} max={300} />
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <details>
        <summary>How to call it</summary>
        {endpoint.call?.input_schema ? (
          <>
            <h4>Input schema</h4>
            <pre>
              <code>{JSON.stringify(endpoint.call.input_schema, null, 2)}</code>
            </pre>
          </>
        ) : null}
        <h4>Example request (answers 402 with the payment challenge)</h4>
        <pre>
          <code>{curlExample(endpoint)}</code>
        </pre>
        <h4>With an x402 client</h4>
        <pre>
          <code>{clientSnippet(endpoint)}</code>
        </pre>
      </details>
    </section>
  );
}

/** Our probes per UTC day (the daily API's rows): uptime, and p50/p99 latency. */
function ProbeCharts({ daily }: { daily: DailyItem[] }) {
  const days = daily.map((d) => d.day);
  return (
    <div class="charts">
      <LineChart
        id="chart-probe-uptime"
        title="Probe uptime per day"
        xTitle="Day (UTC)"
        yTitle="Uptime (%)"
        times={days}
        series={[{ name: "uptime", values: daily.map((d) => d.probes.uptime_pct) }]}
        format={(value) => percent(value)}
      />
      <LineChart
        id="chart-probe-latency"
        title="Probe latency per day"
        xTitle="Day (UTC)"
        yTitle="Latency (ms)"
        times={days}
        series={[
          { name: "p50", values: daily.map((d) => d.probes.p50_ms) },
          { name: "p99", values: daily.map((d) => d.probes.p99_ms) },
        ]}
        format={(value) => millis(value)}
      />
    </div>
  );
}

/** A series of the daily rows: its name and its exact decimal text per row. */
type DailyField = [string, (d: DailyItem) => string | null];

/** The daily volumes and prices: each series is exact text in the table, a number only on the chart. */
function DailyCharts({ daily }: { daily: DailyItem[] }) {
  const days = daily.map((d) => d.day);
  const observedRead = daily.some((d) => d.observed_volume_usdc_30d !== null);
  const volumes: DailyField[] = [["claimed", (d) => d.claimed_volume_usdc_30d]];
  if (observedRead) {
    volumes.push(["observed", (d) => d.observed_volume_usdc_30d]);
    volumes.push(["observed without flagged", (d) => d.adjusted_volume_usdc_30d]);
  }
  const prices: DailyField[] = [
    ["lowest", (d) => d.price_min_usdc],
    ["highest", (d) => d.price_max_usdc],
  ];
  const exact = (fields: DailyField[]) => (_: number | null, series: number, row: number) => {
    const item = daily[row];
    return usdc(item && fields[series]?.[1](item));
  };
  return (
    <div class="charts">
      <LineChart
        id="chart-volume"
        title={observedRead ? "Claimed against observed 30-day volume" : "Claimed 30-day volume"}
        xTitle="Day (UTC)"
        yTitle="30-day volume (USDC)"
        times={days}
        series={volumes.map(([name, field]) => ({ name, values: daily.map((d) => plotted(field(d))) }))}
        format={exact(volumes)}
      />
      <LineChart
        id="chart-price"
        title="Price per call asked by live challenges"
        xTitle="Day (UTC)"
        yTitle="Price (USDC)"
        times={days}
        series={prices.map(([name, field]) => ({ name, values: daily.map((d) => plotted(field(d))) }))}
        format={exact(prices)}
      />
    </div>
  );
}

/** The directory's own 30-day figures over its history intervals (the history API's rows). */
function DirectoryCharts({ history }: { history: HistoryItem[] }) {
  if (history.length === 0) return <p>No directory history recorded yet.</p>;
  const times = history.map((h) => h.observed_from);
  return (
    <div class="charts">
      <LineChart
        id="chart-uptime"
        title="Uptime over 30 days, as the directory reports it"
        xTitle="Observed from"
        yTitle="Uptime (%)"
        times={times}
        series={[{ name: "uptime", values: history.map((h) => h.uptime_30d) }]}
        format={(value) => percent(value)}
      />
      <LineChart
        id="chart-response"
        title="Average response time over 30 days, as the directory reports it"
        xTitle="Observed from"
        yTitle="Response time (ms)"
        times={times}
        series={[{ name: "average response", values: history.map((h) => h.avg_response_ms_30d) }]}
        format={(value) => millis(value)}
      />
    </div>
  );
}

/** `/services/{id}`: everything the detail API has, how to call each endpoint, and charts over time. */
export function ServicePage({ service, history, daily }: ServicePageData) {
  const windows = service.probe.windows;
  const self = `/v1/services/${service.id}`;
  return (
    <Layout
      title={clip(service.name, 80)}
      path="/services/"
      links={{ json: self, csv: `/v1/history.csv?service_id=${service.id}` }}
    >
      <h1 class="name">
        <Untrusted text={service.name} />
      </h1>
      <p class="lead">
        <Untrusted text={service.description} max={5000} />
      </p>
      <dl class="pairs">
        <dt>Domain</dt>
        <dd>
          <Untrusted text={service.domain} />
        </dd>
        <dt>Category</dt>
        <dd>
          <Untrusted text={service.category} />
        </dd>
        <dt>Tags</dt>
        <dd>
          <Untrusted text={service.tags.join(", ")} max={500} />
        </dd>
        <dt>Status</dt>
        <dd>{service.status}</dd>
        <dt>Health and grade</dt>
        <dd>
          <Verdict health={service.health} grade={service.grade} />
        </dd>
        <dt>Listed</dt>
        <dd>
          {when(service.first_seen_at)} to {when(service.last_seen_at)}
        </dd>
        <dt>Badge</dt>
        <dd>
          <img src={`/badge/${service.id}.svg`} alt="Status badge" height={20} />
          <br />
          <a href={`/badge/${service.id}.svg`}>/badge/{service.id}.svg</a> (embed it in a README)
        </dd>
      </dl>
      {service.warnings && service.warnings.length > 0 ? (
        <ul class="warnings" aria-label="Warnings">
          {service.warnings.map((warning) => (
            <li key={warning}>
              <Untrusted text={warning} max={300} />
            </li>
          ))}
        </ul>
      ) : null}
      <section aria-labelledby="h-figures">
        <h2 id="h-figures">Figures</h2>
        <div class="table-wrap">
          <table>
            <caption>The directory's 30-day figures and our probes</caption>
            <tbody>
              <tr>
                <th scope="row">Uptime (directory)</th>
                <td>{percent(service.uptime_30d)}</td>
              </tr>
              <tr>
                <th scope="row">Average response (directory)</th>
                <td>{millis(service.avg_response_ms_30d)}</td>
              </tr>
              <tr>
                <th scope="row">Claimed volume</th>
                <td>{usdc(service.volume_usdc_30d)}</td>
              </tr>
              <tr>
                <th scope="row">Observed volume (without flagged transfers)</th>
                <td>
                  {service.observed
                    ? `${usdc(service.observed.raw["30d"].volume_usdc)} (${usdc(service.observed.adjusted["30d"].volume_usdc)})`
                    : "not read"}
                </td>
              </tr>
              <tr>
                <th scope="row">Transactions, payers</th>
                <td>
                  {count(service.tx_count_30d)}, {count(service.payer_count_30d)}
                </td>
              </tr>
              {(["24h", "7d", "30d"] as const).map((window) => (
                <tr key={window}>
                  <th scope="row">Probes, {window}</th>
                  <td>
                    {count(windows[window].probes)} probes, uptime {percent(windows[window].uptime_pct)}, p50{" "}
                    {millis(windows[window].p50_ms)}, p99 {millis(windows[window].p99_ms)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="h-endpoints">
        <h2 id="h-endpoints">Endpoints ({service.endpoints.length})</h2>
        {service.endpoints.map((endpoint, index) => (
          <Endpoint key={`${endpoint.method} ${endpoint.url}`} endpoint={endpoint} index={index} />
        ))}
      </section>
      <section aria-labelledby="h-probes">
        <h2 id="h-probes">Our probes</h2>
        <p class="muted">
          The last {CHARTED_DAYS} days, one point per day with probes, as{" "}
          <a href={`${self}/history/daily?days=${CHARTED_DAYS}`}>the daily API</a> answers them.
        </p>
        <ProbeCharts daily={daily} />
      </section>
      <section aria-labelledby="h-history">
        <h2 id="h-history">Over time</h2>
        <p class="muted">
          Volumes and prices per day from the same daily rows; the directory's figures over the first{" "}
          {CHARTED_HISTORY} rows of <a href={`${self}/history?limit=${CHARTED_HISTORY}`}>the history API</a>.
        </p>
        <DailyCharts daily={daily} />
        <DirectoryCharts history={history} />
      </section>
      <section aria-labelledby="h-sources">
        <h2 id="h-sources">Sources</h2>
        <ul>
          {service.sources.map((source) => (
            <li key={`${source.kind}-${source.source_url}`}>
              {source.kind}: <UntrustedLink url={source.source_url} /> ({source.status}, since{" "}
              {when(source.first_seen_at)})
            </li>
          ))}
        </ul>
      </section>
    </Layout>
  );
}
