// Allocating a scheduler's own inventory and claim types (alloc/inventory_concepts.hpp) without building model::
// objects: the inventory is read once, each call's claims as they come, and results come back as plain values.
//
//   auto allocator = dra::alloc::inventory_allocator<>::make(my_pools, my_classes, engine);  // result<...>
//   auto outcome = allocator->allocate("node-1", my_claims);  // result<inventory_outcome>
//   if (const auto* placed = outcome->fit()) allocator->commit(*placed);  // its devices are taken from now on
//
// The inventory_allocator copies every text it reads, so the user's objects need not outlive it; the selector
// engine is borrowed. Inside, model:: objects and alloc::basic_allocator do the work: results are those of the
// model path for the same objects (tests/alloc/inventory_test.cpp checks it).
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/inventory_concepts.hpp>
#include <dra/alloc/inventory_traits.hpp>
#include <dra/cel/selector.hpp>
#include <dra/model/build.hpp>

#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace dra::alloc {

// One device given to one request of a claim.
struct device_choice {
  std::string request;  // the request's name
  std::string driver;
  std::string pool;
  std::string device;
  std::optional<std::string> share_id;                     // set for a shared device (KEP-5075)
  std::vector<std::pair<std::string, quantity>> consumed;  // what the request takes of a shared device's capacity
  friend bool operator==(const device_choice&, const device_choice&) = default;
};

// Devices for every claim of one allocate() call on `node`: `claims[i]` are the devices of the i-th claim given.
class placement {
 public:
  std::string node;
  std::vector<std::vector<device_choice>> claims;

 private:
  template <allocation_policy, selector_engine>
  friend class inventory_allocator;
  std::vector<model::allocation_result> results_;  // what commit() records
  std::shared_ptr<const void> texts_;              // the store of the allocator that made it, which results_ borrow
};

// What inventory_allocator::allocate() found (broken input is the result's error instead).
struct inventory_outcome {
  std::variant<placement, unschedulable, invalid_pools> result;
  std::uint64_t search_steps = 0;

  [[nodiscard]] const placement* fit() const noexcept { return std::get_if<placement>(&result); }
  // Why the claims do not fit; empty when they do.
  [[nodiscard]] std::string_view reason() const noexcept { return reason_of(result); }
};

// The allocator over a user's inventory: upstream's search (and results, under first_fit) for claims of the
// user's types. Movable; not copyable.
template <allocation_policy Policy = first_fit, selector_engine Engine = cel::selector_engine>
class inventory_allocator {
 public:
  // Reads the pools and classes; an error names the pool, device and field of the first malformed value
  // (a quantity or version that does not parse, a name given twice).
  template <inventory Pools, inventory_device_classes Classes>
  [[nodiscard]] static result<inventory_allocator> make(const Pools& pools, const Classes& classes,
                                                        const Engine& engine, features f = features::all(),
                                                        Policy policy = {}) {
    inventory_allocator out;
    out.state_ = std::make_shared<state>();
    state& s = *out.state_;
    for (const auto& pool : pools) {
      auto slice = s.read_pool(pool);
      if (!slice) return std::move(slice).error();
      s.slices.push_back(std::move(*slice));
    }
    for (const auto& device_class : classes) s.classes.push_back(s.read_class(device_class));
    for (const auto& slice : s.slices) s.slice_pointers.push_back(&slice);
    for (const auto& device_class : s.classes) s.class_pointers.push_back(&device_class);
    s.allocator.emplace(f, s.committed_state, s.class_pointers, s.slice_pointers, engine, std::move(policy));
    return out;
  }

  // Allocates all `claims` together on `node` (pools for that node, for every node, and those whose node selector
  // its labels match): either each claim gets devices, or none does. Nothing is taken until commit().
  template <inventory_node Node, inventory_claims Claims>
  [[nodiscard]] result<inventory_outcome> allocate(const Node& node, const Claims& claims) {
    state& s = *state_;
    model::node on;
    on.meta.name = s.intern(traits<Node>::name(node));
    if constexpr (requires { traits<Node>::labels(node); }) {
      for (const auto& label : traits<Node>::labels(node))
        on.meta.labels.push_back({s.intern(label.first), s.intern(std::string_view(label.second))});
      model::sort_by_key(on.meta.labels);
    }
    return allocate_on(on, claims);
  }
  // The same on a node known by its name alone (no labels).
  template <inventory_claims Claims>
  [[nodiscard]] result<inventory_outcome> allocate(std::string_view node, const Claims& claims) {
    model::node on;
    on.meta.name = state_->intern(node);
    return allocate_on(on, claims);
  }

