import ipaddr from "ipaddr.js";

/**
 * Which addresses a probe may connect to. Endpoint URLs come from third-party listings, so a
 * listing (or a redirect) must not be able to point our prober at our own network or at a cloud
 * metadata service. Only globally routable unicast addresses pass, unless an operator allows a
 * range explicitly (tests allow loopback); metadata addresses are refused even then.
 */

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Instance metadata services: AWS/GCP/Azure/OpenStack (169.254.169.254), AWS over IPv6
 * (fd00:ec2::254), Alibaba (100.100.100.200), Oracle (192.0.0.192) and Azure's wire server
 * (168.63.129.16, a public address that only answers from inside Azure).
 */
const METADATA = ["169.254.169.254", "fd00:ec2::254", "100.100.100.200", "192.0.0.192", "168.63.129.16"].map(
  (text) => ipaddr.parse(text).toNormalizedString(),
);

const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");
/** Deprecated IPv4-compatible addresses (::a.b.c.d); ipaddr.js calls them unicast, nothing should use them. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR("::/96");

/** IPv6 ranges that carry an IPv4 address: the verdict is the embedded address's. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const bytes = address.toByteArray();
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (RFC 6145) and 64:ff9b::a.b.c.d (NAT64 well-known
  // prefix) keep the IPv4 address in the last 32 bits.
  if (range === "ipv4Mapped" || range === "rfc6145" || address.match(NAT64_WELL_KNOWN)) {
    return ipaddr.IPv4.parse(bytes.slice(12).join("."));
  }
  // 2002:aabb:ccdd::/48 (6to4) embeds a.b.c.d right after the prefix.
  if (range === "6to4") return ipaddr.IPv4.parse(bytes.slice(2, 6).join("."));
  return null;
}

/** The guard with an operator's allow-list (CIDR ranges) applied. */
export class AddressPolicy {
  private readonly allowed: [Address, number][];

  constructor(allowedNetworks: readonly string[] = []) {
    this.allowed = allowedNetworks.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  check(text: string): AddressVerdict {
    if (!ipaddr.isValid(text)) return { allowed: false, reason: `not an IP address: ${text}` };
    const parsed = ipaddr.parse(text);
    const embedded = parsed.kind() === "ipv6" ? embeddedIPv4(parsed as ipaddr.IPv6) : null;
    // Every form of the address is judged, so ::ffff:169.254.169.254 is the metadata address too.
    const forms: Address[] = embedded === null ? [parsed] : [parsed, embedded];
    for (const form of forms) {
      if (METADATA.includes(form.toNormalizedString())) {
        return { allowed: false, reason: `${text} is a cloud metadata address` };
      }
    }
    if (forms.some((form) => this.isAllowListed(form))) return { allowed: true };
    const range = (embedded ?? parsed).range();
    if (range === "unicast" && parsed.kind() === "ipv6" && parsed.match(IPV4_COMPATIBLE)) {
      return { allowed: false, reason: `${text} is a deprecated IPv4-compatible address` };
    }
    if (range === "unicast") return { allowed: true };
    // NAT64 local-use prefixes (64:ff9b:1::/48) and every other special IPv6 range land here.
    return { allowed: false, reason: `${text} is a ${range} address` };
  }

  /** Inside an operator's allowed range (webhooks accept plain http only there). */
  allowListed(text: string): boolean {
    if (!ipaddr.isValid(text)) return false;
    const parsed = ipaddr.parse(text);
    const embedded = parsed.kind() === "ipv6" ? embeddedIPv4(parsed as ipaddr.IPv6) : null;
    return [parsed, ...(embedded ? [embedded] : [])].some((form) => this.isAllowListed(form));
  }

  private isAllowListed(address: Address): boolean {
    return this.allowed.some(
      ([network, bits]) => address.kind() === network.kind() && address.match(network, bits),
    );
  }
}
