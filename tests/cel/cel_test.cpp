// dra's own CEL tests (they run in a fresh clone without the shared conformance data).
#include <dra/cel/program.hpp>

#include <dra/cel/detail/time_zone.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace dra::cel;

// Compiles in the DRA environment and evaluates with no variables: the value shown, "error: …" or "compile: …".
std::string run(std::string_view expression) {
  static const auto env = make_dra_environment();
  auto p = compile(env, expression);
  if (!p) return "compile: " + p.error().message;
  value v = p.value().evaluate(activation{});
  if (v.is_error()) return "error: " + v.error_message();
  return std::string(type_name(v)) + ":" + lib::display(v);
}

TEST(CelLiterals, EveryForm) {
  EXPECT_EQ(run("-9223372036854775808"), "int:-9223372036854775808");
  EXPECT_EQ(run("9223372036854775808"), "compile: compilation failed: ERROR: <input>:1:1: invalid int literal");
  EXPECT_EQ(run("0x1Fu + 18446744073709551615u - 1u"), "error: unsigned integer overflow");
  EXPECT_EQ(run("0x1Fu"), "uint:31");
  EXPECT_EQ(run("1.5e3"), "double:1500");
  EXPECT_EQ(run(R"('a\x41\101\u00e9\U0001F600' == "aAAé😀")"), "bool:true");
  EXPECT_EQ(run(R"(r'\n' == '\\n')"), "bool:true");
  EXPECT_EQ(run("'''multi\nline''' == \"multi\\nline\""), "bool:true");
  EXPECT_EQ(run(R"(b'\xff\000' == bytes('\u00ff') )"), "bool:false");
  EXPECT_EQ(run("size(b'\\xff\\000')"), "int:2");
  EXPECT_EQ(run("null == null"), "bool:true");
  EXPECT_EQ(run("'\\ud800'").substr(0, 8), "compile:");
}

TEST(CelOperators, PrecedenceAndErrors) {
  EXPECT_EQ(run("1 + 2 * 3 - 4 / 2 % 3"), "int:5");
  EXPECT_EQ(run("true || false && false"), "bool:true");
  EXPECT_EQ(run("!true ? 1 : 2"), "int:2");
  EXPECT_EQ(run("1 / 0"), "error: division by zero");
  EXPECT_EQ(run("5 % 0"), "error: modulus by zero");
  EXPECT_EQ(run("9223372036854775807 + 1"), "error: integer overflow");
  EXPECT_EQ(run("-9223372036854775808 / -1"), "error: integer overflow");
  EXPECT_EQ(run("1 + 1u"), "compile: compilation failed: ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, uint)'");
  EXPECT_EQ(run("1 < 1.5 && 2u > 1 && 1.0 == dyn(1)"), "bool:true");
  EXPECT_EQ(run("'a' < 'b' && b'a' < b'b'"), "bool:true");
  EXPECT_EQ(run("(1 / 0 > 0) || true"), "bool:true");
  EXPECT_EQ(run("(1 / 0 > 0) && false"), "bool:false");
  EXPECT_EQ(run("(1 / 0 > 0) && true"), "error: division by zero");
}