  // Records a placement: its devices (and shared capacity) are taken for later calls. Devices are known by
  // driver, pool and name, so a placement another allocator made over the same inventory counts too.
  void commit(const placement& p) {
    state& s = *state_;
    if (p.texts_ != state_) s.borrowed.push_back(p.texts_);
    for (const auto& a : p.results_) s.committed_state.add(s.committed.emplace_back(a));
  }

  inventory_allocator(inventory_allocator&&) noexcept = default;
  inventory_allocator& operator=(inventory_allocator&&) noexcept = default;
  inventory_allocator(const inventory_allocator&) = delete;  // one inventory, one ledger
  inventory_allocator& operator=(const inventory_allocator&) = delete;

  // At most `steps` search steps per allocate() call (0: no limit), as basic_allocator::set_step_budget.
  void set_step_budget(std::uint64_t steps) noexcept { state_->allocator->set_step_budget(steps); }

 private:
  // How a user's object is read (alloc/inventory_traits.hpp).
  template <class T>
  using traits = inventory_traits<std::remove_cvref_t<T>>;

  inventory_allocator() = default;

  template <inventory_claims Claims>
  result<inventory_outcome> allocate_on(const model::node& on, const Claims& claims) {
    state& s = *state_;
    std::vector<model::resource_claim> read;
    for (const auto& claim : claims) {
      auto c = s.read_claim(claim);
      if (!c) return std::move(c).error();
      read.push_back(std::move(*c));
    }
    std::vector<const model::resource_claim*> pointers;
    for (const auto& c : read) pointers.push_back(&c);
    auto found = s.allocator->allocate(on, pointers);
    if (!found) return std::move(found).error();
    inventory_outcome out;
    out.search_steps = found->search_steps;
    if (auto* fit = found->fit()) {
      placement p;
      p.node = std::string(on.meta.name);
      for (const auto& a : fit->results) p.claims.push_back(choices_of(a));
      // Share IDs and request names the search made belong to this call: keep them with the placement.
      p.results_ = std::move(fit->results);
      p.texts_ = state_;
      out.result = std::move(p);
    } else if (const auto* invalid = std::get_if<invalid_pools>(&found->result)) {
      out.result = *invalid;
    } else {
      out.result = unschedulable{};
    }
    return out;
  }

  static std::vector<device_choice> choices_of(const model::allocation_result& a) {
    std::vector<device_choice> out;
    for (const auto& r : a.results) {
      device_choice c{r.request, std::string(r.driver), std::string(r.pool), std::string(r.device), r.share_id, {}};
      for (const auto& used : r.consumed_capacity) c.consumed.emplace_back(std::string(used.name), used.value);
      out.push_back(std::move(c));
    }
    return out;
  }

  // Everything the inner allocator borrows, in one place that does not move.
  struct state {
    std::set<std::string, std::less<>> texts;  // every text read, once: model:: objects borrow from here
    std::deque<model::resource_slice> slices;
    std::deque<model::device_class> classes;
    std::vector<const model::resource_slice*> slice_pointers;
    std::vector<const model::device_class*> class_pointers;
    std::deque<model::allocation_result> committed;
    std::vector<std::shared_ptr<const void>> borrowed;  // stores of other allocators that `committed` borrows from
    ledger committed_state;
    std::optional<basic_allocator<Policy, Engine>> allocator;

    model::text intern(std::string_view t) { return *texts.emplace(t).first; }

    template <class Q>
    result<quantity> read_quantity(const Q& q) {
      if constexpr (std::convertible_to<const Q&, quantity>)
        return quantity(q);
      else
        return quantity::parse(std::string_view(q));
    }

