/**
 * What a discovery feed says about a resource on its seller's behalf: its name, tags, icon and
 * usage figures. Kept per endpoint and served marked as self-reported: nothing here was checked,
 * so an agent weighs it against the evidence the catalogue gathers itself.
 */
export interface SelfReported {
  service_name: string | null;
  tags: string[];
  icon_url: string | null;
  quality: {
    total_calls_30d: number | null;
    unique_payers_30d: number | null;
    last_called_at: string | null;
  };
}

export interface SelfReportedFields {
  serviceName: string | null;
  tags: string[];
  iconUrl: string | null;
  totalCalls30d: number | null;
  uniquePayers30d: number | null;
  lastCalledAt: Date | null;
}

/** Null when the feed said nothing of it. */
export function selfReportedOf(fields: SelfReportedFields): SelfReported | null {
  const quality = {
    total_calls_30d: fields.totalCalls30d,
    unique_payers_30d: fields.uniquePayers30d,
    last_called_at: fields.lastCalledAt?.toISOString() ?? null,
  };
  const said =
    fields.serviceName !== null ||
    fields.tags.length > 0 ||
    fields.iconUrl !== null ||
    Object.values(quality).some((value) => value !== null);
  return said
    ? { service_name: fields.serviceName, tags: fields.tags, icon_url: fields.iconUrl, quality }
    : null;
}
