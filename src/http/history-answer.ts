import type { z } from "zod";
import { getServiceHistory } from "../catalogue/history-queries";
import { getObservedDays } from "../catalogue/observed-history";
import type { ReadPool } from "../db/read-pool";
import type { historyQuery } from "./schemas/services";
import { historyJson, listJson, observedDayJson } from "./serialisers";

/**
 * A service's history as REST and MCP answer it: the series asked for (the figures' intervals, or
 * observed payments per day), a page of it; null when there is no such service.
 */
export async function serviceHistoryAnswer(pool: ReadPool, id: string, query: z.output<typeof historyQuery>) {
  const paging = { offset: query.offset, limit: query.limit };
  if (query.series === "observed_daily") {
    const days = await getObservedDays(pool, id, query, paging);
    return days && listJson(days, observedDayJson);
  }
  const page = await getServiceHistory(pool, id, query, paging);
  return page && listJson(page, historyJson);
}
