// The allocated-state ledger: which devices already-allocated claims hold, exclusively or shared, and how much capacity
// shared devices have given out — built as kube-scheduler builds it.
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/model/resource_claim.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dra::alloc {

// A device by driver, pool and name (the strings borrow from slices or claims).
struct device_ref {
  std::string_view driver;
  std::string_view pool;
  std::string_view device;
  friend bool operator==(const device_ref&, const device_ref&) = default;
};

struct device_ref_hash {
  std::size_t operator()(const device_ref& d) const noexcept {
    std::hash<std::string_view> h;
    std::size_t seed = h(d.driver);
    seed ^= h(d.pool) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
    seed ^= h(d.device) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
    return seed;
  }
};

// Consumed capacity per capacity name (sorted by name).
using capacity_amounts = model::sorted_map<quantity>;

namespace detail {
// Adds `amount` to the entry `name` of a sorted map, inserting it in order when missing.
inline void add_amount(capacity_amounts& into, std::string_view name, const quantity& amount) {
  auto it = std::lower_bound(into.begin(), into.end(), name,
                             [](const model::keyed<quantity>& k, std::string_view n) { return k.name < n; });
  if (it != into.end() && it->name == name) {
    if (auto sum = it->value.add(amount)) it->value = *sum;
  } else {
    into.insert(it, model::keyed<quantity>{name, amount});
  }
}
}  // namespace detail

class ledger {
 public:
  ledger() = default;
  ledger(const ledger&) = default;
  ledger(ledger&&) = default;
  // Assignment gives every pool a version newer than any either ledger had,
  // so that nothing cached against the old contents is trusted.
  ledger& operator=(const ledger& other) {
    if (this != &other) replace_with(ledger(other));
    return *this;
  }
  ledger& operator=(ledger&& other) noexcept {
    if (this != &other) replace_with(std::move(other));
    return *this;
  }
  ~ledger() = default;

  // Changes whenever a result of the pool (driver, pool) is added; 0 for a
  // pool nothing was ever added for. Lets callers cache per-pool lookups.
  [[nodiscard]] std::uint64_t pool_version(std::string_view driver, std::string_view pool) const {
    auto it = pool_versions_.find(device_ref{driver, pool, {}});
    return it == pool_versions_.end() ? 0 : it->second;
  }

  // What the ledger holds for one device.
  struct device_state {
    bool exclusive = false;                       // held exclusively by some claim
    bool shared = false;                          // has shared allocations
    std::optional<capacity_amounts> given_out;    // capacity its shared allocations consume
    std::vector<std::string> owners;              // claims known to hold it (added with an owner), in order
    // Held in any way (upstream's IsDeviceAllocated): such devices consume their counters.
    [[nodiscard]] bool allocated() const noexcept { return exclusive || shared || given_out; }
  };

  // Records one allocation result: admin-access results do not block
  // their device; results with a shareID are shared allocations and add
  // their consumed capacity to the device's total; every other result
  // makes its device exclusively in use.
  void add(const model::device_request_allocation_result& r) { add_result(r); }
  void add(const model::allocation_result& a) {
    for (const auto& r : a.results) add_result(r);
  }
  // As add(), remembering `owner` (a claim's "namespace/name") as a holder of
  // each device, so that explanations can name who blocks a device.
  void add(const model::allocation_result& a, std::string_view owner) {
    for (const auto& r : a.results) {
      device_state* d = add_result(r);
      if (d == nullptr) continue;
      if (std::find(d->owners.begin(), d->owners.end(), owner) == d->owners.end()) d->owners.emplace_back(owner);
    }
  }

  // Every add() appends the device it touched to a log, so that callers caching per-device lookups refresh only
  // the devices added since they last looked: remember changes_seen() and read the log from there. The log
  // restarts when the ledger is assigned; a new generation() says so.
  [[nodiscard]] std::uint64_t generation() const noexcept { return generation_; }
  [[nodiscard]] std::size_t changes_seen() const noexcept { return changed_devices_.size(); }
  [[nodiscard]] std::span<const device_ref> changed_devices_since(std::size_t seen) const noexcept {
    return std::span<const device_ref>(changed_devices_).subspan(std::min(seen, changed_devices_.size()));
  }

  // Everything the ledger holds for the device, in one lookup; nullptr when it holds nothing.
  [[nodiscard]] const device_state* find(const device_ref& id) const {
    auto it = devices_.find(id);
    return it == devices_.end() ? nullptr : &it->second;
  }
  // Held exclusively by some claim.
  [[nodiscard]] bool exclusively_allocated(const device_ref& id) const {
    const device_state* d = find(id);
    return d != nullptr && d->exclusive;
  }
  // Held in any way (upstream's IsDeviceAllocated): such devices consume their counters.
  [[nodiscard]] bool allocated(const device_ref& id) const {
    const device_state* d = find(id);
    return d != nullptr && d->allocated();
  }
  // Capacity given out by shared allocations of the device; nullptr when it has none.
  [[nodiscard]] const capacity_amounts* given_out(const device_ref& id) const {
    const device_state* d = find(id);
    return d != nullptr && d->given_out ? &*d->given_out : nullptr;
  }
  // The claims known to hold the device (added with an owner), in the order they were added.
  [[nodiscard]] std::span<const std::string> owners(const device_ref& id) const {
    const device_state* d = find(id);
    if (d == nullptr) return {};
    return d->owners;
  }

 private:
  // The device's entry, or nullptr for an admin-access result (which holds nothing).
  device_state* add_result(const model::device_request_allocation_result& r) {
    if (r.admin_access.value_or(false)) return nullptr;
    pool_versions_[device_ref{r.driver, r.pool, {}}] = ++version_;
    changed_devices_.push_back(device_ref{r.driver, r.pool, r.device});
    device_state& d = devices_[device_ref{r.driver, r.pool, r.device}];
    if (!r.share_id) {
      d.exclusive = true;
      return &d;
    }
    d.shared = true;
    if (!d.given_out) d.given_out.emplace();
    for (const auto& c : r.consumed_capacity) detail::add_amount(*d.given_out, c.name, c.value);
    return &d;
  }

  void replace_with(ledger&& other) noexcept {
    const std::uint64_t newer = std::max(version_, other.version_) + 1;
    devices_ = std::move(other.devices_);
    pool_versions_ = std::move(other.pool_versions_);
    version_ = newer;
    for (auto& entry : pool_versions_) entry.second = newer;
    changed_devices_.clear();
    generation_ = std::max(generation_, other.generation_) + 1;
  }

  std::uint64_t version_ = 0;
  std::uint64_t generation_ = 0;
  std::vector<device_ref> changed_devices_;
  std::unordered_map<device_ref, std::uint64_t, device_ref_hash> pool_versions_;  // device name empty
  std::unordered_map<device_ref, device_state, device_ref_hash> devices_;
};

}  // namespace dra::alloc
