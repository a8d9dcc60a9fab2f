// Views of a device, counter set or counter consumption that uses no mixins: the device_view concepts over plain model
// objects.
#pragma once

#include <dra/flatten/concepts.hpp>
#include <dra/model/resource_slice.hpp>

#include <range/v3/view/transform.hpp>

#include <string_view>

namespace dra::flatten {

namespace detail {
// The entries of a sorted map as entry<T>s.
template <class T>
[[nodiscard]] auto entries_of(const model::sorted_map<T>& map) {
  return map | ::ranges::views::transform([](const model::keyed<T>& k) { return entry<T>{k.name, &k.value}; });
}
}  // namespace detail

class plain_counter_consumption_view {
 public:
  plain_counter_consumption_view() = default;
  explicit plain_counter_consumption_view(const model::device_counter_consumption& c) : consumption_(&c) {}
  [[nodiscard]] std::string_view counter_set() const noexcept { return consumption_->counter_set; }
  [[nodiscard]] const quantity* counter(std::string_view key) const noexcept {
    return model::find(consumption_->counters, key);
  }
  [[nodiscard]] auto counters() const { return detail::entries_of(consumption_->counters); }

 private:
  const model::device_counter_consumption* consumption_ = nullptr;
};

class plain_counter_set_view {
 public:
  plain_counter_set_view() = default;
  explicit plain_counter_set_view(const model::counter_set& s) : set_(&s) {}
  [[nodiscard]] std::string_view name() const noexcept { return set_->name; }
  [[nodiscard]] const quantity* counter(std::string_view key) const noexcept {
    return model::find(set_->counters, key);
  }
  [[nodiscard]] auto counters() const { return detail::entries_of(set_->counters); }

 private:
  const model::counter_set* set_ = nullptr;
};

// A device exactly as written (its includes, if any, ignored).
class plain_device_view {
 public:
  plain_device_view() = default;
  explicit plain_device_view(const model::device& d) : device_(&d) {}

  [[nodiscard]] std::string_view name() const noexcept { return device_->name; }
  [[nodiscard]] const model::device& base() const noexcept { return *device_; }
  [[nodiscard]] const model::device_attribute* attribute(std::string_view key) const noexcept {
    return model::find(device_->attributes, key);
  }
  [[nodiscard]] const model::device_capacity* capacity(std::string_view key) const noexcept {
    return model::find(device_->capacity, key);
  }
  [[nodiscard]] auto attributes() const { return detail::entries_of(device_->attributes); }
  [[nodiscard]] auto capacities() const { return detail::entries_of(device_->capacity); }
  [[nodiscard]] auto counter_consumptions() const {
    return device_->consumes_counters | ::ranges::views::transform([](const model::device_counter_consumption& c) {
             return plain_counter_consumption_view(c);
           });
  }
  [[nodiscard]] std::size_t attribute_count() const noexcept { return device_->attributes.size(); }
  [[nodiscard]] std::size_t capacity_count() const noexcept { return device_->capacity.size(); }

 private:
  const model::device* device_ = nullptr;
};

static_assert(counter_consumption_view<plain_counter_consumption_view>);
static_assert(counter_set_view<plain_counter_set_view>);
static_assert(device_view<plain_device_view>);

}  // namespace dra::flatten
