// The text a document was read from, with the padding simdjson reads past its end: a padded copy, or a file mapped read-only in place.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define DRA_JSON_CAN_MAP_FILES 1
#endif

namespace dra::json::detail {

// Owns the input text. Moving it keeps the text's address, so views into it stay valid.
class input_buffer {
 public:
  input_buffer() = default;
  explicit input_buffer(simdjson::padded_string text) noexcept : copy_(std::move(text)) {}
  // Takes a string over, padding it in place: text converted for the reader (YAML's JSON) is not copied again.
  explicit input_buffer(std::string text) : owned_(std::move(text)) {
    const std::size_t size = owned_.size();
    owned_.append(simdjson::SIMDJSON_PADDING, '\0');
    owned_.resize(size);  // the zeros stay in the string's capacity, where simdjson may read them
    has_owned_ = true;
  }
  input_buffer(input_buffer&& other) noexcept
      : copy_(std::move(other.copy_)),
        owned_(std::move(other.owned_)),
        has_owned_(std::exchange(other.has_owned_, false)),
        mapping_(std::exchange(other.mapping_, nullptr)),
        mapped_bytes_(std::exchange(other.mapped_bytes_, 0)),
        mapped_size_(std::exchange(other.mapped_size_, 0)) {}
  input_buffer& operator=(input_buffer&& other) noexcept {
    if (this != &other) {
      unmap();
      copy_ = std::move(other.copy_);
      owned_ = std::move(other.owned_);
      has_owned_ = std::exchange(other.has_owned_, false);
      mapping_ = std::exchange(other.mapping_, nullptr);
      mapped_bytes_ = std::exchange(other.mapped_bytes_, 0);
      mapped_size_ = std::exchange(other.mapped_size_, 0);
    }
    return *this;
  }
  input_buffer(const input_buffer&) = delete;
  input_buffer& operator=(const input_buffer&) = delete;
  ~input_buffer() { unmap(); }

  // Maps a regular, non-empty file of `size` bytes; nothing when the platform or the kernel
  // cannot (the caller then reads the file). The text is the file's pages themselves: no copy,
  // and no fresh pages to zero, which for a 100 MB input saves about a tenth of a load. The
  // file must not be truncated while the buffer lives (reading a page past the new end would
  // fault), which is why only callers that own their input's lifetime ask for it.
  [[nodiscard]] static std::optional<input_buffer> map_file(const std::string& path, std::size_t size) noexcept;

  [[nodiscard]] const char* data() const noexcept {
    if (mapping_ != nullptr) return static_cast<const char*>(mapping_);
    return has_owned_ ? owned_.data() : copy_.data();
  }
  [[nodiscard]] std::size_t size() const noexcept {
    if (mapping_ != nullptr) return mapped_size_;
    return has_owned_ ? owned_.size() : copy_.size();
  }
  [[nodiscard]] bool mapped() const noexcept { return mapping_ != nullptr; }

 private:
  void unmap() noexcept {
#ifdef DRA_JSON_CAN_MAP_FILES
    if (mapping_ != nullptr) munmap(mapping_, mapped_bytes_);
#endif
    mapping_ = nullptr;
  }

  simdjson::padded_string copy_;
  std::string owned_;
  bool has_owned_ = false;
  void* mapping_ = nullptr;
  std::size_t mapped_bytes_ = 0;  // the file's pages and the zero pages after them
  std::size_t mapped_size_ = 0;   // the file's bytes
};

inline std::optional<input_buffer> input_buffer::map_file(const std::string& path, std::size_t size) noexcept {
#ifdef DRA_JSON_CAN_MAP_FILES
  if (size == 0) return std::nullopt;
  const long page_size = sysconf(_SC_PAGESIZE);
  if (page_size <= 0) return std::nullopt;
  const auto page = static_cast<std::size_t>(page_size);
  const std::size_t bytes = (size + simdjson::SIMDJSON_PADDING + page - 1) / page * page;
  // Zero pages first, then the file over their start: simdjson may read SIMDJSON_PADDING bytes
  // past the end, which land in the zero-filled rest of the file's last page or in these pages.
  void* region = mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (region == MAP_FAILED) return std::nullopt;
  input_buffer buffer;
  buffer.mapping_ = region;
  buffer.mapped_bytes_ = bytes;
  buffer.mapped_size_ = size;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat info {};
  const bool same_size = fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && static_cast<std::size_t>(info.st_size) == size;
  int flags = MAP_PRIVATE | MAP_FIXED;
#ifdef MAP_POPULATE
  flags |= MAP_POPULATE;  // the whole file is read anyway: map its cached pages in one call
#endif
  const bool mapped = same_size && mmap(region, size, PROT_READ, flags, fd, 0) != MAP_FAILED;
  close(fd);
  if (!mapped) return std::nullopt;
  return buffer;
#else
  (void)path;
  (void)size;
  return std::nullopt;
#endif
}

}  // namespace dra::json::detail
