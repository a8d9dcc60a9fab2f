// Sets the dra command's allocator up for what one run does: build a model of many small objects
// once, on every core, and keep it until the process exits.
#pragma once

#include <cstdlib>
#include <string_view>

#if defined(DRA_CLI_MIMALLOC)
#include <mimalloc.h>
#endif

namespace dra_cli {

// Why: a run allocates its model in small pieces (a device is a few vectors), hundreds of MiB
// for a large cluster, on two or more threads. With glibc's default malloc every 4 KiB page first
// touched costs a page fault and a reading thread's arena grows one page per `mprotect` call: on
// a 100 MB input that was 40 % of the process's CPU time in the kernel. The command therefore
// links mimalloc (CMake option DRA_CLI_MIMALLOC), which replaces malloc and operator new for the
// whole process, keeps a heap per thread and asks the kernel for large pages. This is the
// command's choice, not the library's: an embedding program keeps its own allocator.

// Whether this build of the command runs on mimalloc.
[[nodiscard]] constexpr bool uses_mimalloc() noexcept {
#if defined(DRA_CLI_MIMALLOC)
  return true;
#else
  return false;
#endif
}

// The name and version of the allocator the command runs on, for `dra --version`.
[[nodiscard]] inline std::string_view allocator_name() noexcept {
#if defined(DRA_CLI_MIMALLOC)
  return "mimalloc";
#else
  return "the C library's malloc";
#endif
}

// Called first thing in main. Large (2 MiB) OS pages: one page fault where there were 512, and
// they imply committing memory eagerly, which a run that keeps all it builds wants anyway. A
// user's own MIMALLOC_LARGE_OS_PAGES wins (mimalloc read it when the process started).
inline void prepare_heap() noexcept {
#if defined(DRA_CLI_MIMALLOC)
  if (std::getenv("MIMALLOC_LARGE_OS_PAGES") == nullptr) mi_option_enable(mi_option_large_os_pages);
#endif
}

}  // namespace dra_cli
