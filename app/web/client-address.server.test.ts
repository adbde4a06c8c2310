import { describe, expect, it } from "vitest";
import { throttleKeyOfAddress } from "./client-address.server";

describe("the address every per-address throttle counts on", () => {
  it("is an IPv6 address's /64: every address one network hands out counts as one client", () => {
    const network = "2001:db8:abcd:12::/64";
    for (const address of [
      "2001:db8:abcd:12::1",
      "2001:db8:abcd:12:ffff:ffff:ffff:ffff",
      "2001:0DB8:ABCD:0012:0000:0000:0000:0002",
      "2001:db8:abcd:12:1234:5678:9abc:def0",
      "2001:db8:abcd:12::1%eth0",
    ]) {
      expect(throttleKeyOfAddress(address), address).toBe(network);
    }
    expect(throttleKeyOfAddress("2001:db8:abcd:13::1")).toBe("2001:db8:abcd:13::/64");
    expect(throttleKeyOfAddress("::1")).toBe("0:0:0:0::/64");
    expect(throttleKeyOfAddress("fe80::1")).toBe("fe80:0:0:0::/64");
    expect(throttleKeyOfAddress("2001:db8::")).toBe("2001:db8:0:0::/64");
  });

  it("is the IPv4 address itself, also when written as an IPv4-mapped IPv6 address", () => {
    for (const address of [
      "198.51.100.7",
      "::ffff:198.51.100.7",
      "::FFFF:198.51.100.7",
      "::ffff:c633:6407",
      "0:0:0:0:0:ffff:c633:6407",
    ]) {
      expect(throttleKeyOfAddress(address), address).toBe("198.51.100.7");
    }
    expect(throttleKeyOfAddress("198.51.100.8")).toBe("198.51.100.8");
  });

  it("leaves what is not an address as it is", () => {
    expect(throttleKeyOfAddress("unknown")).toBe("unknown");
    expect(throttleKeyOfAddress("")).toBe("");
  });
});
