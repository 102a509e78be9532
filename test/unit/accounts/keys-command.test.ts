import { describe, expect, it } from "vitest";
import { parseKeysCommand, UsageError } from "../../../src/accounts/keys-command";

const ID = "6d1f0a52-0000-4000-8000-000000000000";

describe("parseKeysCommand", () => {
  it.each([
    [
      ["create", "--org", "acme", "--env", "live", "--scope", "catalogue:read", "--scope", "keys:write"],
      { command: "create", org: "acme", env: "live", scope: ["catalogue:read", "keys:write"], json: false },
    ],
    [
      ["create", "--org=acme", "--env=test", "--scope", "catalogue:read, catalogue:export"],
      {
        command: "create",
        org: "acme",
        env: "test",
        scope: ["catalogue:read", "catalogue:export"],
        json: false,
      },
    ],
    [
      ["create", "--org", "acme", "--env", "live", "--scope", "catalogue:read", "--name", "ci", "--json"],
      { command: "create", org: "acme", env: "live", scope: ["catalogue:read"], name: "ci", json: true },
    ],
    [["list", "--org", "acme"], { command: "list", org: "acme", json: false }],
    [
      ["list", "--org", "acme", "--env", "test", "--json"],
      { command: "list", org: "acme", env: "test", json: true },
    ],
    [["revoke", "--id", ID], { command: "revoke", id: ID, json: false }],
  ])("when the arguments are %j, then the command is %j", (argv, expected) => {
    expect(parseKeysCommand(argv)).toEqual(expected);
  });

  it.each([
    [[], "name one command"],
    [["create", "list"], "name one command"],
    [["rotate", "--id", ID], "unknown command"],
    [["create", "--org", "acme", "--env", "prod", "--scope", "keys:write"], "--env must be live or test"],
    [["create", "--org", "acme", "--env", "live"], "create needs at least one --scope"],
    [["create", "--org", "acme", "--env", "live", "--scope", "admin"], "--scope must be one of"],
    [["create", "--org", " ", "--env", "live", "--scope", "keys:write"], "--org must not be empty"],
    [["revoke", "--id", "42"], "--id must be a key id"],
    [["list", "--org", "acme", "--colour"], "Unknown option"],
  ])("when the arguments are %j, then a usage error says %s", (argv, message) => {
    expect(() => parseKeysCommand(argv)).toThrow(UsageError);
    expect(() => parseKeysCommand(argv)).toThrow(message);
  });
});
