// The dra command's heap set-up: which glibc tunables a run asks for, and that a user's own win.
#include "heap.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace {

const std::string all_heap_tunables =
    "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=268435456:glibc.malloc.trim_threshold=1073741824:"
    "glibc.malloc.mmap_threshold=33554432";

TEST(CliHeap, UnsetTunablesGetEveryHeapSetting) { EXPECT_EQ(dra_cli::tunables_to_set(""), all_heap_tunables); }

TEST(CliHeap, WhatTheReExecSetsAsksForNoSecondOne) {
  // The loop guard: the re-run process finds everything named and goes on.
  EXPECT_EQ(dra_cli::tunables_to_set(all_heap_tunables), std::nullopt);
}

TEST(CliHeap, AUsersOwnSettingWinsAndTheRestIsAppended) {
  EXPECT_EQ(dra_cli::tunables_to_set("glibc.malloc.top_pad=0"),
            "glibc.malloc.top_pad=0:glibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=1073741824:"
            "glibc.malloc.mmap_threshold=33554432");
  EXPECT_EQ(dra_cli::tunables_to_set("glibc.mem.tagging=1:glibc.malloc.hugetlb=0"),
            "glibc.mem.tagging=1:glibc.malloc.hugetlb=0:glibc.malloc.top_pad=268435456:"
            "glibc.malloc.trim_threshold=1073741824:glibc.malloc.mmap_threshold=33554432");
}

TEST(CliHeap, ATunableIsNamedOnlyAtTheStartOfAnEntry) {
  // "xglibc.malloc.hugetlb=0" is some other name: hugetlb is still unset.
  EXPECT_EQ(dra_cli::tunables_to_set("xglibc.malloc.hugetlb=0"), "xglibc.malloc.hugetlb=0:" + all_heap_tunables);
}

TEST(CliHeap, UserSettingsOfEveryHeapTunableLeaveNothingToSet) {
  EXPECT_EQ(dra_cli::tunables_to_set("glibc.malloc.mmap_threshold=1:glibc.malloc.trim_threshold=2:"
                                     "glibc.malloc.top_pad=3:glibc.malloc.hugetlb=0"),
            std::nullopt);
}

}  // namespace
