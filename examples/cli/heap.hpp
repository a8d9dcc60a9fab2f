// Sets the dra command's heap up for what one run does: build a model of many small objects once
// and keep it until the process exits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#endif

namespace dra_cli {

// Why: a run allocates tens of MiB in small pieces (a device is a few vectors), and every 4 KiB
// page first touched costs a page fault. On the cluster scenarios of bench/cluster_scale.sh the
// faults and the kernel zeroing pages were a fifth of the whole `dra allocate`. The first
// `advised_bytes` of the heap are advised for transparent huge pages (one fault per 2 MiB), and
// memory freed stays with the process (glibc neither trims the heap nor maps large blocks apart),
// so later allocations reuse the advised pages. This is the process's choice, not the library's:
// an embedding program keeps its own allocator settings. With another C library, a kernel without
// transparent huge pages, or huge pages disabled, nothing changes but the advice being ignored.
inline void prepare_heap() noexcept {
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

}  // namespace dra_cli