TEST(CelCollections, ListsMapsAndMacros) {
  EXPECT_EQ(run("[1, 2, 3].map(x, x * 2)"), "list:[2, 4, 6]");
  EXPECT_EQ(run("[1, 2, 3].filter(x, x > 1)"), "list:[2, 3]");
  EXPECT_EQ(run("[1, 2, 3].exists_one(x, x > 2)"), "bool:true");
  EXPECT_EQ(run("{'a': 1, 'b': 2}.all(k, v, v > 0)"), "bool:true");
  EXPECT_EQ(run("[1, 2].transformList(i, v, i + v)"), "list:[1, 3]");
  EXPECT_EQ(run("{'a': 1}.transformMap(k, v, v + 1)"), "map:{a: 2}");
  EXPECT_EQ(run("{'a': 1}['b']"), "error: no such key: b");
  EXPECT_EQ(run("[1, 2][2]"), "error: index out of bounds: 2");
  EXPECT_EQ(run("[1, 'a']"), "compile: compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'");
  EXPECT_EQ(run("{'a': 1}.?b.orValue(7)"), "int:7");
  EXPECT_EQ(run("[?optional.none(), ?optional.of(3)]"), "list:[3]");
  EXPECT_EQ(run("sets.contains([1, 2, 3], [2]) && [3, 1, 2].sort() == [1, 2, 3] && [1, 2, 3].sum() == 6"), "bool:true");
  EXPECT_EQ(run("[1, 2, 3].max()"), "int:3");
  EXPECT_EQ(run("['bb', 'a', 'ccc'].sortBy(s, size(s))"), "list:[a, bb, ccc]");
  EXPECT_EQ(run("[[1], [2]].sort()").substr(0, 8), "compile:");
  EXPECT_EQ(run("optional.unwrap([optional.of(1), optional.none()]) == [optional.of(2)].unwrapOpt().map(x, x - 1)"), "bool:true");
  EXPECT_EQ(run("[5, 6].first().value() + [5, 6].last().value()"), "int:11");
}

TEST(CelStrings, StandardAndExtension) {
  EXPECT_EQ(run("'hello'.startsWith('he') && 'hello'.endsWith('lo') && 'hello'.contains('ell')"), "bool:true");
  EXPECT_EQ(run("'a-b-c'.split('-')"), "list:[a, b, c]");
  EXPECT_EQ(run("'tacocat'.substring(2, 4)"), "string:co");
  EXPECT_EQ(run("'  x '.trim()"), "string:x");
  EXPECT_EQ(run("'%s=%d'.format(['a', 1])"), "string:a=1");
  EXPECT_EQ(run("'%d'.format(['a'])").substr(0, 20), "compile: compilation");
  EXPECT_EQ(run("'gpu-12'.matches('^gpu-[0-9]+$')"), "bool:true");
  EXPECT_EQ(run("'a1b22'.findAll('[0-9]+')"), "list:[1, 22]");
  EXPECT_EQ(run("'x'.matches('(')").substr(0, 20), "compile: compilation");
}

TEST(CelKubernetes, QuantityAndSemver) {
  EXPECT_EQ(run("quantity('1Gi').isGreaterThan(quantity('1G'))"), "bool:true");
  EXPECT_EQ(run("quantity('1.5').isInteger()"), "bool:false");
  EXPECT_EQ(run("quantity('1k').add(24).asInteger()"), "int:1024");
  EXPECT_EQ(run("isQuantity('12Q')"), "bool:false");
  EXPECT_EQ(run("quantity('12Q')").substr(0, 6), "error:");
  EXPECT_EQ(run("semver('1.10.0').isGreaterThan(semver('1.9.9'))"), "bool:true");
  EXPECT_EQ(run("semver('v1.2', true).minor()"), "int:2");
  EXPECT_EQ(run("isSemver('1.2')"), "bool:false");
}

