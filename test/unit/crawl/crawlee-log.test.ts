import { describe, expect, it } from "vitest";
import { translateCrawleeLine } from "../../../src/sources/html-directory/crawlee-log";
import { describeFetchFailure } from "../../../src/sources/html-directory/fetch-failure";

describe("Crawlee's log lines, as an operator reads them", () => {
  it("when Crawlee offers to resume after Ctrl-C, then the line is dropped (there is no resume)", () => {
    expect(
      translateCrawleeLine(
        "warn",
        "Pausing... Press CTRL+C again to force exit. To resume, do: CRAWLEE_PURGE_ON_START=0 npm start",
      ),
    ).toBeNull();
  });

  it.each([
    [
      "Reclaiming failed request back to the list or queue. Detected a session error, rotating session... \nconnect ECONNREFUSED 127.0.0.1:9\n",
      "retrying a page: connection refused (connect ECONNREFUSED 127.0.0.1:9)",
    ],
    [
      "Request failed and reached maximum retries. 503 - Internal Server Error: <html>busy</html>",
      "a page failed after its retries: HTTP 503 Service Unavailable",
    ],
    [
      "Failed to fetch robots.txt for request http://dir.example/",
      "robots.txt could not be read: every page is allowed",
    ],
  ])("when Crawlee logs %j, then it becomes a debug line saying %j", (message, expected) => {
    expect(translateCrawleeLine("warn", message)).toEqual({ level: "debug", message: expected });
  });

  it("when Crawlee logs something else, then it passes through at its level", () => {
    expect(translateCrawleeLine("error", "something new")).toEqual({
      level: "error",
      message: "something new",
    });
  });
});

describe("describeFetchFailure", () => {
  it.each([
    ["503 - Internal Server Error: <html>", "HTTP 503 Service Unavailable"],
    ["429 - Error status code was set by user.", "HTTP 429 Too Many Requests"],
    ["getaddrinfo ENOTFOUND dir.invalid", "host not found (DNS) (getaddrinfo ENOTFOUND dir.invalid)"],
    ["read ECONNRESET", "connection reset (read ECONNRESET)"],
    ["Navigation timed out after 30 seconds.", "timed out (Navigation timed out after 30 seconds.)"],
    ["Content-Type text/plain is not HTML", "Content-Type text/plain is not HTML"],
  ])("when the error reads %j, then it is described as %j", (message, expected) => {
    expect(describeFetchFailure(message)).toBe(expected);
  });
});
