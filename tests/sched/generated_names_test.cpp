// The names of the claims the resourceclaim controller makes: its generateName, shortened as it shortens it, and the
// API server's five characters, drawn from a hash.
#include <dra/sched/generated_names.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

namespace {

using namespace dra;

TEST(GeneratedNames, TheControllersGenerateNameIsPodEntryAndAHyphen) {
  EXPECT_EQ(sched::claim_generate_name("trainer", "gpu"), "trainer-gpu-");
  const std::string pod(45, 'p'), entry(10, 'e');  // 45 + 1 + 10 + 1 = 57: still whole
  EXPECT_EQ(sched::claim_generate_name(pod, entry), pod + "-" + entry + "-");
}

TEST(GeneratedNames, PastFiftySevenCharactersEachPartIsCutInProportionWithoutATrailingHyphen) {
  // 60 + 1 + 3 + 1 = 65 characters: the pod keeps 60 * 57 / 65 = 52, the entry 3 * 57 / 65 = 2.
  const std::string pod(60, 'p');
  EXPECT_EQ(sched::claim_generate_name(pod, "gpu"), std::string(52, 'p') + "-gp");
  // 30 + 1 + 40 + 1 = 72: 30 * 57 / 72 = 23 and 40 * 57 / 72 = 31.
  EXPECT_EQ(sched::claim_generate_name(std::string(30, 'a'), std::string(40, 'b')),
            std::string(23, 'a') + "-" + std::string(31, 'b'));
}

TEST(GeneratedNames, TheSuffixIsFiveCharactersOfTheApiServersAlphabetAndRepeats) {
  const std::string name = sched::generated_name("trainer-gpu-", "default/trainer/uid-1/gpu");
  ASSERT_EQ(name.size(), std::string("trainer-gpu-").size() + 5);
  EXPECT_TRUE(name.starts_with("trainer-gpu-"));
  constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";
  for (const char c : name.substr(12)) EXPECT_NE(alphabet.find(c), std::string_view::npos) << c;
  EXPECT_EQ(name, sched::generated_name("trainer-gpu-", "default/trainer/uid-1/gpu"));
  EXPECT_NE(name, sched::generated_name("trainer-gpu-", "default/trainer/uid-2/gpu"));
  EXPECT_NE(name, sched::generated_name("trainer-gpu-", "default/trainer/uid-1/gpu", 1));
  // The API server keeps at most 58 characters of the prefix: 63 in all.
  EXPECT_EQ(sched::generated_name(std::string(70, 'x'), "seed").size(), 63u);
}

TEST(GeneratedNames, ClaimsOfOnePrefixDrawDistinctSuffixes) {
  // Pods a-b (entry c) and a (entry b-c) share the generateName a-b-c-; their claims still differ, and so do a
  // thousand pods' draws.
  model::object_meta a_b{.name = "a-b", .namespace_ = "default"};
  model::object_meta a{.name = "a", .namespace_ = "default"};
  EXPECT_EQ(sched::claim_generate_name(a_b.name, "c"), sched::claim_generate_name(a.name, "b-c"));
  EXPECT_NE(sched::generated_claim_name(a_b, "c"), sched::generated_claim_name(a, "b-c"));
  std::set<std::string> names;
  for (int i = 0; i < 1000; ++i) {
    const std::string pod = "pod-" + std::to_string(i);
    names.insert(sched::generated_claim_name({.name = pod, .namespace_ = "default"}, "gpu").substr(pod.size() + 5));
  }
  EXPECT_GT(names.size(), 990u);  // 27^5 suffixes: a few collisions at most, which the caller draws again
}

}  // namespace
