import { describe, expect, it } from "vitest";
import { type AddressClass, classifyAddress, isAddressAllowed } from "../../src/collect/index.js";

const cases: Array<[string, AddressClass]> = [
  // IPv4
  ["8.8.8.8", "public"],
  ["1.1.1.1", "public"],
  ["93.184.216.34", "public"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["172.15.255.255", "public"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["172.32.0.1", "public"],
  ["192.168.1.1", "private"],
  ["192.169.0.1", "public"],
  ["100.63.255.255", "public"],
  ["100.64.0.1", "cgnat"],
  ["100.127.255.255", "cgnat"],
  ["100.128.0.1", "public"],
  ["169.254.169.254", "link_local"],
  ["169.253.0.1", "public"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.255", "reserved"],
  ["192.0.0.8", "reserved"],
  ["192.0.2.1", "reserved"],
  ["198.51.100.7", "reserved"],
  ["203.0.113.9", "reserved"],
  ["198.18.0.1", "reserved"],
  ["198.20.0.1", "public"],
  // IPv6
  ["2606:4700:4700::1111", "public"],
  ["2a00:1450:4001:82a::200e", "public"],
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["fe80::1", "link_local"],
  ["fe80::1%eth0", "link_local"],
  ["febf::1", "link_local"],
  ["fc00::1", "unique_local"],
  ["fd12:3456:789a::1", "unique_local"],
  ["fec0::1", "private"],
  ["ff02::1", "multicast"],
  ["2001:db8::1", "reserved"],
  ["2001:0:4136:e378::1", "reserved"],
  ["100::1", "reserved"],
  ["4000::1", "reserved"],
  // IPv4 inside IPv6
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:169.254.169.254", "link_local"],
  ["::ffff:8.8.8.8", "public"],
  ["0:0:0:0:0:ffff:c0a8:0101", "private"],
  ["::127.0.0.1", "reserved"],
  ["64:ff9b::10.0.0.1", "private"],
  ["64:ff9b::8.8.8.8", "public"],
  ["2002:c0a8:0101::1", "private"],
  ["2002:0808:0808::1", "public"],
  // not addresses
  ["example.com", "invalid"],
  ["256.1.1.1", "invalid"],
  ["", "invalid"],
];

describe("the address classifier", () => {
  it.each(cases)("classifies %s as %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it("allows only public addresses, and loopback only with the test switch", () => {
    expect(isAddressAllowed("8.8.8.8")).toBe(true);
    expect(isAddressAllowed("2606:4700:4700::1111")).toBe(true);
    expect(isAddressAllowed("127.0.0.1")).toBe(false);
    expect(isAddressAllowed("::1")).toBe(false);
    expect(isAddressAllowed("127.0.0.1", { allowLoopback: true })).toBe(true);
    expect(isAddressAllowed("::ffff:127.0.0.1", { allowLoopback: true })).toBe(true);
    expect(isAddressAllowed("10.0.0.1", { allowLoopback: true })).toBe(false);
    expect(isAddressAllowed("169.254.169.254", { allowLoopback: true })).toBe(false);
    expect(isAddressAllowed("not an address")).toBe(false);
  });
});
