import { describe, expect, it } from "vitest";
import { withoutControls } from "../../../src/normalise/text";
import {
  absoluteUrl,
  collapseWhitespace,
  isMissing,
  normaliseCategory,
  normaliseMethod,
  normaliseTags,
  parseDomain,
} from "../../../src/normalise/values";

describe("isMissing", () => {
  it.each([
    ["em dash", "—"],
    ["en dash", "–"],
    ["hyphen", "-"],
    ["double hyphen", "--"],
    ["unicode minus", "\u2212"],
    ["N/A", "N/A"],
    ["n/a", "n/a"],
    ["NA", "NA"],
    ["n.a.", "n.a."],
    ["none", "none"],
    ["None (capitalised)", "None"],
    ["null", "null"],
    ["unknown", "unknown"],
    ["UNKNOWN", "UNKNOWN"],
    ["question mark", "?"],
    ["empty string", ""],
    ["spaces", "   "],
    ["newlines and tabs", "\n\t \n"],
    ["no-break spaces", "\u00A0\u202F"],
    ["placeholder padded by whitespace", "  \u00A0— \n"],
    ["zero-width space only", "\u200B"],
  ])("when the text is %s, then it is missing", (_label, text) => {
    expect(isMissing(text)).toBe(true);
  });

  it.each([null, undefined])("when the text is %s, then it is missing", (text) => {
    expect(isMissing(text)).toBe(true);
  });

  it.each([
    ["zero", "0"],
    ["zero percent", "0%"],
    ["a dollar zero", "$0"],
    ["a word containing na", "nano"],
    ["a negative number", "-5"],
    ["dash with text", "- ms"],
    ["a sentence with unknown", "unknown service"],
    ["an emoji", "🚀"],
  ])("when the text is %s, then it is not missing", (_label, text) => {
    expect(isMissing(text)).toBe(false);
  });
});

describe("collapseWhitespace", () => {
  it.each([
    ["  hello   world  ", "hello world"],
    ["line\nbreak\r\nand\ttab", "line break and tab"],
    ["no\u00A0break\u202Fnarrow\u2009thin\u3000ideographic", "no break narrow thin ideographic"],
    ["line\u2028separator\u2029paragraph\u0085next", "line separator paragraph next"],
    ["zero\u200Bwidth\u2060joined\uFEFF", "zerowidthjoined"],
    ["soft\u00ADhyphen", "softhyphen"],
    ["Tom & Jerry's <API>", "Tom & Jerry's <API>"],
    ["single", "single"],
  ])("when given %j, then it returns %j", (input, expected) => {
    expect(collapseWhitespace(input)).toBe(expected);
  });

  it.each(["", "   ", "\n\t", "\u00A0\u202F", "\u200B\u200B"])(
    "when given only whitespace or invisible characters (%j), then it returns null",
    (input) => {
      expect(collapseWhitespace(input)).toBeNull();
    },
  );

  it("when given null or undefined, then it returns null", () => {
    expect(collapseWhitespace(null)).toBeNull();
    expect(collapseWhitespace(undefined)).toBeNull();
  });
});

describe("normaliseMethod", () => {
  it.each([
    ["GET", "GET"],
    ["get", "GET"],
    ["Post", "POST"],
    [" put ", "PUT"],
    ["patch\n", "PATCH"],
    ["DELETE", "DELETE"],
    ["head", "HEAD"],
    ["\u00A0OPTIONS\u00A0", "OPTIONS"],
  ])("when the text is %j, then the method is %s", (input, expected) => {
    expect(normaliseMethod(input)).toEqual({ kind: "value", value: expected });
  });

  it.each(["FETCH", "GET/POST", "GET POST", "CONNECT", "TRACE", "G E T", "GET✅", "ＧＥＴ", "1"])(
    "when the text is %j, then it is invalid with the raw text kept",
    (input) => {
      const parsed = normaliseMethod(input);
      expect(parsed.kind).toBe("invalid");
      expect(parsed).toMatchObject({ raw: input });
    },
  );

  it.each(["", "—", "N/A", null, undefined])("when the text is %j, then the method is missing", (input) => {
    expect(normaliseMethod(input)).toEqual({ kind: "missing" });
  });
});

describe("absoluteUrl", () => {
  const base = "https://directory.example/services/weather?tab=api";

  it.each([
    ["absolute https", "https://api.weather.io/v1/now", "https://api.weather.io/v1/now"],
    ["absolute http", "http://api.weather.io/v1", "http://api.weather.io/v1"],
    ["root-relative", "/v1/now", "https://directory.example/v1/now"],
    ["path-relative", "now", "https://directory.example/services/now"],
    ["parent-relative", "../about", "https://directory.example/about"],
    ["protocol-relative", "//cdn.weather.io/x", "https://cdn.weather.io/x"],
    ["with fragment", "https://api.weather.io/v1#section", "https://api.weather.io/v1"],
    ["fragment only", "#top", "https://directory.example/services/weather?tab=api"],
    ["query kept", "/v1?city=Paris", "https://directory.example/v1?city=Paris"],
    ["upper-case scheme and host", "HTTPS://API.Weather.IO/V1", "https://api.weather.io/V1"],
    ["surrounding whitespace", "  https://api.weather.io/v1 \n", "https://api.weather.io/v1"],
    ["newline inside (stripped like a browser)", "https://api.wea\nther.io/v1", "https://api.weather.io/v1"],
    ["space inside path (percent-encoded)", "https://api.weather.io/a b", "https://api.weather.io/a%20b"],
    ["unicode host (punycode)", "https://météo.example/x", "https://xn--mto-bmab.example/x"],
  ])("when the href is %s, then it resolves to the absolute URL", (_label, href, expected) => {
    expect(absoluteUrl(href, base)).toEqual({ kind: "value", value: expected });
  });

  it.each([
    ["javascript:", "javascript:alert(1)"],
    ["JavaScript: with spaces", "  JavaScript:void(0)"],
    ["mailto:", "mailto:ops@weather.io"],
    ["data:", "data:text/html,<b>x</b>"],
    ["ftp:", "ftp://files.weather.io/a"],
    ["tel:", "tel:+123"],
    ["unparsable host", "https://exa mple.com/"],
    ["bare scheme", "http://"],
  ])("when the href is %s, then it is invalid", (_label, href) => {
    const parsed = absoluteUrl(href, base);
    expect(parsed.kind).toBe("invalid");
    expect(parsed).toMatchObject({ raw: href });
  });

  it("when the base URL is not a URL and the href is relative, then it is invalid", () => {
    expect(absoluteUrl("/v1", "not a url").kind).toBe("invalid");
  });

  it.each(["", "  ", "—", null, undefined])("when the href is %j, then it is missing", (href) => {
    expect(absoluteUrl(href, base)).toEqual({ kind: "missing" });
  });
});

