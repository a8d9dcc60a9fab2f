// The dra command's allocator: with DRA_CLI_MIMALLOC every allocation of the process comes from
// mimalloc, and the command asks it for large OS pages unless the user said otherwise.
#include "heap.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <mimalloc.h>

namespace {

TEST(CliHeap, MallocAndNewComeFromMimalloc) {
  // Linking mimalloc replaces malloc and operator new for the whole process, not only mi_malloc.
  void* from_malloc = std::malloc(48);
  auto from_new = std::make_unique<int[]>(1000);
  EXPECT_TRUE(mi_is_in_heap_region(from_malloc));
  EXPECT_TRUE(mi_is_in_heap_region(from_new.get()));
  std::free(from_malloc);
  EXPECT_TRUE(dra_cli::uses_mimalloc());
  EXPECT_EQ(dra_cli::allocator_name(), "mimalloc");
}

TEST(CliHeap, LargePagesEagerCommitAndNoDecommitAreAskedFor) {
  for (const auto& o : dra_cli::heap_options) unsetenv(o.environment);
  mi_option_disable(mi_option_large_os_pages);
  mi_option_set(mi_option_eager_commit_delay, 1);
  mi_option_enable(mi_option_allow_decommit);
  dra_cli::prepare_heap();
  EXPECT_TRUE(mi_option_is_enabled(mi_option_large_os_pages));
  EXPECT_EQ(mi_option_get(mi_option_eager_commit_delay), 0);
  EXPECT_FALSE(mi_option_is_enabled(mi_option_allow_decommit));
}

TEST(CliHeap, AUsersOwnSettingWins) {
  setenv("MIMALLOC_LARGE_OS_PAGES", "0", 1);
  mi_option_disable(mi_option_large_os_pages);
  mi_option_set(mi_option_eager_commit_delay, 1);
  dra_cli::prepare_heap();
  EXPECT_FALSE(mi_option_is_enabled(mi_option_large_os_pages));   // the user's
  EXPECT_EQ(mi_option_get(mi_option_eager_commit_delay), 0);      // the command's: the user set none
  unsetenv("MIMALLOC_LARGE_OS_PAGES");
}

}  // namespace
