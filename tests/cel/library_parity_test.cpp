// The DRA selector environment's functions against upstream's (Kubernetes 1.37, stored expressions):
// every declared function compiles and evaluates, functions and overloads upstream lacks do not
// compile, with cel-go's messages. The full table is in docs/upstream-differences.md.
#include "../support/source_dir.hpp"
#include <dra/cel/program.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace {

using namespace dra::cel;

// "value (type)" of a constant expression, "error: …" or "compile error: …".
std::string shown(std::string_view expression) {
  static const auto env = make_dra_environment();
  auto program = compile(env, expression);
  if (!program) return "compile error: " + program.error().message;
  const value v = program.value().evaluate(activation{});
  if (v.is_error()) return "error: " + v.error_message();
  return lib::display(v) + " (" + std::string(type_name(v)) + ")";
}

struct evaluation {
  std::string_view expression;
  std::string_view expected;
};

void expect_all(std::initializer_list<evaluation> cases) {
  for (const auto& c : cases) EXPECT_EQ(shown(c.expression), c.expected) << c.expression;
}

TEST(LibraryParity, KubernetesQuantityLibrary) {
  expect_all({
      {R"(quantity("1.5Gi"))", "1536Mi (kubernetes.Quantity)"},
      {R"(isQuantity("1.3G"))", "true (bool)"},
      {R"(isQuantity("200K"))", "false (bool)"},
      {R"(sign(quantity("-5")))", "-1 (int)"},
      {R"(sign(quantity("0")))", "0 (int)"},
      {R"(quantity("50k").isInteger())", "true (bool)"},
      {R"(quantity("50k").asInteger())", "50000 (int)"},
      {R"(quantity("50k").asApproximateFloat())", "50000 (double)"},
      {R"(quantity("50k").add(quantity("20k")))", "70k (kubernetes.Quantity)"},
      {R"(quantity("50k").add(20))", "50020 (kubernetes.Quantity)"},
      {R"(quantity("50k").sub(quantity("20k")))", "30k (kubernetes.Quantity)"},
      {R"(quantity("50k").sub(20000))", "30k (kubernetes.Quantity)"},
      {R"(quantity("150Mi").isGreaterThan(quantity("100Mi")))", "true (bool)"},
      {R"(quantity("50M").isLessThan(quantity("100M")))", "true (bool)"},
      {R"(quantity("50Mi").compareTo(quantity("50M")))", "1 (int)"},
  });
}

TEST(LibraryParity, KubernetesSemverLibraryVersion1) {
  expect_all({
      {R"(semver("1.2.3"))", "1.2.3 (kubernetes.Semver)"},
      {R"(semver("v01.01", true))", "1.1.0 (kubernetes.Semver)"},
      {R"(isSemver("1.2.3-beta.1+build.1"))", "true (bool)"},
      {R"(isSemver("v1.0.0"))", "false (bool)"},
      {R"(isSemver("01.01.01", true))", "true (bool)"},
      {R"(isSemver("1", true))", "true (bool)"},
      {R"(isSemver(" 1.0.0", true))", "false (bool)"},
      {R"(semver("1.2.3").major() + semver("1.2.3").minor() + semver("1.2.3").patch())", "6 (int)"},
      {R"(semver("1.2.3").isGreaterThan(semver("1.2.2")))", "true (bool)"},
      {R"(semver("1.2.3").isLessThan(semver("1.2.2")))", "false (bool)"},
      {R"(semver("1.2.3").compareTo(semver("2.0.0")))", "-1 (int)"},
      // blang/semver's message, as upstream returns it.
      {R"(semver("v1.0"))", "error: No Major.Minor.Patch elements found"},
      {R"(semver("1.2-rc", true))", "error: short version cannot contain PreRelease/Build meta data"},
      {R"(semver("1.2-rc.1", true))", "error: Invalid character(s) found in minor number \"2-rc\""},
  });
}

