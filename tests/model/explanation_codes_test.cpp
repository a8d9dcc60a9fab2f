// Explanation codes, funnel stages and claim statuses: every value round-trips through its one name, and the names
// are the ones docs/scenario-format.md and docs/cli.md list.
#include <dra/model/explanation_codes.hpp>

#include <gtest/gtest.h>

#include "../support/files.hpp"
#include "../support/named_enums.hpp"
#include "../support/source_dir.hpp"

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace {

namespace model = dra::model;

// Every value up to `last` has a name of its own that reads back as the value; past `last` there is none.
template <model::named_enum Enum>
void expect_round_trips(Enum last) {
  std::set<std::string_view> seen;
  const auto count = static_cast<std::size_t>(last) + 1;
  for (std::size_t i = 0; i < count; ++i) {
    const auto value = static_cast<Enum>(i);
    const std::string_view name = model::name_of(value);
    EXPECT_NE(name, "unknown") << "value " << i;
    EXPECT_EQ(model::from_name<Enum>(name), value) << name;
    EXPECT_TRUE(seen.insert(name).second) << "two values are named " << name;
  }
  EXPECT_EQ(model::name_of(static_cast<Enum>(count)), "unknown");
  EXPECT_EQ(model::from_name<Enum>("unknown"), std::nullopt);
  EXPECT_EQ(model::from_name<Enum>(""), std::nullopt);
}

TEST(ExplanationNames, EveryValueRoundTripsThroughItsName) {
  expect_round_trips(model::explanation_code::conflict);
  expect_round_trips(model::funnel_stage::usable);
  expect_round_trips(model::claim_status::already_allocated);
  expect_round_trips(model::pod_reason_code::gang);
}


TEST(ExplanationNames, LookupIsExact) {
  EXPECT_EQ(model::from_name<model::explanation_code>("in-use"), model::explanation_code::in_use);
  EXPECT_EQ(model::from_name<model::explanation_code>("in_use"), std::nullopt);
  EXPECT_EQ(model::from_name<model::explanation_code>("In-use"), std::nullopt);
  EXPECT_EQ(model::from_name<model::claim_status>("not found"), model::claim_status::not_found);
  EXPECT_EQ(model::from_name<model::claim_status>("not"), std::nullopt);
}

// The part of `doc` from `from` up to `to`, where the docs list one enum's names; empty when either is missing.
std::string doc_section(const std::string& doc, std::string_view from, std::string_view to) {
  const auto begin = doc.find(from);
  const auto end = begin == std::string::npos ? begin : doc.find(to, begin);
  return end == std::string::npos ? std::string() : doc.substr(begin, end - begin);
}

template <model::named_enum Enum>
void expect_documented(std::initializer_list<std::pair<Enum, std::string_view>> documented,
                       const std::string& section) {
  ASSERT_FALSE(section.empty());
  for (const auto& [value, name] : documented) {
    EXPECT_EQ(model::name_of(value), name);
    EXPECT_NE(section.find("`" + std::string(name) + "`"), std::string::npos) << name << " is not in: " << section;
  }
}

TEST(ExplanationNames, AreTheDocumentedCodes) {
  using code = model::explanation_code;
  using stage = model::funnel_stage;
  using status = model::claim_status;
  const std::string format = dra_test::read_file(dra_test::source_dir() + "/docs/scenario-format.md");
  const std::string cli = dra_test::read_file(dra_test::source_dir() + "/docs/cli.md");
  // The output document's reason codes: every code but `fits`, which rules no node out.
  expect_documented<code>({{code::node_selection, "node-selection"},
                           {code::pool, "pool"},
                           {code::device_class, "class"},
                           {code::selector, "selector"},
                           {code::in_use, "in-use"},
                           {code::counters, "counters"},
                           {code::capacity, "capacity"},
                           {code::taint, "taint"},
                           {code::constraint, "constraint"},
                           {code::count, "count"},
                           {code::conflict, "conflict"}},
                          doc_section(format, "The codes:", "docs/cli.md"));
  // `dra explain`'s own words.
  const std::string explain = doc_section(cli, "`dra explain` writes the same codes", "How the cause is found");
  expect_documented<code>({{code::fits, "fits"}}, explain);
  expect_documented<status>({{status::allocated, "allocated"},
                             {status::unschedulable, "unschedulable"},
                             {status::error, "error"},
                             {status::not_found, "not found"},
                             {status::already_allocated, "already allocated"}},
                            explain);
  expect_documented<stage>({{stage::pool, "pool"},
                            {stage::device_class, "class"},
                            {stage::selector, "selector"},
                            {stage::in_use, "in-use"},
                            {stage::counters, "counters"},
                            {stage::capacity, "capacity"},
                            {stage::taint, "taint"},
                            {stage::usable, "usable"}},
                           explain);
}

TEST(ExplanationNames, PodReasonCodesAreTheDocumentedOnes) {
  using code = model::pod_reason_code;
  const std::string scheduling = dra_test::read_file(dra_test::source_dir() + "/docs/scheduling.md");
  expect_documented<code>({{code::node_unschedulable, "node-unschedulable"},
                           {code::node_name, "node-name"},
                           {code::node_taint, "node-taint"},
                           {code::node_affinity, "node-affinity"},
                           {code::resources, "resources"},
                           {code::too_many_pods, "too-many-pods"},
                           {code::claims, "claims"}},
                          doc_section(scheduling, "## The filters", "## The answer per pod"));
  expect_documented<code>({{code::scheduling_gated, "scheduling-gated"}}, doc_section(scheduling, "## The queue", "## The filters"));
}

}  // namespace
