import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/config";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected the configuration to be rejected");
}

describe("loadConfig", () => {
  it("when nothing is set, then every setting has its documented default", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.CATALOGUE_DATA_DIR).toBe("./.data");
    expect(config.CRAWL_SCHEDULE).toBe("0 * * * *");
    expect(config.LOG_LEVEL).toBe("info");
    expect(config.CRAWL_RESPECT_ROBOTS_TXT).toBe(true);
  });

  it("when values are given as strings, then they are coerced to their types", () => {
    const config = loadConfig({
      PORT: "8080",
      CRAWL_RESPECT_ROBOTS_TXT: "false",
      CRAWL_MAX_CONCURRENCY: "16",
      DATABASE_URL: "postgresql://u:p@db:5432/catalogue",
    });
    expect(config.PORT).toBe(8080);
    expect(config.CRAWL_RESPECT_ROBOTS_TXT).toBe(false);
    expect(config.CRAWL_MAX_CONCURRENCY).toBe(16);
    expect(config.DATABASE_URL).toBe("postgresql://u:p@db:5432/catalogue");
  });

  it("when a variable is set to an empty string, then it counts as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
  });

  it.each([
    ["PORT", "abc", /PORT="abc": must be a number/],
    ["PORT", "70000", /PORT="70000": must be between 0 and 65535/],
    ["PORT", "3.5", /PORT="3.5": must be a whole number/],
    ["DATABASE_URL", "mysql://x@y/z", /DATABASE_URL=.*must be a postgres/],
    ["DIRECTORY_URL", "ftp://dir.example", /DIRECTORY_URL=.*must be an http\(s\) URL/],
    ["DIRECTORY_URL", "not a url", /DIRECTORY_URL=.*must be an http\(s\) URL/],
    ["CRAWL_SCHEDULE", "every hour", /CRAWL_SCHEDULE="every hour": must be a five-field cron expression/],
    ["CRAWL_SCHEDULE", "0 0 * * * *", /CRAWL_SCHEDULE="0 0 \* \* \* \*": must be a five-field cron/],
    ["PROBE_SCHEDULE", "@hourly", /PROBE_SCHEDULE="@hourly": must be a five-field cron/],
    ["SITE_OVERRIDES", "{bad", /SITE_OVERRIDES="{bad": must be JSON such as .* \(.*JSON.*\)/],
    ["SITE_OVERRIDES", "[]", /SITE_OVERRIDES="\[\]": .*expected record/],
    [
      "SITE_OVERRIDES",
      '{"dir.example":{"labels":{"uptime30d":["Verfügbarkeit"]},"colour":"red"}}',
      /SITE_OVERRIDES=.*: dir\.example: unknown key\(s\) colour/,
    ],
    [
      "SITE_OVERRIDES",
      '{"dir.example":{"labels":{"uptime":["Verfügbarkeit"]}}}',
      /SITE_OVERRIDES=.*: dir\.example\.labels: unknown key\(s\) uptime/,
    ],
    [
      "SITE_OVERRIDES",
      '{"dir.example":{"labels":{"tags":"x"}}}',
      /dir\.example\.labels\.tags: must be a list/,
    ],
    ["DATABASE_URL", "mysql://user:hunter2@db/x", /DATABASE_URL="mysql:\/\/user:\*\*\*@db\/x"/],
    ["LOG_LEVEL", "verbose", /LOG_LEVEL="verbose": must be one of fatal, error/],
    ["CRAWL_RESPECT_ROBOTS_TXT", "maybe", /CRAWL_RESPECT_ROBOTS_TXT="maybe": must be true or false/],
    ["CRAWL_MAX_CONCURRENCY", "0", /CRAWL_MAX_CONCURRENCY="0": must be between 1 and 200/],
  ])("when %s=%s, then the message names the variable and what is allowed", (name, value, message) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it.each([
    ["FALSE", false],
    ["False", false],
    ["off", false],
    ["0", false],
    ["No", false],
    ["TRUE", true],
    ["Yes", true],
    ["on", true],
    ["1", true],
  ])("when a boolean is written %s, then it reads as %s", (value, expected) => {
    expect(loadConfig({ PROBE_ENABLED: value }).PROBE_ENABLED).toBe(expected);
    expect(loadConfig({ CRAWL_RESPECT_ROBOTS_TXT: value }).CRAWL_RESPECT_ROBOTS_TXT).toBe(expected);
  });

  it("when SITE_OVERRIDES is valid JSON of known fields, then it is read into label wording per host", () => {
    const config = loadConfig({
      SITE_OVERRIDES: '{"dir.example":{"labels":{"uptime30d":["Verfügbarkeit"]}}}',
    });
    expect(config.SITE_OVERRIDES).toEqual({ "dir.example": { labels: { uptime30d: ["Verfügbarkeit"] } } });
  });

  it("when several values are bad, then all of them are reported at once", () => {
    const problems = problemsOf({ PORT: "x", LOG_LEVEL: "loud" });
    expect(problems.map((p) => p.split("=")[0])).toEqual(["PORT", "LOG_LEVEL"]);
  });
});

describe("TRUST_PROXY", () => {
  it.each([
    [undefined, false],
    ["false", false],
    ["1", 1],
    ["loopback", ["loopback"]],
    ["10.0.0.0/8, 192.168.1.7,::1", ["10.0.0.0/8", "192.168.1.7", "::1"]],
  ])("when it is %j, then Express's trust proxy gets %j", (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each(["true", "everyone", "10.0.0.0/33", "loopback,"])(
    "when it is %j (which would trust any X-Forwarded-For or is not an address), then it is refused",
    (value) => {
      expect(problemsOf({ TRUST_PROXY: value })[0]).toContain("TRUST_PROXY");
    },
  );

  it("when WEBHOOK_SECRET_KEY is 32 bytes in hex or base64, then it is read as those bytes; otherwise the problem never repeats the value", () => {
    const key = Buffer.alloc(32, 7);
    expect(loadConfig({ WEBHOOK_SECRET_KEY: key.toString("hex") }).WEBHOOK_SECRET_KEY).toEqual(key);
    expect(loadConfig({ WEBHOOK_SECRET_KEY: key.toString("base64") }).WEBHOOK_SECRET_KEY).toEqual(key);
    expect(
      loadConfig({ WEBHOOK_SECRET_OLD_KEYS: `${key.toString("hex")},${key.toString("base64url")}` }),
    ).toMatchObject({
      WEBHOOK_SECRET_OLD_KEYS: [key, key],
    });
    const short = key.subarray(0, 16).toString("hex");
    const problems = problemsOf({ WEBHOOK_SECRET_KEY: short, WEBHOOK_SECRET_OLD_KEYS: `x${short}` });
    expect(problems).toEqual([
      expect.stringMatching(/^WEBHOOK_SECRET_KEY=\(hidden\): must be 32 bytes in base64 or hex/),
      expect.stringMatching(/^WEBHOOK_SECRET_OLD_KEYS=\(hidden\): each entry must be 32 bytes/),
    ]);
    expect(problems.join(" ")).not.toContain(short);
  });
});
