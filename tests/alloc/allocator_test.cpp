// Allocator tests on scenarios built in C++ (no shared data needed).
#include "pattern_engine.hpp"

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/features.hpp>

#include <gtest/gtest.h>

namespace {

TEST(Features, Parse) {
  EXPECT_EQ(*dra::alloc::features::parse("all"), dra::alloc::features::all());
  EXPECT_EQ(*dra::alloc::features::parse("none"), dra::alloc::features::none());
  auto some = dra::alloc::features::parse("AdminAccess, PrioritizedList");
  ASSERT_TRUE(some);
  EXPECT_TRUE(some->admin_access);
  EXPECT_TRUE(some->prioritized_list);
  EXPECT_FALSE(some->device_taints);
  EXPECT_FALSE(dra::alloc::features::parse("Bogus"));
}

}  // namespace
