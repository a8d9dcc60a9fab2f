// Sets the dra command's heap up for what one run does: build a model of many small objects once,
// on every core, and keep it until the process exits.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace dra_cli {

// Why: a run allocates its model in small pieces (a device is a few vectors), hundreds of MiB for
// a large cluster, on two or more threads. With glibc's defaults every 4 KiB page first touched
// costs a page fault and the kernel zeroing it, and a reading thread's arena grows one page per
// `mprotect` call: on the 100 MB ingest benchmark (`dra summary`, bench/cluster_scale.sh) that
// was 50,000 faults and 10,000 calls, 40 % of the process's CPU time in the kernel. These glibc
// tunables give every arena transparent huge pages (one fault per 2 MiB), grow arenas 256 MiB of
// address space at a time, and keep freed memory with the process. glibc reads tunables only
// from the environment at start-up, hence prepare_heap's re-exec. This is the process's choice,
// not the library's: an embedding program keeps its own allocator settings.
inline constexpr std::array<std::string_view, 4> heap_tunables = {
    "glibc.malloc.hugetlb=1",                  // madvise(MADV_HUGEPAGE) on every arena
    "glibc.malloc.top_pad=268435456",          // grow an arena by 256 MiB, not page by page
    "glibc.malloc.trim_threshold=1073741824",  // never give freed memory back mid-run
    "glibc.malloc.mmap_threshold=33554432",    // blocks up to 32 MiB come from the arenas
};

// The GLIBC_TUNABLES value a run wants given the one it has (`current`, empty when unset):
// `current` followed by every heap tunable it does not name, so that a user's own setting of
// one wins; nullopt when it names them all (nothing to add, and no second re-exec).
[[nodiscard]] inline std::optional<std::string> tunables_to_set(std::string_view current) {
  const std::string entries = std::string(":").append(current);  // every name follows a ':'
  std::string value(current);
  for (std::string_view tunable : heap_tunables) {
    const std::string name =
        std::string(":").append(tunable.substr(0, tunable.find('=') + 1));  // ":glibc.malloc.hugetlb="
    if (entries.find(name) != std::string::npos) continue;
    if (!value.empty()) value += ':';
    value += tunable;
  }
  if (value.size() == current.size()) return std::nullopt;
  return value;
}

namespace detail {

// Valgrind runs a program it does not trace (its default for exec'd children) natively: a
// re-exec under it would leave the run unchecked without a word. Its core is always preloaded.
[[nodiscard]] inline bool under_valgrind() noexcept {
  const char* preload = std::getenv("LD_PRELOAD");
  return preload != nullptr && std::string_view(preload).find("vgpreload") != std::string_view::npos;
}

// The same settings through mallopt, for a run that could not re-exec: the main arena only, its
// first 24 MiB advised for huge pages (the heap setting before the tunables).
inline void prepare_main_arena() noexcept {
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  constexpr std::size_t huge_page = std::size_t{2} << 20;
  constexpr std::size_t advised_bytes = std::size_t{24} << 20;
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest; the block below must come from the heap
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  void* block = std::malloc(advised_bytes);
  if (block == nullptr) return;
  const auto start = reinterpret_cast<std::uintptr_t>(block);
  const std::uintptr_t begin = (start + huge_page - 1) & ~(huge_page - 1);
  const std::uintptr_t end = (start + advised_bytes) & ~(huge_page - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  std::free(block);  // back to the top of the heap, where the next allocations are carved from
#endif
}

}  // namespace detail

// Called first thing in main, with main's argv: with glibc on Linux, when GLIBC_TUNABLES lacks
// any of heap_tunables, sets it and runs the same program again in this process (same
// arguments, descriptors and unread stdin; about a millisecond). Returns when the process goes on
// as it is: the tunables are in place, the C library is not glibc, or exec failed (then the main
// arena gets what mallopt can set).
inline void prepare_heap(char** argv) noexcept {
#if defined(__GLIBC__) && defined(__linux__)
  if (detail::under_valgrind()) return;
  try {
    const char* set = std::getenv("GLIBC_TUNABLES");
    const std::optional<std::string> previous = set != nullptr ? std::optional<std::string>(set) : std::nullopt;
    auto wanted = tunables_to_set(previous.value_or(""));
    if (!wanted) return;
    if (setenv("GLIBC_TUNABLES", wanted->c_str(), 1) == 0) {
      execv("/proc/self/exe", argv);
      // Still here: exec failed (no /proc, say). Leave the environment as it was.
      if (previous) {
        setenv("GLIBC_TUNABLES", previous->c_str(), 1);
      } else {
        unsetenv("GLIBC_TUNABLES");
      }
    }
  } catch (...) {  // no memory for a short string: nothing to set up
  }
  detail::prepare_main_arena();
#else
  (void)argv;
#endif
}

}  // namespace dra_cli
