// Tests of dra's IP addresses and CIDR prefixes against Go's net/netip as Kubernetes uses it.
#include <dra/core/ip.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace {

dra::ip_address parsed_ip(std::string_view text) {
  dra::ip_address a;
  const std::string why = dra::parse_ip(text, a);
  EXPECT_EQ(why, "") << text;
  return a;
}

dra::ip_prefix parsed_prefix(std::string_view text) {
  dra::ip_prefix p;
  const std::string why = dra::parse_prefix(text, p);
  EXPECT_EQ(why, "") << text;
  return p;
}

std::string why_not_ip(std::string_view text) {
  dra::ip_address a;
  return dra::parse_ip(text, a);
}

std::string why_not_prefix(std::string_view text) {
  dra::ip_prefix p;
  return dra::parse_prefix(text, p);
}

TEST(Ip, AddressesPrintCanonically) {
  EXPECT_EQ(dra::format_ip(parsed_ip("192.168.0.1")), "192.168.0.1");
  EXPECT_EQ(dra::format_ip(parsed_ip("2001:0db8:0:0:1:0:0:1")), "2001:db8::1:0:0:1");  // first of equal zero runs
  EXPECT_EQ(dra::format_ip(parsed_ip("::")), "::");
  EXPECT_EQ(dra::format_ip(parsed_ip("fe80:0:0:0:0:0:0:1")), "fe80::1");
}

TEST(Ip, RejectsWhatNetipRejects) {
  EXPECT_EQ(why_not_ip("01.2.3.4"), "parse error");  // leading zeros
  EXPECT_EQ(why_not_ip("1.2.3"), "parse error");
  EXPECT_EQ(why_not_ip("256.0.0.1"), "parse error");
  EXPECT_EQ(why_not_ip("fe80::1%eth0"), "with zone value is not allowed");
  EXPECT_EQ(why_not_ip("::ffff:1.2.3.4"), "IPv4-mapped IPv6 address is not allowed");
}

TEST(Ip, ClassifiesAddresses) {
  EXPECT_TRUE(dra::is_loopback(parsed_ip("127.0.0.2")));
  EXPECT_TRUE(dra::is_loopback(parsed_ip("::1")));
  EXPECT_TRUE(dra::is_unspecified(parsed_ip("0.0.0.0")));
  EXPECT_TRUE(dra::is_link_local_unicast(parsed_ip("169.254.1.1")));
  EXPECT_TRUE(dra::is_link_local_multicast(parsed_ip("ff02::1")));
  EXPECT_TRUE(dra::is_global_unicast(parsed_ip("8.8.8.8")));
  EXPECT_FALSE(dra::is_global_unicast(parsed_ip("255.255.255.255")));
}

TEST(Ip, PrefixesKeepTheAddressAsWrittenAndContainByMask) {
  const dra::ip_prefix p = parsed_prefix("10.1.2.3/16");
  EXPECT_EQ(dra::format_prefix(p), "10.1.2.3/16");
  EXPECT_EQ(dra::format_ip(dra::masked(p.address, p.bits)), "10.1.0.0");
  EXPECT_TRUE(dra::prefix_contains(p, parsed_ip("10.1.255.255")));
  EXPECT_FALSE(dra::prefix_contains(p, parsed_ip("10.2.0.0")));
  EXPECT_FALSE(dra::prefix_contains(parsed_prefix("::/0"), parsed_ip("10.1.0.0")));  // families differ
  EXPECT_EQ(why_not_prefix("10.0.0.0"), "no '/'");
  EXPECT_EQ(why_not_prefix("10.0.0.0/08"), "bad bits after slash");
  EXPECT_EQ(why_not_prefix("10.0.0.0/33"), "prefix length out of range");
}

}  // namespace
