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

TEST(CliHeap, LargeOsPagesAreAskedFor) {
  unsetenv("MIMALLOC_LARGE_OS_PAGES");
  mi_option_disable(mi_option_large_os_pages);
  dra_cli::prepare_heap();
  EXPECT_TRUE(mi_option_is_enabled(mi_option_large_os_pages));
}

TEST(CliHeap, AUsersOwnLargePageSettingWins) {
  setenv("MIMALLOC_LARGE_OS_PAGES", "0", 1);
  mi_option_disable(mi_option_large_os_pages);
  dra_cli::prepare_heap();
  EXPECT_FALSE(mi_option_is_enabled(mi_option_large_os_pages));
  unsetenv("MIMALLOC_LARGE_OS_PAGES");
}

}  // namespace