TEST(CelKubernetes, IpAndCidr) {
  EXPECT_EQ(run("ip('192.168.0.1').family() == 4 && ip('fd00::1').family() == 6"), "bool:true");
  EXPECT_EQ(run("string(ip('2001:DB8:0:0:0:0:0:1'))"), "string:2001:db8::1");
  EXPECT_EQ(run("string(ip('1:0:0:2:0:0:0:3'))"), "string:1:0:0:2::3");
  EXPECT_EQ(run("ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')"), "bool:true");
  EXPECT_EQ(run("isIP('010.0.0.1') || isIP('::ffff:1.2.3.4') || isIP('fe80::1%eth0') || isIP('1.2.3')"), "bool:false");
  EXPECT_EQ(run("ip('127.0.0.1').isLoopback() && ip('::1').isLoopback() && ip('0.0.0.0').isUnspecified()"), "bool:true");
  EXPECT_EQ(run("ip('169.254.1.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast() && ip('ff02::1').isLinkLocalMulticast()"), "bool:true");
  EXPECT_EQ(run("ip('8.8.8.8').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() && !ip('224.0.0.1').isGlobalUnicast()"), "bool:true");
  EXPECT_EQ(run("cidr('10.0.0.0/8').containsIP('10.1.2.3') && !cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))"), "bool:true");
  EXPECT_EQ(run("cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')"), "bool:true");
  EXPECT_EQ(run("string(cidr('10.1.2.3/8').masked()) + ' ' + string(cidr('10.1.2.3/8').ip())"), "string:10.0.0.0/8 10.1.2.3");
  EXPECT_EQ(run("cidr('fd00::/64').prefixLength()"), "int:64");
  EXPECT_EQ(run("isCIDR('10.0.0.0/33') || isCIDR('10.0.0.0/08') || isCIDR('10.0.0.0')"), "bool:false");
  EXPECT_EQ(run("ip('1.2.3.4') == ip('1.2.3.4') && cidr('1.0.0.0/8') != cidr('1.0.0.0/16')"), "bool:true");
  EXPECT_EQ(run("ip('nope')").substr(0, 6), "error:");
}

TEST(CelKubernetes, NamedFormats) {
  EXPECT_EQ(run("!format.dns1123Label().validate('my-name').hasValue()"), "bool:true");
  EXPECT_EQ(run("format.dns1123Label().validate('My_Name').value().size() == 1"), "bool:true");
  EXPECT_EQ(run("format.dns1123Label().validate('a.b').value()[0]"), "string:must not contain dots");
  EXPECT_EQ(run("format.named('dns1123Subdomain').value().validate('example.com').hasValue()"), "bool:false");
  EXPECT_EQ(run("format.named('nope').hasValue()"), "bool:false");
  EXPECT_EQ(run("format.dns1035Label().validate('1abc').hasValue() && !format.dns1123LabelPrefix().validate('gen-').hasValue()"), "bool:true");
  EXPECT_EQ(run("format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()"), "bool:false");
  EXPECT_EQ(run("format.uuid().validate('123e4567').value()"), "list:[does not match the UUID format]");
  EXPECT_EQ(run("format.byte().validate('aGVsbG8=').hasValue() || format.date().validate('2021-02-28').hasValue()"), "bool:false");
  EXPECT_EQ(run("format.date().validate('2021-02-29').hasValue() && format.byte().validate('aGVsbG8').hasValue()"), "bool:true");
  EXPECT_EQ(run("format.datetime().validate('2021-01-01T00:00:00Z').hasValue() || format.uri().validate('http://example.com').hasValue()"), "bool:false");
  EXPECT_EQ(run("format.uri().validate('example.com/path').hasValue() && format.qualifiedName().validate('a/b/c').hasValue()"), "bool:true");
  EXPECT_EQ(run("format.labelValue().validate(1)").substr(0, 8), "compile:");
}

TEST(CelKubernetes, Urls) {
  EXPECT_EQ(run("url('https://user@example.com:8443/a%20b?x=1&x=2&y=a+b#frag').getScheme()"), "string:https");
  EXPECT_EQ(run("url('https://user@example.com:8443/a%20b?x=1').getHost()"), "string:example.com:8443");
  EXPECT_EQ(run("url('https://example.com:8443/p').getHostname() + ' ' + url('https://example.com:8443/p').getPort()"),
            "string:example.com 8443");
  EXPECT_EQ(run("url('https://[::1]:80/').getHostname() + url('https://[::1]/').getPort()"), "string:::1");
  EXPECT_EQ(run("url('https://example.com/a%20b?x=1').getEscapedPath()"), "string:/a%20b");
  EXPECT_EQ(run("url('https://e.com/?x=1&x=2&y=a+b').getQuery()"), "map:{x: [1, 2], y: [a b]}");
  EXPECT_EQ(run("url('/relative/path').getScheme() == '' && isURL('/p') && !isURL('relative') && !isURL('http://e.com/%zz')"), "bool:true");
  EXPECT_EQ(run("url('relative')").substr(0, 6), "error:");
}