    // Parsed only: the builders sort them and reject a counter given twice.
    template <class Counters>
    result<model::counter_map> read_counters(const Counters& counters) {
      model::counter_map out;
      for (const auto& counter : counters) {
        const std::string_view name = counter.first;
        auto q = read_quantity(counter.second);
        if (!q) return std::move(q).error().within(dra::concat(name, ".value"));
        out.push_back({intern(name), *q});
      }
      return out;
    }

    // Texts interned, versions parsed (an error names the field: "version", "versions[2]").
    result<model::attribute_value> read_attribute(const attribute_value_view& view) {
      auto version = [&](version_text v) { return model::make_version(intern(v.text)); };
      return std::visit(
          [&]<class V>(const V& v) -> result<model::attribute_value> {
            if constexpr (std::is_same_v<V, version_text>) {
              auto parsed = version(v);
              if (!parsed) return std::move(parsed).error().within("version");
              return model::attribute_value(std::move(*parsed));
            } else if constexpr (std::is_same_v<V, std::string_view>) {
              return model::attribute_value(intern(v));
            } else if constexpr (std::is_same_v<V, std::span<const std::string_view>>) {
              std::vector<model::text> texts;
              for (std::string_view t : v) texts.push_back(intern(t));
              return model::attribute_value(std::move(texts));
            } else if constexpr (std::is_same_v<V, std::span<const version_text>>) {
              std::vector<model::version_value> versions;
              for (std::size_t i = 0; i < v.size(); ++i) {
                auto parsed = version(v[i]);
                if (!parsed)
                  return std::move(parsed).error().within(dra::concat("versions[", std::to_string(i), "]"));
                versions.push_back(std::move(*parsed));
              }
              return model::attribute_value(std::move(versions));
            } else if constexpr (std::is_same_v<V, std::span<const std::int64_t>>) {
              return model::attribute_value(std::vector<std::int64_t>(v.begin(), v.end()));
            } else if constexpr (std::is_same_v<V, std::span<const bool>>) {
              return model::attribute_value(std::vector<bool>(v.begin(), v.end()));
            } else {
              return model::attribute_value(v);
            }
          },
          view);
    }

    template <detail::toleration_like T>
    result<model::device_toleration> read_toleration(const T& t) {
      model::device_toleration out;
      out.key = intern(traits<T>::key(t));
      if constexpr (requires { traits<T>::op(t); }) {
        const std::string_view op = traits<T>::op(t);
        out.op = model::parse_toleration_operator(op);
        if (out.op == model::toleration_operator::unsupported)
          return dra::error{
              dra::concat("unsupported toleration operator ", dra::quoted(op), ": Equal or Exists"),
              "operator", "", errc::invalid_object};
      }
      if constexpr (requires { traits<T>::value(t); }) out.value = intern(traits<T>::value(t));
      if constexpr (requires { traits<T>::effect(t); }) out.effect = intern(traits<T>::effect(t));
      return out;
    }

    template <inventory_device D>
    result<model::device> read_device(const D& d) {
      model::device_builder b(intern(traits<D>::name(d)));
      for (const auto& attribute : traits<D>::attributes(d)) {
        const model::text key = intern(attribute.first);
        auto value = read_attribute(attribute_value_view(attribute.second));
        if (!value) return std::move(value).error().within(dra::concat("attributes.", key));
        b.attribute(key, std::move(*value));
      }
      if constexpr (requires { traits<D>::capacities(d); })
        for (const auto& capacity : traits<D>::capacities(d)) {
          const std::string_view name = capacity.first;
          auto q = read_quantity(capacity.second);
          if (!q) return std::move(q).error().within(dra::concat("capacity.", name, ".value"));
          b.capacity(intern(name), model::device_capacity{*q, {}});
        }
      if constexpr (requires { traits<D>::counters(d); })
        for (const auto& consumption : traits<D>::counters(d)) {
          const std::string_view set = consumption.first;
          auto map = read_counters(consumption.second);
          if (!map) return std::move(map).error().within(dra::concat("consumesCounters.", set));
          b.consumes(intern(set), std::move(*map));
        }
      if constexpr (requires { traits<D>::shared(d); })
        b.allow_multiple_allocations(static_cast<bool>(traits<D>::shared(d)));
      if constexpr (requires { traits<D>::taints(d); }) {
        std::size_t i = 0;
        for (const auto& t : traits<D>::taints(d)) {
          using taint = traits<decltype(t)>;
          const std::string_view effect = taint::effect(t);
          if (!model::is_taint_effect(effect))
            return dra::error{dra::concat("unsupported taint effect ", dra::quoted(effect),
                                                  ": NoSchedule, NoExecute or None"),
                              dra::concat("taints[", std::to_string(i), "].effect"), "", errc::invalid_object};
          std::string_view value;
          if constexpr (requires { taint::value(t); }) value = taint::value(t);
          b.taint(model::device_taint{intern(taint::key(t)), intern(value), intern(effect), std::nullopt});
          ++i;
        }
      }
      return b.build();
    }

