import parsePrometheusTextFormat, { type PrometheusFamily } from "parse-prometheus-text-format";

/** A /metrics answer: its text, and its families as a Prometheus text-format parser reads them. */
export interface Scrape {
  text: string;
  families: PrometheusFamily[];
}

export async function scrape(baseUrl: string): Promise<Scrape> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
  const text = await response.text();
  return { text, families: parsePrometheusTextFormat(text) };
}

const hasLabels = (sampleLabels: Record<string, string> | undefined, labels: Record<string, string>) =>
  Object.entries(labels).every(([key, value]) => sampleLabels?.[key] === value);

/** The sum of a counter's or gauge's samples with these labels (0 when there are none). */
export function sampleValue({ families }: Scrape, name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  return (family?.metrics ?? [])
    .filter((sample) => hasLabels(sample.labels, labels))
    .reduce((sum, sample) => sum + Number(sample.value ?? 0), 0);
}

/**
 * The observations of a histogram's series with these labels, from their `_count` samples.
 * Read from the text: parse-prometheus-text-format merges a labelled histogram's series into one
 * and drops their labels, count and sum (its issue #13), though it reads the lines' syntax.
 */
export function observations({ text }: Scrape, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split("\n")) {
    const sample = line.match(new RegExp(`^${name}_count(?:\\{(.*)\\})? (\\S+)$`));
    if (!sample) continue;
    const sampleLabels = Object.fromEntries(
      [...(sample[1] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key, value]),
    );
    if (hasLabels(sampleLabels, labels)) total += Number(sample[2]);
  }
  return total;
}

/** Every label value of every sample the parser read, with its family and label name. */
export function labelValues({ families }: Scrape): Array<{ family: string; label: string; value: string }> {
  return families.flatMap((family) =>
    family.metrics.flatMap((sample) =>
      Object.entries(sample.labels ?? {}).map(([label, value]) => ({ family: family.name, label, value })),
    ),
  );
}
