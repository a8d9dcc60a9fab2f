// Zero-copy views of devices, counter sets and counter consumptions with their KEP-5234 mixins applied.
#pragma once

#include <dra/flatten/concepts.hpp>
#include <dra/model/resource_slice.hpp>

#include <range/v3/view/transform.hpp>

#include <array>
#include <cstdint>
#include <iterator>
#include <ranges>
#include <span>
#include <string_view>

namespace dra::flatten {

// The most includes KEP-5234 allows: 8 on devices and counter sets, 4 on
// counter consumptions. Names past these limits are not applied (validation
// reports them).
inline constexpr std::size_t max_device_includes = 8;
inline constexpr std::size_t max_counter_set_includes = 8;
inline constexpr std::size_t max_counter_consumption_includes = 4;

// Several sorted maps seen as one: lookups try the sources in precedence
// order; iteration merges them in key order and yields each key once, with
// the value of the first source (in precedence order) that has it.
// A view by std::ranges::view_base, not view_interface: clang 14 checks
// view_interface's constrained members while the derived class is still
// incomplete, and fails with libstdc++ 12.
template <class T, std::size_t MaxSources>
class merged_map : public std::ranges::view_base {
 public:
  merged_map() = default;
  // `sources` in precedence order: the object's own map first, then its
  // includes from the last to the first.
  explicit merged_map(std::span<const model::sorted_map<T>* const> sources) {
    for (const model::sorted_map<T>* s : sources)
      if (s != nullptr && !s->empty() && count_ < MaxSources) sources_[count_++] = s;
  }

  [[nodiscard]] const T* find(std::string_view key) const noexcept {
    for (std::size_t i = 0; i < count_; ++i)
      if (const T* found = model::find(*sources_[i], key)) return found;
    return nullptr;
  }

  class iterator {
   public:
    using value_type = entry<T>;
    using difference_type = std::ptrdiff_t;
    using iterator_concept = std::forward_iterator_tag;

    iterator() = default;
    // The iterator carries the sources itself, so it never dangles when
    // the merged_map it came from was a temporary (a borrowed range).
    explicit iterator(const merged_map& map) : sources_(map.sources_), count_(map.count_) { settle(); }

    [[nodiscard]] entry<T> operator*() const noexcept { return current_; }
    iterator& operator++() noexcept {
      for (std::size_t i = 0; i < count_; ++i) {
        const auto& source = *sources_[i];
        if (positions_[i] < source.size() && source[positions_[i]].name == current_.name) ++positions_[i];
      }
      settle();
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator before = *this;
      ++*this;
      return before;
    }
    friend bool operator==(const iterator& a, const iterator& b) noexcept {
      return a.at_end_ == b.at_end_ && (a.at_end_ || a.positions_ == b.positions_);
    }
    friend bool operator==(const iterator& a, std::default_sentinel_t) noexcept { return a.at_end_; }

   private:
    // Finds the smallest key under the sources' positions, and its winner.
    void settle() noexcept {
      at_end_ = true;
      for (std::size_t i = 0; i < count_; ++i) {
        const auto& source = *sources_[i];
        if (positions_[i] >= source.size()) continue;
        const model::keyed<T>& candidate = source[positions_[i]];
        if (at_end_ || candidate.name < current_.name) {
          current_ = entry<T>{candidate.name, &candidate.value};
          at_end_ = false;
        }
        // Equal keys keep the earlier source: it takes precedence.
      }
    }

    std::array<const model::sorted_map<T>*, MaxSources> sources_{};
    std::size_t count_ = 0;
    std::array<std::uint32_t, MaxSources> positions_{};
    entry<T> current_{};
    bool at_end_ = true;
  };

  [[nodiscard]] iterator begin() const noexcept { return iterator(*this); }
  [[nodiscard]] std::default_sentinel_t end() const noexcept { return {}; }

 private:
  std::array<const model::sorted_map<T>*, MaxSources> sources_{};
  std::size_t count_ = 0;
};

namespace detail {

// Resolves include names to the mixins of the same slice, last include
// first (that is the precedence order). Unknown names are skipped and
// counted; the view stays usable.
template <class Mixin, std::size_t Max>
struct resolved_includes {
  std::array<const Mixin*, Max> mixins{};  // precedence order: the last include first
  std::uint8_t count = 0;
  std::uint8_t unresolved = 0;

