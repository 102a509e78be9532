import { describe, expect, it } from "vitest";
import { classifyLabel, type LabelField } from "../../../src/extract/labels";

const cases: Record<LabelField, string[]> = {
  uptime30d: [
    "Uptime (30 days)",
    "Uptime · 30d",
    "30-day uptime",
    "Availability",
    "UPTIME",
    "Uptime:",
    "Uptime (%)",
    "Uptime, last 30 days",
    "Uptime – 30 Days",
    "Avg. uptime (1 month)",
  ],
  avgResponse30d: [
    "Average response time",
    "Avg. response (30d)",
    "latency",
    "Response time",
    "Average response time (30 days)",
    "Avg resp. time (ms)",
    "Median latency · 30d",
    "Average response time over the last 30 days",
  ],
  infoUpdated: [
    "Information updated",
    "Last updated",
    "Updated",
    "Info updated",
    "Updated on",
    "Data refreshed",
  ],
  volume30d: [
    "Transaction volume",
    "Volume (30d)",
    "30d volume",
    "USDC volume",
    "Transaction volume (30 days)",
    "Total volume",
    "Payment volume (USDC)",
    "Revenue (30d)",
  ],
  txCount30d: [
    "Transaction count",
    "Transactions (30d)",
    "Txns",
    "Tx count",
    "# of transactions",
    "Transaction count (30 days)",
    "No. of transactions",
    "Number of transactions",
    "Paid calls",
    "Total requests (30d)",
  ],
  payerCount30d: [
    "Payer address count",
    "Unique payers",
    "Payers",
    "Payer addresses",
    "Payer address count (30 days)",
    "# unique wallets",
    "Distinct buyers",
  ],
  tags: ["Tags", "Service tags", "Keywords", "Tags:", "Related topics"],
  category: ["Category", "Service category", "Categories"],
  endpoints: ["Endpoints", "API endpoints", "Resources", "Endpoints (8)", "Available routes"],
  name: ["Name", "Service name", "Service"],
  domain: ["Domain", "Website", "Host", "Base URL", "Homepage"],
  description: ["Description", "Summary", "About", "About this service", "Overview"],
};

describe("classifyLabel", () => {
  const rows = Object.entries(cases).flatMap(([field, labels]) =>
    labels.map((label) => [label, field] as const),
  );

  it.each(rows)("when the label reads %j, then it names %s", (label, field) => {
    expect(classifyLabel(label)).toBe(field);
  });

  it.each([
    "Uptime (7d)",
    "Uptime (24h)",
    "All-time volume",
    "Lifetime transactions",
    "Volume (90 days)",
    "Updated hourly",
    "Price",
    "Network",
    "Statistics",
    "99.8%",
    "Nov 20, 2026",
    "—",
    "",
    "Statistics are based on USDC records on Base and do not represent fulfilled sales volume",
    "short volume for a ticker",
  ])("when the text reads %j, then it names no field", (text) => {
    expect(classifyLabel(text)).toBeNull();
  });

  it("when aliases are configured, then they add wording without replacing the built-in rules", () => {
    const aliases = { uptime30d: ["Disponibilité (30 j)"], txCount30d: ["Appels payés"] };
    expect(classifyLabel("Disponibilité (30 j)", aliases)).toBe("uptime30d");
    expect(classifyLabel("disponibilité 30 j", aliases)).toBe("uptime30d");
    expect(classifyLabel("Appels payés :", aliases)).toBe("txCount30d");
    expect(classifyLabel("Uptime", aliases)).toBe("uptime30d");
    expect(classifyLabel("Disponibilité (30 j)")).toBeNull();
  });

  it("when an alias names a period we would reject, then the alias still wins", () => {
    expect(classifyLabel("Uptime (7d)", { uptime30d: ["Uptime (7d)"] })).toBe("uptime30d");
  });
});
