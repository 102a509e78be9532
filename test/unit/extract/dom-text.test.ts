import type { AnyNode } from "cheerio";
import { describe, expect, it } from "vitest";
import { collapse, createPageDom } from "../../../src/extract/dom";
import { parsePage } from "../../../src/extract/parse";
import { MARKUPS, SERVICES } from "../../fixtures/directories";
import { page } from "./support";

/** Every node of the document, root first. */
function allNodes(root: AnyNode): AnyNode[] {
  const nodes: AnyNode[] = [root];
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as AnyNode;
    if ("children" in node) nodes.push(...node.children);
  }
  return nodes;
}

/** text() is built from the children's texts; it must equal collapsing the node's whole raw text. */
function expectTextOfEveryNodeToBeCollapsedRawText(html: string): number {
  const dom = createPageDom(parsePage(html));
  const nodes = allNodes(dom.$.root()[0] as AnyNode);
  for (const node of nodes) expect(dom.text(node)).toBe(collapse(dom.rawText(node)));
  return nodes.length;
}

describe("PageDom.text", () => {
  it.each(MARKUPS.map((markup) => [markup.id, markup]))(
    "when every node of the %s fixture pages is read, then its text is its collapsed raw text",
    (_, markup) => {
      let nodes = 0;
      for (const service of SERVICES) {
        nodes += expectTextOfEveryNodeToBeCollapsedRawText(markup.detailPage(service));
      }
      nodes += expectTextOfEveryNodeToBeCollapsedRawText(markup.listingPage(SERVICES, 1, 3));
      expect(nodes).toBeGreaterThan(1000);
    },
  );

  it.each([
    ["inline elements inside words", "<p>Up<b>time</b>: 99<i>.9</i> %</p>"],
    ["spaces only at element edges", "<p><span>Avg </span><span> response</span><em>412</em> ms</p>"],
    ["no-break and zero-width characters", "<p>1,204&nbsp;ms\u200B and&#8203;more\u00AD here &nbsp; </p>"],
    ["line breaks and blocks without spaces", "<div>Tags:<br>ai<br/>data<div>nested</div>tail</div>"],
    [
      "hidden, invisible and empty elements",
      "<p>a<span hidden>x</span><script>y</script>b<span></span> <i></i>c</p>",
    ],
    [
      "a select showing its chosen option",
      "<p>Page<select><option>1</option><option selected>3</option></select>of 9</p>",
    ],
    ["whitespace-only and empty blocks", "<div> </div><div></div><p>\n\t</p><td> x </td>"],
  ])("when a page has %s, then every node's text is its collapsed raw text", (_, body) => {
    expectTextOfEveryNodeToBeCollapsedRawText(page(body));
  });
});