  resolved_includes() = default;
  resolved_includes(std::span<const model::text> names, std::span<const Mixin> available) {
    std::size_t considered = 0;
    for (auto name = names.rbegin(); name != names.rend(); ++name) {
      if (++considered > Max) {
        ++unresolved;
        continue;
      }
      const Mixin* found = nullptr;
      for (const Mixin& m : available)
        if (m.name == *name) {
          found = &m;
          break;
        }
      if (found == nullptr)
        ++unresolved;
      else
        mixins[count++] = found;
    }
  }
};

template <class T, std::size_t Max, class Mixin, class Member>
[[nodiscard]] merged_map<T, Max + 1> merge(const model::sorted_map<T>& own,
                                           const resolved_includes<Mixin, Max>& includes, Member member) {
  std::array<const model::sorted_map<T>*, Max + 1> sources{};
  sources[0] = &own;
  for (std::size_t i = 0; i < includes.count; ++i) sources[i + 1] = &(includes.mixins[i]->*member);
  return merged_map<T, Max + 1>(std::span<const model::sorted_map<T>* const>(sources.data(), includes.count + 1u));
}

}  // namespace detail

// A DeviceCounterConsumption with its DeviceCounterConsumptionMixins applied.
class mixin_counter_consumption_view {
 public:
  mixin_counter_consumption_view() = default;
  mixin_counter_consumption_view(const model::device_counter_consumption& c, const model::resource_slice_mixins* mixins)
      : consumption_(&c) {
    if (mixins != nullptr)
      includes_ = decltype(includes_)(
          c.includes, std::span<const model::device_counter_consumption_mixin>(mixins->device_counter_consumption));
    else
      includes_.unresolved = static_cast<std::uint8_t>(std::min<std::size_t>(c.includes.size(), 255));
  }

  [[nodiscard]] std::string_view counter_set() const noexcept { return consumption_->counter_set; }
  [[nodiscard]] const quantity* counter(std::string_view key) const noexcept { return counters().find(key); }
  [[nodiscard]] merged_map<quantity, max_counter_consumption_includes + 1> counters() const noexcept {
    return detail::merge(consumption_->counters, includes_, &model::device_counter_consumption_mixin::counters);
  }
  [[nodiscard]] std::size_t unresolved_includes() const noexcept { return includes_.unresolved; }
  [[nodiscard]] const model::device_counter_consumption& base() const noexcept { return *consumption_; }

 private:
  const model::device_counter_consumption* consumption_ = nullptr;
  detail::resolved_includes<model::device_counter_consumption_mixin, max_counter_consumption_includes> includes_;
};

// A CounterSet with its CounterSetMixins applied.
class mixin_counter_set_view {
 public:
  mixin_counter_set_view() = default;
  mixin_counter_set_view(const model::counter_set& s, const model::resource_slice_mixins* mixins) : set_(&s) {
    if (mixins != nullptr)
      includes_ = decltype(includes_)(s.includes, std::span<const model::counter_set_mixin>(mixins->counter_set));
    else
      includes_.unresolved = static_cast<std::uint8_t>(std::min<std::size_t>(s.includes.size(), 255));
  }

  [[nodiscard]] std::string_view name() const noexcept { return set_->name; }
  [[nodiscard]] const quantity* counter(std::string_view key) const noexcept { return counters().find(key); }
  [[nodiscard]] merged_map<quantity, max_counter_set_includes + 1> counters() const noexcept {
    return detail::merge(set_->counters, includes_, &model::counter_set_mixin::counters);
  }
  [[nodiscard]] std::size_t unresolved_includes() const noexcept { return includes_.unresolved; }
  [[nodiscard]] const model::counter_set& base() const noexcept { return *set_; }

 private:
  const model::counter_set* set_ = nullptr;
  detail::resolved_includes<model::counter_set_mixin, max_counter_set_includes> includes_;
};

// A device with its DeviceMixins applied: the device's own attributes and
// capacities win over every include, and later includes over earlier ones
// (KEP-5234). Nothing is copied; a lookup walks the device's own map, then
// the includes from last to first.
class mixin_device_view {
 public:
  mixin_device_view() = default;
  mixin_device_view(const model::device& d, const model::resource_slice_mixins* mixins) : device_(&d), mixins_(mixins) {
    if (mixins != nullptr)
      includes_ = decltype(includes_)(d.includes, std::span<const model::device_mixin>(mixins->device));
    else
      includes_.unresolved = static_cast<std::uint8_t>(std::min<std::size_t>(d.includes.size(), 255));
  }

