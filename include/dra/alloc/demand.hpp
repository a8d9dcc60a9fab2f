// The requests still waiting for devices (pending demand), which the facts policies weigh placements by.
#pragma once

#include <dra/model/resource_claim.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dra::alloc {

// What picks the devices a request can take: its device class and its own selectors (CEL expressions).
// Requests that agree on both want the same devices, whatever their counts or capacity.
struct request_shape {
  std::string device_class;
  std::vector<std::string> selectors;
  friend auto operator<=>(const request_shape&, const request_shape&) = default;
};

// The requests of the claims still to be allocated, by shape, each with how many requests (and subrequest
// alternatives) of that shape are pending. Given to an allocator (basic_allocator::set_demand), it makes the
// facts count a lost placement once per pending request that could take it, and a counter as stranded only when
// some pending request could use it: where nobody asks for a 4g, a 1g that rules out an A100's 4g at 0 costs
// nothing for it, and where 1g pods outnumber 3g ones, lost 1g placements weigh more. A count weighs by its order of
// magnitude (weight()), so that the weights, and what was worked out with them, change only when a count crosses a
// power of two (epoch()). Without one the facts count every placement once, as if one request wanted each device.
class pending_demand {
 public:
  // A claim's requests join the demand, or (remove) leave it once the claim was allocated or given up.
  void add(const model::device_claim& claim) { change(claim, true); }
  void remove(const model::device_claim& claim) { change(claim, false); }

  // The shapes some pending request has, with how many do.
  [[nodiscard]] const std::map<request_shape, std::size_t>& shapes() const noexcept { return pending_; }
  [[nodiscard]] bool empty() const noexcept { return pending_.empty(); }

  // What `pending` requests of one shape weigh: 1 for one, 2 for two or three, 3 for four to seven, ...
  [[nodiscard]] static double weight(std::size_t pending) noexcept {
    return static_cast<double>(std::bit_width(pending));
  }
  // Changes whenever some shape's weight does: facts worked out at one epoch hold until the next.
  [[nodiscard]] std::uint64_t epoch() const noexcept { return epoch_; }

 private:
  void change(const model::device_claim& claim, bool add) {
    for (const auto& request : claim.requests) {
      if (request.exactly) change(*request.exactly, add);
      for (const auto& sub : request.first_available) change(sub, add);
    }
  }
  void change(const model::device_request_spec& spec, bool add) {
    request_shape shape{std::string(spec.device_class_name), {}};
    for (const auto& selector : spec.selectors) shape.selectors.emplace_back(selector.cel_expression);
    if (add) {
      const std::size_t count = ++pending_[std::move(shape)];
      if (std::has_single_bit(count)) ++epoch_;  // 1, 2, 4, ...: a new weight
      return;
    }
    const auto it = pending_.find(shape);
    if (it == pending_.end()) return;
    if (std::has_single_bit(it->second)) ++epoch_;  // leaving 1, 2, 4, ...: a new weight
    if (--it->second == 0) pending_.erase(it);
  }

  std::map<request_shape, std::size_t> pending_;
  std::uint64_t epoch_ = 0;
};

}  // namespace dra::alloc