    // The pool's node selector; no terms when it has none.
    template <inventory_pool P>
    result<model::node_selector> read_node_selector(const P& p) {
      model::node_selector out;
      if constexpr (requires { traits<P>::node_selector(p); }) {
        std::size_t t = 0;
        for (const auto& term : traits<P>::node_selector(p)) {
          model::node_selector_term& read = out.terms.emplace_back();
          std::size_t i = 0;
          for (const auto& requirement : term) {
            using requirement_traits = traits<decltype(requirement)>;
            model::node_selector_requirement r;
            r.key = intern(requirement_traits::key(requirement));
            const std::string_view op = requirement_traits::op(requirement);
            r.op = model::parse_node_selector_operator(op);
            if (r.op == model::node_selector_operator::unsupported)
              return dra::error{dra::concat("unsupported node selector operator ", dra::quoted(op),
                                                    ": In, NotIn, Exists, DoesNotExist, Gt or Lt"),
                                dra::concat("nodeSelector.nodeSelectorTerms[", std::to_string(t),
                                                    "].matchExpressions[", std::to_string(i), "].operator"),
                                "", errc::invalid_object};
            if constexpr (requires { requirement_traits::values(requirement); })
              for (const auto& value : requirement_traits::values(requirement)) r.values.push_back(intern(value));
            read.match_expressions.push_back(std::move(r));
            ++i;
          }
          ++t;
        }
      }
      return out;
    }

    template <inventory_pool P>
    result<model::resource_slice> read_pool(const P& p) {
      const std::string_view driver = traits<P>::driver(p), pool = traits<P>::name(p), node = traits<P>::node(p);
      std::int64_t generation = 1;
      if constexpr (requires { traits<P>::generation(p); }) generation = traits<P>::generation(p);
      // An error names the pool as its object ("pool gpu.example.com/node-1") and the field inside it.
      auto in_pool = [&](dra::error e, std::string_view path) {
        e = std::move(e).within(path);
        e.object = dra::concat("pool ", driver, "/", pool);
        return e;
      };
      model::slice_builder b(intern(dra::concat(driver, "/", pool)), intern(driver));
      bool complete = true;
      if constexpr (requires { traits<P>::complete(p); }) complete = static_cast<bool>(traits<P>::complete(p));
      b.pool(intern(pool), generation, complete ? 1 : 2);  // incomplete: one slice of two seen, as mid-update
      auto selector = read_node_selector(p);
      if (!selector) return in_pool(std::move(selector).error(), {});
      if (!selector->terms.empty() && !node.empty())
        return in_pool(dra::error{"a pool is for one node or for the nodes its node selector picks, not both",
                                  "nodeSelector", "", errc::invalid_object},
                       {});
      if (!selector->terms.empty())
        b.node_selector(std::move(*selector));
      else if (node.empty())
        b.all_nodes();
      else
        b.node_name(intern(node));
      if constexpr (requires { traits<P>::counter_sets(p); })
        for (const auto& set : traits<P>::counter_sets(p)) {
          const std::string_view name = set.first;
          auto map = read_counters(set.second);
          if (!map) return in_pool(std::move(map).error(), dra::concat("counterSets.", name));
          b.counter_set(intern(name), std::move(*map));
        }
      for (const auto& d : traits<P>::devices(p)) {
        auto device = read_device(d);
        if (!device)
          return in_pool(std::move(device).error(),
                         dra::concat("devices.", std::string_view(traits<decltype(d)>::name(d))));
        b.device(std::move(*device));
      }
      auto slice = b.build();
      if (!slice) return in_pool(std::move(slice).error(), {});
      return slice;
    }

