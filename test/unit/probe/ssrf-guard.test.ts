import { describe, expect, it } from "vitest";
import { AddressPolicy } from "../../../src/probe/ssrf-guard";

const strict = new AddressPolicy();

describe("AddressPolicy without an allow-list", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.1.1", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.127.255.255", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["2001::1", "teredo"],
    ["64:ff9b:1::a00:1", "rfc6052"],
  ])("when the address is %s, then it is refused as %s", (address, range) => {
    expect(strict.check(address)).toEqual({ allowed: false, reason: `${address} is a ${range} address` });
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:192.168.0.10", "private"],
    ["::ffff:0:10.0.0.1", "private"],
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::7f00:1", "loopback"],
    ["2002:a00:1::", "private"],
    ["2002:7f00:1::1", "loopback"],
  ])(
    "when the IPv6 address %s embeds a %s IPv4 address, then it is refused like that address",
    (address, range) => {
      expect(strict.check(address)).toEqual({ allowed: false, reason: `${address} is a ${range} address` });
    },
  );

  it.each([
    "169.254.169.254",
    "100.100.100.200",
    "192.0.0.192",
    "168.63.129.16",
    "fd00:ec2::254",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "64:ff9b::a9fe:a9fe",
    "2002:a9fe:a9fe::",
  ])(
    "when the address is the metadata address %s in any spelling, then it is refused as metadata",
    (address) => {
      expect(strict.check(address)).toEqual({
        allowed: false,
        reason: `${address} is a cloud metadata address`,
      });
    },
  );

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "172.15.255.255",
    "100.128.0.1",
    "11.0.0.1",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::",
  ])("when the address is the public %s, then it is allowed", (address) => {
    expect(strict.check(address)).toEqual({ allowed: true });
  });

  it("when the address is a deprecated IPv4-compatible one, then it is refused", () => {
    expect(strict.check("::2")).toEqual({
      allowed: false,
      reason: "::2 is a deprecated IPv4-compatible address",
    });
    // ipaddr.js reads ::a.b.c.d as IPv4-mapped, so the embedded address decides.
    expect(strict.check("::10.0.0.1")).toEqual({ allowed: false, reason: "::10.0.0.1 is a private address" });
  });

  it("when the text is not an IP address, then it is refused", () => {
    expect(strict.check("example.com")).toEqual({ allowed: false, reason: "not an IP address: example.com" });
  });
});

describe("AddressPolicy with an allow-list", () => {
  const loopback = new AddressPolicy(["127.0.0.0/8", "::1/128"]);

  it("when loopback is allowed, then loopback addresses pass in both families and as mapped IPv6", () => {
    for (const address of ["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"]) {
      expect(loopback.check(address), address).toEqual({ allowed: true });
    }
  });

  it("when loopback is allowed, then other private ranges are still refused", () => {
    for (const address of ["10.0.0.1", "192.168.0.1", "169.254.1.1", "fc00::1", "::2"]) {
      expect(loopback.check(address).allowed, address).toBe(false);
    }
  });

  it("when a range containing a metadata address is allowed, then the metadata address is still refused", () => {
    const linkLocal = new AddressPolicy(["169.254.0.0/16", "fd00::/8", "100.64.0.0/10"]);
    expect(linkLocal.check("169.254.1.1")).toEqual({ allowed: true });
    expect(linkLocal.check("169.254.169.254").allowed).toBe(false);
    expect(linkLocal.check("fd00:ec2::254").allowed).toBe(false);
    expect(linkLocal.check("100.100.100.200").allowed).toBe(false);
  });

  it("when a single private address is allowed, then its neighbours are not", () => {
    const one = new AddressPolicy(["10.1.2.3/32"]);
    expect(one.check("10.1.2.3")).toEqual({ allowed: true });
    expect(one.check("10.1.2.4").allowed).toBe(false);
  });
});