  [[nodiscard]] std::string_view name() const noexcept { return device_->name; }
  [[nodiscard]] const model::device& base() const noexcept { return *device_; }
  [[nodiscard]] const model::device_attribute* attribute(std::string_view key) const noexcept {
    if (const auto* own = model::find(device_->attributes, key)) return own;
    for (std::size_t i = 0; i < includes_.count; ++i)
      if (const auto* found = model::find(includes_.mixins[i]->attributes, key)) return found;
    return nullptr;
  }
  [[nodiscard]] const model::device_capacity* capacity(std::string_view key) const noexcept {
    if (const auto* own = model::find(device_->capacity, key)) return own;
    for (std::size_t i = 0; i < includes_.count; ++i)
      if (const auto* found = model::find(includes_.mixins[i]->capacity, key)) return found;
    return nullptr;
  }
  [[nodiscard]] merged_map<model::device_attribute, max_device_includes + 1> attributes() const noexcept {
    return detail::merge(device_->attributes, includes_, &model::device_mixin::attributes);
  }
  [[nodiscard]] merged_map<model::device_capacity, max_device_includes + 1> capacities() const noexcept {
    return detail::merge(device_->capacity, includes_, &model::device_mixin::capacity);
  }
  [[nodiscard]] auto counter_consumptions() const {
    return device_->consumes_counters |
           ::ranges::views::transform([mixins = mixins_](const model::device_counter_consumption& c) {
             return mixin_counter_consumption_view(c, mixins);
           });
  }
  [[nodiscard]] std::size_t attribute_count() const noexcept {
    return includes_.count == 0 ? device_->attributes.size()
                                : static_cast<std::size_t>(std::ranges::distance(attributes()));
  }
  [[nodiscard]] std::size_t capacity_count() const noexcept {
    return includes_.count == 0 ? device_->capacity.size()
                                : static_cast<std::size_t>(std::ranges::distance(capacities()));
  }
  // Include names that name no device mixin of the slice (or exceed the limit).
  [[nodiscard]] std::size_t unresolved_includes() const noexcept { return includes_.unresolved; }

 private:
  const model::device* device_ = nullptr;
  const model::resource_slice_mixins* mixins_ = nullptr;
  detail::resolved_includes<model::device_mixin, max_device_includes> includes_;
};

}  // namespace dra::flatten

template <class T, std::size_t MaxSources>
inline constexpr bool std::ranges::enable_borrowed_range<dra::flatten::merged_map<T, MaxSources>> = true;

namespace dra::flatten {

static_assert(std::ranges::forward_range<merged_map<quantity, 5>>);
static_assert(std::ranges::borrowed_range<merged_map<quantity, 5>>);
static_assert(std::ranges::view<merged_map<quantity, 5>>);
static_assert(counter_consumption_view<mixin_counter_consumption_view>);
static_assert(counter_set_view<mixin_counter_set_view>);
static_assert(device_view<mixin_device_view>);

// Every device of a slice as a mixin-backed view, in slice order.
[[nodiscard]] inline auto device_views(const model::resource_slice& slice) {
  const model::resource_slice_mixins* mixins = slice.mixins ? &*slice.mixins : nullptr;
  return slice.devices |
         ::ranges::views::transform([mixins](const model::device& d) { return mixin_device_view(d, mixins); });
}

// Every counter set of a slice as a mixin-backed view, in slice order.
[[nodiscard]] inline auto counter_set_views(const model::resource_slice& slice) {
  const model::resource_slice_mixins* mixins = slice.mixins ? &*slice.mixins : nullptr;
  return slice.shared_counters |
         ::ranges::views::transform([mixins](const model::counter_set& s) { return mixin_counter_set_view(s, mixins); });
}

// An owned, plain copy of what a view shows: mixins applied, includes gone.
template <counter_map_view View>
[[nodiscard]] model::counter_map materialize_counters(const View& view) {
  model::counter_map out;
  for (entry<quantity> e : view.counters()) out.push_back({e.name, *e.value});
  return out;
}

template <device_view View>
[[nodiscard]] model::device materialize(const View& view) {
  model::device out = view.base();
  out.includes.clear();
  out.attributes.clear();
  for (entry<model::device_attribute> e : view.attributes()) out.attributes.push_back({e.name, *e.value});
  out.capacity.clear();
  for (entry<model::device_capacity> e : view.capacities()) out.capacity.push_back({e.name, *e.value});
  out.consumes_counters.clear();
  // Counter consumptions come in the device's own order; each keeps its compatibility groups.
  std::size_t i = 0;
  for (const auto& consumption : view.counter_consumptions())
    out.consumes_counters.push_back({model::text(consumption.counter_set()), materialize_counters(consumption), {},
                                     view.base().consumes_counters[i++].compatibility_groups});
  return out;
}

template <counter_set_view View>
[[nodiscard]] model::counter_set materialize(const View& view) {
  return model::counter_set{model::text(view.name()), materialize_counters(view), {}};
}

}  // namespace dra::flatten

namespace dra::flatten {

// The same slice with every mixin applied and `mixins`/`includes` gone: a
// valid v1 object for clusters without KEP-5234. Strings still borrow from
// the input.
[[nodiscard]] inline model::resource_slice flatten_slice(const model::resource_slice& slice) {
  model::resource_slice out = slice;
  out.mixins.reset();
  out.devices.clear();
  for (const mixin_device_view& view : device_views(slice)) out.devices.push_back(materialize(view));
  out.shared_counters.clear();
  for (const mixin_counter_set_view& view : counter_set_views(slice)) out.shared_counters.push_back(materialize(view));
  return out;
}

}  // namespace dra::flatten