TEST(LibraryParity, KubernetesIpCidrUrlFormatRegexLibraries) {
  expect_all({
      {R"(ip("10.0.0.1").family())", "4 (int)"},
      {R"(isIP("::1") && ip("::1").isLoopback())", "true (bool)"},
      {R"(ip.isCanonical("2001:db8::1"))", "true (bool)"},
      {R"(string(ip("2001:db8::1")))", "2001:db8::1 (string)"},
      {R"(ip("0.0.0.0").isUnspecified() && ip("ff02::1").isLinkLocalMulticast())", "true (bool)"},
      {R"(ip("fe80::1").isLinkLocalUnicast() && ip("8.8.8.8").isGlobalUnicast())", "true (bool)"},
      {R"(cidr("10.0.0.0/8").containsIP("10.1.2.3") && cidr("10.0.0.0/8").containsIP(ip("10.1.2.3")))", "true (bool)"},
      {R"(cidr("10.0.0.0/8").containsCIDR("10.1.0.0/16") && cidr("10.0.0.0/8").containsCIDR(cidr("10.1.0.0/16")))", "true (bool)"},
      {R"(string(cidr("10.1.2.3/8").masked()) + " " + string(cidr("10.1.2.3/8").ip()))", "10.0.0.0/8 10.1.2.3 (string)"},
      {R"(isCIDR("10.0.0.0/8") && cidr("10.0.0.0/8").prefixLength() == 8)", "true (bool)"},
      {R"(url("https://example.com:80/a?x=1&x=2").getQuery())", "{x: [1, 2]} (map)"},
      {R"(url("https://example.com:80/a").getScheme() + url("https://example.com:80/a").getHost())", "httpsexample.com:80 (string)"},
      {R"(url("https://example.com:80/a").getHostname() + url("https://example.com:80/a").getPort())", "example.com80 (string)"},
      {R"(url("https://example.com/a%20b").getEscapedPath() + string(isURL("not a url")))", "/a%20bfalse (string)"},
      {R"(format.dns1123Label().validate("a-b").hasValue())", "false (bool)"},
      {R"(format.named("uuid").hasValue() && !format.named("nope").hasValue())", "true (bool)"},
      {R"("abc 123".find("[0-9]+"))", "123 (string)"},
      {R"("a1b2c3".findAll("[0-9]"))", "[1, 2, 3] (list)"},
      {R"("a1b2c3".findAll("[0-9]", 2))", "[1, 2] (list)"},
  });
}

TEST(LibraryParity, KubernetesListsLibraryVersion1) {
  expect_all({
      {"[1, 2, 3].isSorted()", "true (bool)"},
      {"['b', 'a'].isSorted()", "false (bool)"},
      {"[1, 2, 3].sum()", "6 (int)"},
      {"[1u, 2u].sum()", "3 (uint)"},
      {"[1.5, 2.5].sum()", "4 (double)"},
      {"[duration('1s'), duration('2s')].sum()", "3s (google.protobuf.Duration)"},
      // Each overload starts from its own type's zero.
      {"[1.0].slice(0, 0).sum()", "0 (double)"},
      {"[3, 1, 2].min()", "1 (int)"},
      {"['a', 'c', 'b'].max()", "c (string)"},
      {"[].max()", "error: max called on empty list"},
      {"[1, 2, 1].indexOf(1)", "0 (int)"},
      {"[1, 2, 1].lastIndexOf(1)", "2 (int)"},
      {"[1, 2].includes(2) && 'a'.includes('a')", "true (bool)"},
      // Not limited to 64 values, as DRA's own `includes` was before Kubernetes 1.37.
      {"lists.range(100).includes(99)", "true (bool)"},
      // cel-go's run-time type guards look at the first element: quantities and versions are
      // not among the declared element types.
      {R"(dyn([semver("1.0.0")]).max())", "error: no such overload: max(list)"},
      {R"(dyn([quantity("1")]).isSorted())", "error: no such overload: isSorted(list)"},
  });
}

TEST(LibraryParity, CelExtensionsListsSetsStringsOptionalsComprehensions) {
  expect_all({
      {"[1, 2, 3].slice(1, 2)", "[2] (list)"},
      {"[[1], [2, 3]].flatten()", "[1, 2, 3] (list)"},
      {"[[[1]], [[2], [3]]].flatten(2)", "[1, 2, 3] (list)"},
      {"[dyn(1), dyn([2])].flatten()", "[1, 2] (list)"},
      {"[3, 1, 2].sort()", "[1, 2, 3] (list)"},
      {"[3, 1, 2].sortBy(x, -x)", "[3, 2, 1] (list)"},
      {R"(dyn([semver("1.0.0")]).sort())", "error: list elements must be comparable"},
      {"lists.range(3).reverse()", "[2, 1, 0] (list)"},
      {"[1, 1, 2].distinct()", "[1, 2] (list)"},
      {"sets.contains([1, 2], [2]) && sets.equivalent([1, 2], [2, 1, 1]) && sets.intersects([1], [1, 3])", "true (bool)"},
      {"'hello'.charAt(1) + 'hello'.upperAscii() + 'HeLLo'.lowerAscii()", "eHELLOhello (string)"},
      {"'hello'.indexOf('l') + 'hello'.indexOf('l', 3) + 'hello'.lastIndexOf('l') + 'hello'.lastIndexOf('l', 2)", "10 (int)"},
      {"'a,b,c'.split(',') + 'a,b,c'.split(',', 2)", "[a, b, c, a, b,c] (list)"},
      {"'aaa'.replace('a', 'b') + 'aaa'.replace('a', 'b', 1) + ' x '.trim()", "bbbbaax (string)"},
      {"'hello'.substring(1) + 'hello'.substring(1, 2)", "elloe (string)"},
      {"['a', 'b'].join() + ['a', 'b'].join('-')", "aba-b (string)"},
      {"'%d %s'.format([1, 'x']) + strings.quote('a\"b')", R"(1 x"a\"b" (string))"},
      {"optional.of(1).value() + optional.ofNonZeroValue(0).orValue(2) + optional.none().or(optional.of(3)).value()", "6 (int)"},
      {"optional.of(1).optMap(x, x + 1).value() + optional.of(1).optFlatMap(x, optional.of(x)).value()", "3 (int)"},
      {"[1, 2].first().value() + [1, 2].last().value() + {'a': 1}[?'a'].value() + {'a': {'b': 2}}.?a.?b.value()", "6 (int)"},
      {"optional.unwrap([optional.of(1), optional.none()]) + [optional.of(2)].unwrapOpt()", "[1, 2] (list)"},
      {"[1, 2].all(i, v, i < v) && {'a': 1}.exists(k, v, v == 1) && [1, 2].existsOne(i, v, v == 2)", "true (bool)"},
      {"[1, 2].transformList(i, v, v * 2) + [1, 2].transformList(i, v, i > 0, v)", "[2, 4, 2] (list)"},
      {"{'a': 1}.transformMap(k, v, v + 1) == {'a': 2} && {'a': 1}.transformMapEntry(k, v, {v: k}) == {1: 'a'}", "true (bool)"},
      {"cel.bind(x, 2, x * x)", "4 (int)"},
  });
}

// cel-go's older spellings of `in` and of the comprehension's error-tolerant test are identifiers.
TEST(LibraryParity, OldOperatorSpellingsAreCallable) {
  expect_all({
      {"_in_(1, [1, 2]) && _in_('a', {'a': 1}) && !_in_(3, [1, 2])", "true (bool)"},
      {"__not_strictly_false__(1 / 0 == 1) && !__not_strictly_false__(false)", "true (bool)"},
  });
}

// Functions and overloads upstream's environment does not declare fail to compile, with cel-go's
// message; a call is placed at its opening parenthesis, as cel-go does.
TEST(LibraryParity, UndeclaredOverloadsDoNotCompile) {
  expect_all({
      {R"(quantity("1").sign() == 1)",
       "compile error: compilation failed: ERROR: <input>:1:19: found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'"},
      {R"([quantity("1")].max() == quantity("1"))",
       "compile error: compilation failed: ERROR: <input>:1:20: found no matching overload for 'max' applied to 'list(kubernetes.Quantity).()'"},
      {R"([semver("1.0.0")].isSorted())",
       "compile error: compilation failed: ERROR: <input>:1:27: found no matching overload for 'isSorted' applied to 'list(kubernetes.Semver).()'"},
      {"[true].sum() == 1",
       "compile error: compilation failed: ERROR: <input>:1:11: found no matching overload for 'sum' applied to 'list(bool).()'"},
      {"[1, 2].flatten() == [1]",
       "compile error: compilation failed: ERROR: <input>:1:15: found no matching overload for 'flatten' applied to 'list(int).()'"},
      {"[quantity('1')].sort() == []",
       "compile error: compilation failed: ERROR: <input>:1:21: found no matching overload for 'sort' applied to 'list(kubernetes.Quantity).()'"},
      // Strings version 3 (reverse), the math, encoders, regex extensions and jsonpatch are not there.
      {"'abc'.reverse() == 'cba'",
       "compile error: compilation failed: ERROR: <input>:1:14: found no matching overload for 'reverse' applied to 'string.()'"},
      {"math.greatest(1, 2) == 2", "compile error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'math' (in container '')"},
      {"base64.encode(b'a') == 'YQ=='", "compile error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'base64' (in container '')"},
      {"quantity('1').mul(2) == quantity('2')",
       "compile error: compilation failed: ERROR: <input>:1:18: undeclared reference to 'mul' (in container '')"},
      {"f_unknown(17)", "compile error: compilation failed: ERROR: <input>:1:10: undeclared reference to 'f_unknown' (in container '')"},
      {"duration('320000000000s') > duration('1s')", "compile error: compilation failed: ERROR: <input>:1:10: invalid duration argument"},
  });
}

// Macro variables and format arguments: cel-go's words and positions.
TEST(LibraryParity, MacroAndFormatErrorsReadAsCelGos) {
  const std::string failed = "compile error: compilation failed: ERROR: <input>:1:";
  expect_all({
      {"[1].map(1, 1) == [1]", failed + "9: argument is not an identifier"},
      {"[1].all(1, true)", failed + "9: argument must be a simple name"},
      {"optional.of(1).optMap(1, 1) == optional.of(1)", failed + "23: optMap() variable name must be a simple identifier"},
      {"cel.bind(1, 1, true)", failed + "10: cel.bind() variable names must be simple identifiers"},
      {R"("%d".format(["a"]) == "")", failed + "14: error during formatting: decimal clause can only be used on integers, was given string"},
  });
}

std::string repeated(std::string_view text, int times) {
  std::string out;
  for (int k = 0; k < times; ++k) out += text;
  return out;
}

// sortBy binds its list once, as cel-go's expansion does; copying it would double the tree at
// each link of a chain (fuzz_cel's finding, tests/fuzz/corpus/cel/sortby-chain-oom.cel, took
// more than 4 GB while parsing that way). optMap and optFlatMap copy their target as cel-go does, within a
// bound of dra's own.
TEST(LibraryParity, ChainedMacrosDoNotGrowTheTreeExponentially) {
  const std::string failed = "compile error: compilation failed: ERROR: <input>:1:";
  std::ifstream finding(std::filesystem::path(dra_test::source_dir()) / "tests/fuzz/corpus/cel/sortby-chain-oom.cel");
  ASSERT_TRUE(finding);
  const std::string fuzzed((std::istreambuf_iterator<char>(finding)), std::istreambuf_iterator<char>());
  EXPECT_EQ(shown(fuzzed), failed + "880: Syntax error: mismatched input '<EOF>'");
  EXPECT_EQ(shown("lists.range(10)" + repeated(".sortBy(x, -x).distinct()", 60) + ".reverse()"),
            "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9] (list)");
  EXPECT_EQ(shown("1.sortBy(x, x)"), failed + "1: sortBy can only be applied to a list, identifier, comprehension, call or select expression");
  EXPECT_EQ(shown("[1].sortBy(x, x) == [1] && {1: 2}.sortBy(x, x) == [1]"), failed + "28: sortBy can only be applied to a list, identifier, comprehension, call or select expression");
  EXPECT_EQ(shown("optional.of(1)" + repeated(".optMap(x, x + 1)", 12) + ".value()"), "13 (int)");
  EXPECT_EQ(shown("optional.of(1)" + repeated(".optMap(x, x + 1)", 40) + ".value()"), failed + "226: expression too large: macro expansion copies more than 100000 nodes");
}

// Functions whose work outgrows their input are charged before the work, so the cost limit stops
// them at once: these ran for minutes to hours (distinct, sets) or built hundreds of megabytes
// (replace) before being charged. Their results on small inputs are unchanged.
TEST(LibraryParity, QuadraticAndGrowingFunctionsStopAtTheCostLimitBeforeWorking) {
  const std::string stopped = "error: operation cancelled: actual cost limit exceeded";
  expect_all({
      {"lists.range(20000).distinct().size() > 0", stopped},
      {"sets.contains(lists.range(20000), lists.range(20000))", stopped},
      {"sets.equivalent(lists.range(20000), lists.range(20000))", stopped},
      {"sets.intersects(lists.range(20000), lists.range(20000))", stopped},
      {"[1, 2, 1, 3, 2].distinct()", "[1, 2, 3] (list)"},
      {"sets.contains([1, 2, 3], [3, 1]) && sets.equivalent([1, 2], [2, 1, 1]) && sets.intersects([1], [2, 1])", "true (bool)"},
      {"'abcb'.replace('b', 'xx') + 'ab'.replace('', '-') + 'aaa'.replace('a', 'bb', 2)", "axxcxx-a-b-bbbba (string)"},
  });
  EXPECT_EQ(shown("'aaaa'" + repeated(".replace('a', 'aaaa')", 14) + ".size() > 0"), stopped);
}

// The authorizer libraries are declared (a dyn receiver compiles) but no value can reach them.
TEST(LibraryParity, AuthorizerFunctionsCompileOnDynAndFailWhenEvaluated) {
  expect_all({
      {"dyn(1).path('/healthz').check('get').allowed()", "error: no such overload: path(int, string)"},
      {"dyn(1).group('').resource('pods').namespace('a').name('b').labelSelector('x=y').check('list').reason() == ''",
       "error: no such overload: group(int, string)"},
      {"1.allowed()", "compile error: compilation failed: ERROR: <input>:1:10: found no matching overload for 'allowed' applied to 'int.()'"},
  });
}

// docs/cel-functions.md lists every overload ("| `name` | `id` | …" under "## Every overload"):
// the list and the environment must agree.
TEST(LibraryParity, DocumentedTableIsTheFunctionTable) {
  std::ifstream doc(std::filesystem::path(dra_test::source_dir()) / "docs/cel-functions.md");
  ASSERT_TRUE(doc) << "docs/cel-functions.md not found";
  std::multiset<std::pair<std::string, std::string>> documented, declared;
  bool in_table = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.starts_with("## ")) in_table = line == "## Every overload";
    if (!in_table || !line.starts_with("| `")) continue;
    const auto name_end = line.find("` | `", 3);
    if (name_end == std::string::npos) continue;
    const auto id_end = line.find("` |", name_end + 5);
    documented.emplace(line.substr(3, name_end - 3), line.substr(name_end + 5, id_end - name_end - 5));
  }
  const auto env = make_dra_environment();
  for (const auto& [name, overloads] : env->functions.entries())
    for (const auto& o : overloads) declared.emplace(name, o->id);
  EXPECT_EQ(documented, declared);
  EXPECT_EQ(declared.size(), 324u);
}

}  // namespace