TEST(CelTime, TimestampsAndDurations) {
  EXPECT_EQ(run("timestamp('2023-02-03T23:31:20Z').getFullYear()"), "int:2023");
  EXPECT_EQ(run("timestamp('2023-02-03T23:31:20Z').getMonth()"), "int:1");
  EXPECT_EQ(run("timestamp('2023-02-03T23:31:20Z').getDayOfWeek()"), "int:5");
  EXPECT_EQ(run("timestamp('2023-02-03T23:31:20Z').getDayOfYear()"), "int:33");
  EXPECT_EQ(run("timestamp('2023-02-03T23:31:20Z').getHours('+02:00')"), "int:1");
  EXPECT_EQ(run("timestamp('2023-02-03T23:31:20.123Z').getMilliseconds()"), "int:123");
  EXPECT_EQ(run("duration('1h30m').getMinutes()"), "int:90");
  EXPECT_EQ(run("string(timestamp('2023-02-03T23:31:20Z') + duration('1h'))"), "string:2023-02-04T00:31:20Z");
  EXPECT_EQ(run("string(timestamp('2023-02-03T23:31:20Z') - duration('24h'))"), "string:2023-02-02T23:31:20Z");
  EXPECT_EQ(run("timestamp('2023-02-03T23:31:20Z') - timestamp('2023-02-03T23:31:00Z') == duration('20s')"), "bool:true");
  EXPECT_EQ(run("timestamp('2023-02-03T23:31:20Z').getHours('Mars/Olympus')").substr(0, 6), "error:");
}

// IANA zones come from the system's TZif files (Debian's tzdata); times after a file's last
// transition (2037 in Debian's files) follow its POSIX rule footer. Expected values are
// Python's zoneinfo on the same files.
TEST(CelTime, IanaZonesFollowTheZoneDatabase) {
  EXPECT_EQ(run("timestamp('2009-02-13T23:31:30Z').getHours('America/Los_Angeles')"), "int:15");  // PST
  EXPECT_EQ(run("timestamp('2009-07-13T23:31:30Z').getHours('America/Los_Angeles')"), "int:16");  // PDT
  EXPECT_EQ(run("timestamp('1900-01-01T12:00:00Z').getHours('America/Los_Angeles')"), "int:4");
  EXPECT_EQ(run("timestamp('2009-02-13T23:31:30Z').getMinutes('Asia/Kathmandu')"), "int:16");  // +05:45
  EXPECT_EQ(run("timestamp('2009-02-13T23:31:30Z').getDate('Asia/Kathmandu')"), "int:14");
  // Past the files' transitions: the footer's rules, north and south, at the very second.
  EXPECT_EQ(run("timestamp('2050-01-01T12:00:00Z').getHours('America/Los_Angeles')"), "int:4");
  EXPECT_EQ(run("timestamp('2050-07-01T12:00:00Z').getHours('America/Los_Angeles')"), "int:5");
  EXPECT_EQ(run("timestamp('2050-03-13T09:59:59Z').getHours('America/Los_Angeles')"), "int:1");
  EXPECT_EQ(run("timestamp('2050-03-13T10:00:00Z').getHours('America/Los_Angeles')"), "int:3");
  EXPECT_EQ(run("timestamp('2050-01-01T00:00:00Z').getHours('Australia/Sydney')"), "int:11");
  EXPECT_EQ(run("timestamp('2050-07-01T00:00:00Z').getHours('Australia/Sydney')"), "int:10");
  EXPECT_EQ(run("timestamp('2050-04-02T15:59:59Z').getHours('Australia/Sydney')"), "int:2");
  EXPECT_EQ(run("timestamp('2050-04-02T16:00:00Z').getMinutes('Australia/Sydney')"), "int:0");
  EXPECT_EQ(run("timestamp('2050-04-02T16:00:00Z').getHours('Australia/Sydney')"), "int:2");
  EXPECT_EQ(run("timestamp('2060-10-31T00:59:59Z').getHours('Europe/Paris')"), "int:2");
  EXPECT_EQ(run("timestamp('2060-10-31T01:00:00Z').getHours('Europe/Paris')"), "int:2");
  EXPECT_EQ(run("timestamp('2060-10-31T01:00:00Z').getMinutes('Europe/Paris')"), "int:0");
  EXPECT_EQ(run("timestamp('2060-10-30T23:00:00Z').getDate('Europe/Paris')"), "int:31");
  // Names Go's time.LoadLocation refuses, or that no file holds.
  for (const char* zone :
       {"../../etc/passwd", "/usr/share/zoneinfo/UTC", "America/Nowhere", "America/../UTC", "Local"}) {
    const std::string expr = std::string("timestamp('2009-02-13T23:31:30Z').getHours('") + zone + "')";
    EXPECT_EQ(run(expr), std::string("error: unknown time zone \"") + zone + "\"") << zone;
  }
}

