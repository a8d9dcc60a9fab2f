// The scheduling queue's order: priority, then creation time, then input order.
#include <dra/sched/queue.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

dra::model::pod queued(std::int32_t priority, std::string_view created) {
  dra::model::pod p;
  p.priority = priority;
  p.meta.creation_timestamp = created;
  return p;
}

TEST(Queue, HigherPriorityFirstThenEarlierCreationThenInputOrder) {
  const std::vector<dra::model::pod> pods = {
      queued(0, "2026-01-02T00:00:00Z"), queued(10, "2026-01-03T00:00:00Z"), queued(0, "2026-01-01T00:00:00Z"),
      queued(10, "2026-01-03T00:00:00Z"), queued(-5, ""), queued(0, "")};
  std::vector<const dra::model::pod*> view;
  for (const auto& p : pods) view.push_back(&p);
  EXPECT_EQ(dra::sched::queue_order(view), (std::vector<std::size_t>{1, 3, 5, 2, 0, 4}));
}

TEST(Queue, WithoutPrioritiesOrTimestampsTheInputOrderStays) {
  const std::vector<dra::model::pod> pods(5);
  std::vector<const dra::model::pod*> view;
  for (const auto& p : pods) view.push_back(&p);
  EXPECT_EQ(dra::sched::queue_order(view), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(Queue, GatedPodsWait) {
  dra::model::pod p;
  EXPECT_FALSE(dra::sched::is_gated(p));
  p.scheduling_gates = {"example.com/quota"};
  EXPECT_TRUE(dra::sched::is_gated(p));
}

}  // namespace
