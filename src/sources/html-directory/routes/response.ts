import type { HttpCrawlingContext } from "@crawlee/http";
import type { ResponseValidators } from "../../../crawl-run/crawl-session";

type Response = HttpCrawlingContext["response"];

function header(response: Response, name: string): string | null {
  const value = response.headers[name];
  return typeof value === "string" && value.length > 0 ? value : null;
}

export function validatorsOf(response: Response): ResponseValidators {
  return { etag: header(response, "etag"), lastModified: header(response, "last-modified") };
}

export function statusOf(response: Response): number {
  return response.statusCode ?? 0;
}