describe("normaliseCategory", () => {
  it.each([
    ["AI / ML", "AI / ML"],
    ["  Data\n  feeds ", "Data feeds"],
    ["Finance\u00A0&\u00A0Trading", "Finance & Trading"],
  ])("when the text is %j, then the category is %j", (input, expected) => {
    expect(normaliseCategory(input)).toBe(expected);
  });

  it.each(["", "  ", "—", "N/A", "Unknown", null, undefined])(
    "when the text is %j, then there is no category",
    (input) => {
      expect(normaliseCategory(input)).toBeNull();
    },
  );
});

describe("normaliseTags", () => {
  it.each<[string, (string | null)[], string[]]>([
    ["a plain list", ["ai", "weather"], ["ai", "weather"]],
    ["hash prefixes", ["#AI", "#Weather"], ["ai", "weather"]],
    ["several hashes and a space after the hash", ["##ai", "# data"], ["ai", "data"]],
    ["comma-separated entry", ["ai, weather,data"], ["ai", "weather", "data"]],
    ["pipe-separated entry", ["ai | weather|data"], ["ai", "weather", "data"]],
    ["semicolon-separated entry", ["ai; weather;data"], ["ai", "weather", "data"]],
    ["mixed separators", ["#AI, #ML | NLP; vision"], ["ai", "ml", "nlp", "vision"]],
    ["duplicates keep first order", ["Weather", "ai", "WEATHER", "#ai"], ["weather", "ai"]],
    ["internal whitespace collapsed", ["machine \n  learning", "machine learning"], ["machine learning"]],
    ["no-break spaces", ["\u00A0real\u202Ftime\u00A0"], ["real time"]],
    ["empties dropped", ["", "  ", ",,", "#", "ai", null], ["ai"]],
    ["placeholders dropped", ["—", "N/A", "ai"], ["ai"]],
    ["emoji tags kept", ["🔥 Hot", "🔥 hot"], ["🔥 hot"]],
    ["non-latin lower-cased", ["ÉNERGIE", "énergie"], ["énergie"]],
    ["empty list", [], []],
  ])("when the list has %s, then the tags are as expected", (_label, input, expected) => {
    expect(normaliseTags(input)).toEqual(expected);
  });

  it("when given a list, then the input is not modified", () => {
    const input = ["#AI", "ai"];
    normaliseTags(input);
    expect(input).toEqual(["#AI", "ai"]);
  });
});

describe("parseDomain", () => {
  it.each([
    ["api.weather.io", "api.weather.io"],
    ["API.Weather.IO", "api.weather.io"],
    ["https://api.weather.io/v1/now?x=1", "api.weather.io"],
    ["http://Weather.io:8080", "weather.io"],
    ["weather.io:8443/path", "weather.io"],
    ["weather.io.", "weather.io"],
    ["  weather.io \n", "weather.io"],
    ["münchen.example", "xn--mnchen-3ya.example"],
    ["203.0.113.7", "203.0.113.7"],
  ])("when the text is %j, then the domain is %j", (input, expected) => {
    expect(parseDomain(input)).toEqual({ kind: "value", value: expected });
  });

  it.each([
    ["a sentence", "see website"],
    ["an e-mail address", "ops@weather.io"],
    ["a single label", "localhost"],
    ["a non-http scheme", "ftp://weather.io"],
    ["javascript", "javascript://weather.io"],
    ["an invalid host", "exa_mple..com%"],
  ])("when the text is %s, then it is invalid", (_label, input) => {
    expect(parseDomain(input)).toMatchObject({ kind: "invalid", raw: input });
  });

  it.each(["", "—", null, undefined])("when the text is %j, then the domain is missing", (input) => {
    expect(parseDomain(input)).toEqual({ kind: "missing" });
  });
});

describe("control characters in crawled text", () => {
  it.each([
    ["a NUL inside a name", "Quote\u0000 API", "Quote API"],
    ["a bell and an escape", "\u0007Quote\u001b API", "Quote API"],
    ["a vertical tab between words", "Quote\u000bAPI", "Quote API"],
    ["only controls", "\u0000\u0001", null],
  ])("when collapsed text holds %s, then it is removed", (_, text, expected) => {
    expect(collapseWhitespace(text)).toBe(expected);
  });

  it("when text keeps its lines, then tabs and line breaks stay and the other controls go", () => {
    expect(withoutControls("a\u0000\tb\r\nc\u001f")).toBe("a\tb\r\nc");
  });
});
