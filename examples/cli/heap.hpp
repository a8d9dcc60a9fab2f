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

#if defined(DRA_CLI_MIMALLOC)
// The mimalloc options the command sets, each with the environment variable that overrides it (mimalloc
// reads those when the process starts: a user's own setting wins). Measured on the 100 MB ingest corpus
// (`dra summary`): large (2 MiB) OS pages take the page faults from 60,700 to 17,600; committing
// each thread's first segments eagerly too, to 9,600; keeping freed memory instead of giving it back
// mid-run (glibc's trim threshold did the same) saves the madvise calls that gave it back.
struct heap_option {
  mi_option_t option;
  long value;
  const char* environment;
};
inline constexpr heap_option heap_options[] = {
    {mi_option_large_os_pages, 1, "MIMALLOC_LARGE_OS_PAGES"},
    {mi_option_eager_commit_delay, 0, "MIMALLOC_EAGER_COMMIT_DELAY"},
    {mi_option_allow_decommit, 0, "MIMALLOC_ALLOW_DECOMMIT"},
};
#endif

// Called first thing in main: the options above, where the user set none of them.
inline void prepare_heap() noexcept {
#if defined(DRA_CLI_MIMALLOC)
  for (const heap_option& o : heap_options)
    if (std::getenv(o.environment) == nullptr) mi_option_set(o.option, o.value);
#endif
}

}  // namespace dra_cli