TEST(CelTime, PosixRulesAreReadAsTzifFootersWriteThem) {
  using dra::cel::detail::parse_posix_rule;
  using dra::cel::detail::rule_offset;
  const auto nepal = parse_posix_rule("<+0545>-5:45");
  ASSERT_TRUE(nepal.has_value());
  EXPECT_EQ(nepal->std_offset, 5 * 3600 + 45 * 60);
  EXPECT_FALSE(nepal->dst_offset.has_value());
  const auto paris = parse_posix_rule("CET-1CEST,M3.5.0,M10.5.0/3");
  ASSERT_TRUE(paris.has_value());
  EXPECT_EQ(paris->std_offset, 3600);
  EXPECT_EQ(paris->dst_offset, 7200);
  EXPECT_EQ(paris->end.time, 3 * 3600);
  // 2060-10-31T00:59:59Z is the last second of summer time (the last Sunday of October).
  EXPECT_EQ(rule_offset(*paris, 2866409999), 7200);
  EXPECT_EQ(rule_offset(*paris, 2866410000), 3600);
  const auto julian = parse_posix_rule("XXX3YYY,J60/0,J300/0");  // day 60 is March 1, leap year or not
  ASSERT_TRUE(julian.has_value());
  EXPECT_EQ(rule_offset(*julian, 951868800 - 1), -3 * 3600);         // 2000-02-29T20:59:59 local: still winter
  EXPECT_EQ(rule_offset(*julian, 951868800 + 3 * 3600), -2 * 3600);  // March 1, 00:00 local: summer
  for (const char* bad : {"", "X3", "CET", "CET-1CEST,M13.1.0,M10.5.0", "CET-1CEST,M3.5.0", "<+05-5", "CET-99"})
    EXPECT_FALSE(parse_posix_rule(bad).has_value()) << bad;
}

TEST(CelLimits, DepthAndLength) {
  std::string deep(300, '(');
  deep += "1";
  deep += std::string(300, ')');
  EXPECT_NE(run(deep).find("recursion limit"), std::string::npos);
  // Left-nested chains count one level per link, as in cel-go: 300 additions are too deep …
  std::string sum = "1";
  for (int i = 0; i < 300; ++i) sum += "+1";
  EXPECT_NE(run(sum).find("recursion limit"), std::string::npos);
  // … while && and || chains are balanced trees, so a long one is fine (and no stack overflow).
  std::string conjunction = "true";
  for (int i = 0; i < 10'000; ++i) conjunction += "&&true";
  EXPECT_EQ(run(conjunction), "bool:true");
  std::string long_expr(100'001, ' ');
  long_expr += "1";
  EXPECT_NE(run(long_expr).find("exceeds limit"), std::string::npos);
}

}  // namespace
