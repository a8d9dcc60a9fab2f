// Tests of Kubernetes' name rules as dra::names implements them.
#include <dra/core/names.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

namespace names = dra::names;

bool valid(const names::problems& p) { return p.empty(); }

TEST(Names, Dns1123Label) {
  for (const char* ok : {"a", "abc", "my-name", "123-abc", "0", "a1"})
    EXPECT_TRUE(valid(names::dns1123_label(ok))) << ok;
  EXPECT_TRUE(valid(names::dns1123_label(std::string(63, 'a'))));
  for (const char* bad : {"", "-a", "a-", "A", "a_b", "a b", "ä"}) {
    auto p = names::dns1123_label(bad);
    ASSERT_EQ(p.size(), 1u) << bad;
    EXPECT_EQ(p[0],
              "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
              "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
              "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
        << bad;
  }
  EXPECT_EQ(names::dns1123_label("a.b"), names::problems{"must not contain dots"});
  EXPECT_EQ(names::dns1123_label(std::string(64, 'a')), names::problems{"must be no more than 63 characters"});
}

TEST(Names, Dns1123Subdomain) {
  for (const char* ok : {"a", "example.com", "gpu.example.com", "a-b.c-d", "1.2.3"})
    EXPECT_TRUE(valid(names::dns1123_subdomain(ok))) << ok;
  EXPECT_TRUE(valid(names::dns1123_subdomain(std::string(63, 'a') + "." + std::string(63, 'b') + "." +
                                             std::string(63, 'c') + "." + std::string(61, 'd'))));  // 253
  for (const char* bad : {"", ".a", "a.", "a..b", "A.com", "a_b.com", "-a.com"}) {
    auto p = names::dns1123_subdomain(bad);
    ASSERT_EQ(p.size(), 1u) << bad;
    EXPECT_NE(p[0].find("a lowercase RFC 1123 subdomain must consist of"), std::string::npos) << bad;
    EXPECT_NE(p[0].find("(e.g. 'example.com', regex used"), std::string::npos) << p[0];
  }
  std::string too_long = std::string(63, 'a') + "." + std::string(63, 'b') + "." + std::string(63, 'c') + "." +
                         std::string(62, 'd');  // 254
  EXPECT_EQ(names::dns1123_subdomain(too_long), names::problems{"must be no more than 253 characters"});
}

TEST(Names, CIdentifier) {
  for (const char* ok : {"a", "_", "my_name", "MY_NAME", "MyName", "a1", "_1"})
    EXPECT_TRUE(valid(names::c_identifier(ok))) << ok;
  for (const char* bad : {"", "1a", "a-b", "a.b", "a b"}) {
    auto p = names::c_identifier(bad);
    ASSERT_EQ(p.size(), 1u) << bad;
    EXPECT_NE(p[0].find("a valid C identifier must start with alphabetic character or '_'"), std::string::npos);
  }
}

TEST(Names, LabelKeysAndValues) {
  for (const char* ok : {"a", "kubernetes.io/hostname", "example.com/MyName", "my.name", "123-abc", "A_b"})
    EXPECT_TRUE(valid(names::label_key(ok))) << ok;
  EXPECT_TRUE(valid(names::label_key(std::string(63, 'k'))));
  EXPECT_EQ(names::label_key(std::string(64, 'k')), names::problems{"name part must be no more than 63 characters"});
  EXPECT_EQ(names::label_key("/a"), names::problems{"prefix part must be non-empty"});
  auto empty_name = names::label_key("a/");
  ASSERT_FALSE(empty_name.empty());
  EXPECT_EQ(empty_name[0], "name part must be non-empty");
  auto two_slashes = names::label_key("a/b/c");
  ASSERT_EQ(two_slashes.size(), 1u);
  EXPECT_NE(two_slashes[0].find("a valid label key must consist of"), std::string::npos);
  auto bad_prefix = names::label_key("Example.com/a");
  ASSERT_EQ(bad_prefix.size(), 1u);
  EXPECT_EQ(bad_prefix[0].rfind("prefix part a lowercase RFC 1123 subdomain", 0), 0u);

  for (const char* ok : {"", "a", "MyValue", "my_value", "12345", "a.b-c_d"})
    EXPECT_TRUE(valid(names::label_value(ok))) << ok;
  EXPECT_TRUE(valid(names::label_value(std::string(63, 'v'))));
  EXPECT_EQ(names::label_value(std::string(64, 'v')), names::problems{"must be no more than 63 characters"});
  for (const char* bad : {"-a", "a-", "a b", "a/b"}) EXPECT_EQ(names::label_value(bad).size(), 1u) << bad;
}

TEST(Names, DraQualifiedNames) {
  for (const char* ok : {"model", "gpu.example.com/model", "dra.example.com/memory_size", "_x"})
    EXPECT_TRUE(valid(names::qualified_name(ok))) << ok;
  EXPECT_TRUE(valid(names::qualified_name(std::string(32, 'i'))));
  EXPECT_EQ(names::qualified_name(std::string(33, 'i')), names::problems{"must be no more than 32 characters"});
  EXPECT_TRUE(valid(names::qualified_name(std::string(63, 'd') + "/id")));
  EXPECT_EQ(names::qualified_name(std::string(64, 'd') + "/id"), names::problems{"must be no more than 63 characters"});
  EXPECT_EQ(names::qualified_name(""), names::problems{"name required"});
  EXPECT_EQ(names::qualified_name("/id"), names::problems{"the domain must not be empty"});
  EXPECT_EQ(names::qualified_name("example.com/"), names::problems{"the name must not be empty"});
  EXPECT_EQ(names::qualified_name("a/b/c"),
            names::problems{"must be either a C identifier or a domain followed by a slash and a C identifier"});
  EXPECT_EQ(names::qualified_name("example.com/model-x").size(), 1u);
  // Driver names are checked in lower case, as Kubernetes does.
  EXPECT_TRUE(valid(names::qualified_name("Example.COM/model")));
  EXPECT_TRUE(valid(names::driver_name("GPU.example.com")));
  EXPECT_EQ(names::driver_name(""), names::problems{"Required value"});
}

TEST(Names, FullyQualifiedNamesNeedADomain) {
  EXPECT_TRUE(valid(names::fully_qualified_name("gpu.example.com/model")));
  EXPECT_EQ(names::fully_qualified_name("model"), names::problems{"must include a domain"});
  EXPECT_EQ(names::fully_qualified_name("1model"), names::c_identifier("1model"));
}

TEST(Names, SplitsQualifiedNames) {
  constexpr auto parts = names::split_qualified("gpu.example.com/model");
  static_assert(parts.domain == "gpu.example.com" && parts.id == "model");
  static_assert(names::split_qualified("model").domain.empty());
  static_assert(names::detail::matches_subdomain("a.b.c") && !names::detail::matches_subdomain("a..c"));
  EXPECT_EQ(names::split_qualified("model").id, "model");
}

}  // namespace