    template <inventory_device_class C>
    model::device_class read_class(const C& c) {
      model::class_builder b(intern(traits<C>::name(c)));
      for (const auto& selector : traits<C>::selectors(c)) b.selector(intern(selector));
      return std::move(b.build()).value();
    }

    // A request's or subrequest's own fields; errors name the field within it.
    template <inventory_subrequest R>
    result<model::request_builder> read_request(const R& r) {
      model::request_builder rb(intern(traits<R>::name(r)), intern(traits<R>::device_class(r)));
      if constexpr (requires { traits<R>::selectors(r); })
        for (const auto& selector : traits<R>::selectors(r)) rb.selector(intern(selector));
      if constexpr (requires { traits<R>::count(r); }) rb.count(static_cast<std::int64_t>(traits<R>::count(r)));
      if constexpr (requires { traits<R>::all(r); })
        if (traits<R>::all(r)) rb.all();
      if constexpr (requires { traits<R>::capacity(r); })
        for (const auto& ask : traits<R>::capacity(r)) {
          const std::string_view name = ask.first;
          auto q = read_quantity(ask.second);
          if (!q) return std::move(q).error().within(dra::concat("capacity.", name));
          rb.capacity(intern(name), *q);
        }
      if constexpr (requires { traits<R>::tolerations(r); }) {
        std::size_t i = 0;
        for (const auto& t : traits<R>::tolerations(r)) {
          auto toleration = read_toleration(t);
          if (!toleration)
            return std::move(toleration).error().within(dra::concat("tolerations[", std::to_string(i), "]"));
          rb.toleration(std::move(*toleration));
          ++i;
        }
      }
      return rb;
    }

    template <inventory_claim C>
    result<model::resource_claim> read_claim(const C& c) {
      std::string_view namespace_name;
      if constexpr (requires { traits<C>::namespace_name(c); }) namespace_name = traits<C>::namespace_name(c);
      model::claim_builder b(intern(namespace_name), intern(traits<C>::name(c)));
      // An error names the claim and the request's field.
      auto in_claim = [&](dra::error e, std::string_view path) {
        e = std::move(e).within(path);
        e.object = dra::concat("claim ", namespace_name, "/", std::string_view(traits<C>::name(c)));
        return e;
      };
      for (const auto& r : traits<C>::requests(c)) {
        using request = traits<decltype(r)>;
        const std::string path = dra::concat("requests.", std::string_view(request::name(r)));
        if constexpr (requires { request::alternatives(r); }) {
          const auto& alternatives = request::alternatives(r);  // a temporary lives as long as this reference
          if (!std::ranges::empty(alternatives)) {
            std::vector<model::request_builder> subrequests;
            for (const auto& sub : alternatives) {
              auto rb = read_request(sub);
              if (!rb)
                return in_claim(
                    std::move(rb).error(),
                    dra::concat(path, ".firstAvailable.", std::string_view(traits<decltype(sub)>::name(sub))));
              subrequests.push_back(std::move(*rb));
            }
            b.first_available(intern(request::name(r)), std::move(subrequests));
            continue;
          }
        }
        auto rb = read_request(r);
        if (!rb) return in_claim(std::move(rb).error(), path);
        if constexpr (requires { request::admin_access(r); })
          rb->admin_access(static_cast<bool>(request::admin_access(r)));
        b.request(std::move(*rb));
      }
      if constexpr (requires { traits<C>::match_attributes(c); })
        for (const auto& attribute : traits<C>::match_attributes(c)) b.match_attribute(intern(attribute));
      if constexpr (requires { traits<C>::distinct_attributes(c); })
        for (const auto& attribute : traits<C>::distinct_attributes(c)) b.distinct_attribute(intern(attribute));
      return b.build();
    }
  };

  std::shared_ptr<state> state_;  // shared with the placements it makes, whose results borrow its texts
};

}  // namespace dra::alloc
