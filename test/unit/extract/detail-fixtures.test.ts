import { describe, expect, it } from "vitest";
import { MARKUPS, SERVICES } from "../../fixtures/directories";
import { collapsedDetail, detailOf } from "./support";

describe.each(MARKUPS)("extractDetail on markup $id", (markup) => {
  it.each(SERVICES.map((s) => [s.name, s] as const))(
    "when the detail page of %s is read, then every field equals what the page shows",
    (_name, service) => {
      const detail = detailOf(markup.detailPage(service), markup.detailPath(service));
      expect(collapsedDetail(detail)).toEqual(collapsedDetail(markup.shownDetail(service)));
    },
  );
});
