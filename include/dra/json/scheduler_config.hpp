// Reads a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1, YAML or JSON) into the scoring of one of its
// profiles, with kube-scheduler's defaults, plugin merging and validation of the parts dra uses.
#pragma once

#include <dra/core/result.hpp>
#include <dra/core/text.hpp>
#include <dra/json/yaml.hpp>
#include <dra/model/scheduler_config.hpp>

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace dra::json {

inline constexpr std::string_view scheduler_config_api_version = "kubescheduler.config.k8s.io/v1";

namespace detail::scheduler_config {

using element = simdjson::dom::element;

// A plugin as a plugin set lists it; weight 0 when not given.
struct plugin_entry {
  std::string name;
  std::int64_t weight = 0;
};

struct plugin_set {
  std::vector<plugin_entry> enabled;
  std::vector<plugin_entry> disabled;
};

// The in-tree plugins (pkg/scheduler/framework/plugins/names) that have a Score extension, and those that have none.
inline constexpr std::array<std::string_view, 9> score_plugins{
    "TaintToleration", "NodeAffinity",      "NodeResourcesFit", "NodeResourcesBalancedAllocation",
    "ImageLocality",   "PodTopologySpread", "InterPodAffinity", "VolumeBinding",
    "DynamicResources"};
inline constexpr std::array<std::string_view, 13> other_plugins{
    "PrioritySort",       "SchedulingGates",   "NodeUnschedulable",   "NodeName",          "NodePorts",
    "VolumeRestrictions", "NodeVolumeLimits",  "VolumeZone",          "DefaultPreemption", "DefaultBinder",
    "GangScheduling",     "TopologyPlacement", "NodeDeclaredFeatures"};
// Plugins the v1 API removed (validation.go's invalidPluginsByVersion).
inline constexpr std::array<std::string_view, 4> removed_plugins{"AzureDiskLimits", "CinderLimits", "EBSLimits",
                                                                 "GCEPDLimits"};

[[nodiscard]] inline bool listed(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The default profile's multiPoint plugins with their weights (apis/config/v1 default_plugins.go, 1.36 and 1.37:
// DynamicResources weighs 2); the others have none.
[[nodiscard]] inline std::vector<plugin_entry> default_multi_point() {
  return {{"SchedulingGates", 0},
          {"PrioritySort", 0},
          {"NodeUnschedulable", 0},
          {"NodeName", 0},
          {"TaintToleration", 3},
          {"NodeAffinity", 2},
          {"NodePorts", 0},
          {"NodeResourcesFit", 1},
          {"VolumeRestrictions", 0},
          {"NodeVolumeLimits", 0},
          {"VolumeBinding", 0},
          {"VolumeZone", 0},
          {"PodTopologySpread", 2},
          {"InterPodAffinity", 2},
          {"DynamicResources", 2},
          {"DefaultPreemption", 0},
          {"NodeResourcesBalancedAllocation", 1},
          {"ImageLocality", 1},
          {"DefaultBinder", 0}};
}

// field.ErrorList's wording, value written as Go's %v or %q would.
[[nodiscard]] inline dra::error field_error(std::string path, std::string message, errc code = errc::invalid_object) {
  return dra::error{std::move(message), std::move(path), "", code};
}
[[nodiscard]] inline std::string go_quoted(std::string_view text) { return dra::concat("\"", text, "\""); }

[[nodiscard]] inline std::string child(std::string_view path, std::string_view name) {
  return path.empty() ? std::string(name) : dra::concat(path, ".", name);
}
[[nodiscard]] inline std::string index(std::string_view path, std::size_t i) {
  return dra::concat(path, "[", std::to_string(i), "]");
}

// The JSON type's name, for a field of the wrong type.
[[nodiscard]] inline std::string_view type_name(const element& value) {
  switch (value.type()) {
    case simdjson::dom::element_type::OBJECT:
      return "an object";
    case simdjson::dom::element_type::ARRAY:
      return "a list";
    case simdjson::dom::element_type::STRING:
      return "a string";
    case simdjson::dom::element_type::BOOL:
      return "a boolean";
    case simdjson::dom::element_type::NULL_VALUE:
      return "null";
    default:
      return "a number";
  }
}

[[nodiscard]] inline dra::error wrong_type(const std::string& path, std::string_view wanted, const element& value) {
  return field_error(path, dra::concat("must be ", wanted, ", not ", type_name(value)), errc::invalid_field);
}

// An object's fields, each known to the caller; any other is an unknown field (kube-scheduler decodes strictly).
template <class Visit>
[[nodiscard]] inline dra::status fields(const element& value, const std::string& path,
                                        std::span<const std::string_view> known, Visit visit) {
  if (value.is_null()) return {};
  simdjson::dom::object object;
  if (value.get(object) != simdjson::SUCCESS) return wrong_type(path, "an object", value);
  for (auto field : object) {
    const std::string name(field.key);
    const std::string at = child(path, name);
    if (!listed(known, name))
      return field_error(at, dra::concat("unknown field ", go_quoted(name)), errc::unknown_field);
    if (auto done = visit(std::string_view(name), field.value, at); !done) return done;
  }
  return {};
}

// Each element of a list (null: none).
template <class Visit>
[[nodiscard]] inline dra::status items(const element& value, const std::string& path, Visit visit) {
  if (value.is_null()) return {};
  simdjson::dom::array array;
  if (value.get(array) != simdjson::SUCCESS) return wrong_type(path, "a list", value);
  std::size_t i = 0;
  for (element item : array) {
    if (auto done = visit(item, index(path, i)); !done) return done;
    ++i;
  }
  return {};
}

[[nodiscard]] inline dra::status read_string(const element& value, const std::string& path, std::string& out) {
  std::string_view text;
  if (value.get(text) != simdjson::SUCCESS) return wrong_type(path, "a string", value);
  out = std::string(text);
  return {};
}

// An int32 field (weights, utilizations, scores).
[[nodiscard]] inline dra::status read_int32(const element& value, const std::string& path, std::int64_t& out) {
  std::int64_t number = 0;
  if (value.get(number) != simdjson::SUCCESS) return wrong_type(path, "a whole number", value);
  if (number < std::numeric_limits<std::int32_t>::min() || number > std::numeric_limits<std::int32_t>::max())
    return field_error(path, dra::concat("Invalid value: ", std::to_string(number), ": out of the range of int32"),
                       errc::invalid_field);
  out = number;
  return {};
}

[[nodiscard]] inline dra::status read_plugin(const element& value, const std::string& path, plugin_entry& out) {
  static constexpr std::array<std::string_view, 2> known{"name", "weight"};
  return fields(value, path, known, [&](std::string_view name, const element& v, const std::string& at) -> dra::status {
    if (v.is_null()) return dra::status{};
    return name == "name" ? read_string(v, at, out.name) : read_int32(v, at, out.weight);
  });
}

[[nodiscard]] inline dra::status read_plugin_set(const element& value, const std::string& path, plugin_set& out) {
  static constexpr std::array<std::string_view, 2> known{"enabled", "disabled"};
  return fields(value, path, known, [&](std::string_view name, const element& v, const std::string& at) -> dra::status {
    std::vector<plugin_entry>& list = name == "enabled" ? out.enabled : out.disabled;
    return items(v, at, [&](const element& item, const std::string& item_at) -> dra::status {
      return read_plugin(item, item_at, list.emplace_back());
    });
  });
}

// The resources list of NodeResourcesFit's scoringStrategy or BalancedAllocation's args.
[[nodiscard]] inline dra::status read_resources(const element& value, const std::string& path,
                                                std::vector<model::resource_weight>& out) {
  out.clear();
  return items(value, path, [&](const element& item, const std::string& at) -> dra::status {
    static constexpr std::array<std::string_view, 2> known{"name", "weight"};
    model::resource_weight& r = out.emplace_back();
    r.weight = 0;  // not given: defaulted to 1 below
    return fields(item, at, known,
                  [&](std::string_view name, const element& v, const std::string& field_at) -> dra::status {
                    if (v.is_null()) return dra::status{};
                    return name == "name" ? read_string(v, field_at, r.name) : read_int32(v, field_at, r.weight);
                  });
  });
}

// NodeResourcesFit's args as given.
struct fit_args {
  std::string path;  // of `args`
  bool strategy_given = false;
  std::string type;
  std::vector<model::resource_weight> resources;
  std::optional<std::vector<model::utilization_shape_point>> shape;  // requestedToCapacityRatio's, when given
  bool ratio_given = false;
};

// BalancedAllocation's args as given.
struct balanced_args {
  std::string path;
  std::vector<model::resource_weight> resources;
};

// What one profile says, before defaults and validation.
struct raw_profile {
  std::optional<std::string> scheduler_name;
  plugin_set multi_point;
  plugin_set score;
  std::optional<fit_args> fit;
  std::optional<balanced_args> balanced;
};

[[nodiscard]] inline dra::status read_fit_args(const element& value, const std::string& path, fit_args& out) {
  static constexpr std::array<std::string_view, 5> known{"apiVersion", "kind", "ignoredResources",
                                                         "ignoredResourceGroups", "scoringStrategy"};
  out.path = path;
  return fields(value, path, known, [&](std::string_view name, const element& v, const std::string& at) -> dra::status {
    if (name != "scoringStrategy" || v.is_null()) return dra::status{};  // the filter's fields: not dra's concern
    out.strategy_given = true;
    static constexpr std::array<std::string_view, 3> strategy_fields{"type", "resources", "requestedToCapacityRatio"};
    return fields(
        v, at, strategy_fields, [&](std::string_view field, const element& fv, const std::string& fat) -> dra::status {
          if (fv.is_null()) return dra::status{};
          if (field == "type") return read_string(fv, fat, out.type);
          if (field == "resources") return read_resources(fv, fat, out.resources);
          out.ratio_given = true;
          static constexpr std::array<std::string_view, 1> ratio_fields{"shape"};
          return fields(
              fv, fat, ratio_fields, [&](std::string_view, const element& sv, const std::string& sat) -> dra::status {
                auto& shape = out.shape.emplace();
                return items(sv, sat, [&](const element& point, const std::string& pat) -> dra::status {
                  static constexpr std::array<std::string_view, 2> point_fields{"utilization", "score"};
                  model::utilization_shape_point& p = shape.emplace_back();
                  return fields(point, pat, point_fields,
                                [&](std::string_view pf, const element& pv, const std::string& ppat) -> dra::status {
                                  if (pv.is_null()) return dra::status{};
                                  return read_int32(pv, ppat, pf == "utilization" ? p.utilization : p.score);
                                });
                });
              });
        });
  });
}

[[nodiscard]] inline dra::status read_profile(const element& value, const std::string& path, raw_profile& out) {
  static constexpr std::array<std::string_view, 4> known{"schedulerName", "percentageOfNodesToScore", "plugins",
                                                         "pluginConfig"};
  std::vector<std::string> configured;  // pluginConfig names seen
  return fields(value, path, known, [&](std::string_view name, const element& v, const std::string& at) -> dra::status {
    if (name == "schedulerName") {
      if (v.is_null()) return dra::status{};
      return read_string(v, at, out.scheduler_name.emplace());
    }
    if (name == "percentageOfNodesToScore") return dra::status{};
    if (name == "plugins") {
      static constexpr std::array<std::string_view, 13> points{
          "multiPoint", "preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore",
          "score",      "reserve",    "permit",    "preBind",   "bind",   "postBind"};
      return fields(
          v, at, points, [&](std::string_view point, const element& pv, const std::string& pat) -> dra::status {
            plugin_set ignored;
            plugin_set& set = point == "multiPoint" ? out.multi_point : point == "score" ? out.score : ignored;
            return read_plugin_set(pv, pat, set);
          });
    }
    return items(v, at, [&](const element& item, const std::string& item_at) -> dra::status {
      static constexpr std::array<std::string_view, 2> config_fields{"name", "args"};
      std::string plugin;
      const element* args = nullptr;
      element args_value;
      if (auto done = fields(item, item_at, config_fields,
                             [&](std::string_view f, const element& fv, const std::string& fat) -> dra::status {
                               if (f == "name") return fv.is_null() ? dra::status{} : read_string(fv, fat, plugin);
                               args_value = fv;
                               args = &args_value;
                               return dra::status{};
                             });
          !done)
        return done;
      if (std::find(configured.begin(), configured.end(), plugin) != configured.end())
        return field_error(item_at, dra::concat("Duplicate value: ", go_quoted(plugin)));
      configured.push_back(plugin);
      const std::string args_at = child(item_at, "args");
      if (plugin == "NodeResourcesFit") {
        auto& fit = out.fit.emplace();
        fit.path = args_at;
        return args != nullptr ? read_fit_args(*args, args_at, fit) : dra::status{};
      }
      if (plugin == "NodeResourcesBalancedAllocation") {
        auto& balanced = out.balanced.emplace();
        balanced.path = args_at;
        if (args == nullptr) return dra::status{};
        static constexpr std::array<std::string_view, 3> balanced_fields{"apiVersion", "kind", "resources"};
        return fields(*args, args_at, balanced_fields,
                      [&](std::string_view f, const element& fv, const std::string& fat) -> dra::status {
                        return f == "resources" ? read_resources(fv, fat, balanced.resources) : dra::status{};
                      });
      }
      return dra::status{};  // other plugins' args do not change the scores dra models
    });
  });
}

// Why a plugin named in a score or multiPoint list cannot be there, if it cannot (framework.go's updatePluginList
// and expandMultiPointPlugins, validation.go's removed plugins). `point`: "ScorePlugin" or, for multiPoint, the first
// extension point the framework expands ("PreFilterPlugin").
[[nodiscard]] inline std::optional<dra::error> plugin_problem(const plugin_entry& p, const std::string& path,
                                                              std::string_view point, bool needs_score) {
  if (listed(removed_plugins, p.name))
    return field_error(path,
                       dra::concat("Invalid value: ", go_quoted(p.name), ": was invalid in version ",
                                   go_quoted(scheduler_config_api_version), " (KubeSchedulerConfiguration is version ",
                                   go_quoted(scheduler_config_api_version), ")"));
  const bool scores = listed(score_plugins, p.name);
  if (!scores && !listed(other_plugins, p.name))
    return field_error(path, dra::concat(point, " ", go_quoted(p.name), " does not exist"));
  if (needs_score && !scores)
    return field_error(path, dra::concat("plugin ", go_quoted(p.name), " does not extend ScorePlugin plugin"));
  return std::nullopt;
}

// mergePluginSet: the default multiPoint list without the plugins `custom` disables (all with "*"), a default the
// custom list enables again replaced in place by it, then the other custom plugins.
[[nodiscard]] inline std::vector<plugin_entry> merged_multi_point(const plugin_set& custom) {
  const auto disabled = [&](std::string_view name) {
    return std::any_of(custom.disabled.begin(), custom.disabled.end(),
                       [&](const plugin_entry& d) { return d.name == name || d.name == "*"; });
  };
  std::vector<plugin_entry> out;
  std::vector<bool> replaced(custom.enabled.size(), false);
  for (const plugin_entry& p : default_multi_point()) {
    if (disabled(p.name)) continue;
    plugin_entry entry = p;
    for (std::size_t i = 0; i < custom.enabled.size(); ++i)
      if (custom.enabled[i].name == p.name) {
        entry = custom.enabled[i];
        replaced[i] = true;
      }
    out.push_back(entry);
  }
  for (std::size_t i = 0; i < custom.enabled.size(); ++i)
    if (!replaced[i]) out.push_back(custom.enabled[i]);
  return out;
}

// The score plugins' weights (framework.go): the score list's plugins, then the multiPoint plugins the score list
// neither disables nor names; a plugin's weight is its first entry's in the score list then multiPoint, 0 meaning 1.
[[nodiscard]] inline result<model::score_weights> score_weights_of(const raw_profile& p, const std::string& path) {
  const std::string plugins_at = child(path, "plugins");
  std::vector<std::string> scored;
  for (std::size_t i = 0; i < p.score.enabled.size(); ++i) {
    const std::string at = index(child(child(plugins_at, "score"), "enabled"), i);
    if (auto problem = plugin_problem(p.score.enabled[i], at, "ScorePlugin", true)) return std::move(*problem);
    if (std::find(scored.begin(), scored.end(), p.score.enabled[i].name) != scored.end())
      return field_error(
          at, dra::concat("plugin ", go_quoted(p.score.enabled[i].name), " already registered as \"ScorePlugin\""));
    scored.push_back(p.score.enabled[i].name);
  }
  for (std::size_t i = 0; i < p.multi_point.enabled.size(); ++i)
    if (auto problem =
            plugin_problem(p.multi_point.enabled[i], index(child(child(plugins_at, "multiPoint"), "enabled"), i),
                           "PreFilterPlugin", false))
      return std::move(*problem);
  const std::vector<plugin_entry> multi_point = merged_multi_point(p.multi_point);
  const auto score_disabled = [&](std::string_view name) {
    return std::any_of(p.score.disabled.begin(), p.score.disabled.end(),
                       [&](const plugin_entry& d) { return d.name == name || d.name == "*"; });
  };
  std::vector<std::string> from_multi_point;
  for (const plugin_entry& e : multi_point) {
    if (!listed(score_plugins, e.name) || score_disabled(e.name)) continue;
    if (std::find(scored.begin(), scored.end(), e.name) != scored.end()) continue;  // the score list's entry wins
    if (std::find(from_multi_point.begin(), from_multi_point.end(), e.name) != from_multi_point.end())
      return field_error(child(plugins_at, "multiPoint"),
                         dra::concat("plugin ", go_quoted(e.name), " already registered as \"ScorePlugin\""));
    from_multi_point.push_back(e.name);
  }
  const auto weight_of = [&](std::string_view name) -> std::int64_t {
    const bool on = std::find(scored.begin(), scored.end(), name) != scored.end() ||
                    std::find(from_multi_point.begin(), from_multi_point.end(), name) != from_multi_point.end();
    if (!on) return 0;
    std::int64_t weight = 0;
    bool found = false;
    for (const plugin_entry& e : p.score.enabled)
      if (!found && e.name == name) weight = e.weight, found = true;
    for (const plugin_entry& e : multi_point)
      if (!found && e.name == name) weight = e.weight, found = true;
    return weight == 0 ? 1 : weight;
  };
  model::score_weights w;
  w.taint_toleration = weight_of("TaintToleration");
  w.node_affinity = weight_of("NodeAffinity");
  w.resources_fit = weight_of("NodeResourcesFit");
  w.balanced_allocation = weight_of("NodeResourcesBalancedAllocation");
  w.dynamic_resources = weight_of("DynamicResources");
  return w;
}

// validateFunctionShape's checks, in its order.
[[nodiscard]] inline dra::status validate_shape(const std::vector<model::utilization_shape_point>& shape,
                                                const std::string& path) {
  if (shape.empty()) return field_error(path, "Required value: at least one point must be specified");
  for (std::size_t i = 1; i < shape.size(); ++i)
    if (shape[i - 1].utilization >= shape[i].utilization)
      return field_error(child(index(path, i), "utilization"),
                         dra::concat("Invalid value: ", std::to_string(shape[i].utilization),
                                     ": values must be sorted in increasing order"));
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i].utilization < 0 || shape[i].utilization > 100)
      return field_error(
          child(index(path, i), "utilization"),
          dra::concat("Invalid value: ", std::to_string(shape[i].utilization), ": not in valid range [0, 100]"));
    if (shape[i].score < 0 || shape[i].score > 10)
      return field_error(child(index(path, i), "score"), dra::concat("Invalid value: ", std::to_string(shape[i].score),
                                                                     ": not in valid range [0, 10]"));
  }
  return {};
}

// NodeResourcesFit's args defaulted (SetDefaults_NodeResourcesFitArgs) and validated (ValidateNodeResourcesFitArgs).
[[nodiscard]] inline result<model::resources_fit_scoring> fit_scoring_of(const fit_args& args) {
  model::resources_fit_scoring out;
  if (!args.strategy_given) return out;  // LeastAllocated over cpu and memory
  const std::string at = child(args.path, "scoringStrategy");
  out.resources = args.resources.empty() ? model::default_scored_resources() : args.resources;
  for (auto& r : out.resources)
    if (r.weight == 0) r.weight = 1;
  if (args.type == "LeastAllocated") {
    out.strategy = model::least_allocated{};
  } else if (args.type == "MostAllocated") {
    out.strategy = model::most_allocated{};
  } else if (args.type == "RequestedToCapacityRatio") {
    out.strategy =
        model::requested_to_capacity_ratio{args.shape.value_or(std::vector<model::utilization_shape_point>{})};
  } else {
    return field_error(child(at, "type"), dra::concat("Unsupported value: ", go_quoted(args.type),
                                                      ": supported values: \"LeastAllocated\", \"MostAllocated\", "
                                                      "\"RequestedToCapacityRatio\""));
  }
  for (std::size_t i = 0; i < out.resources.size(); ++i)
    if (out.resources[i].weight <= 0 || out.resources[i].weight > 100)
      return field_error(child(index(child(at, "resources"), i), "weight"),
                         dra::concat("Invalid value: ", std::to_string(out.resources[i].weight),
                                     ": resource weight of ", out.resources[i].name, " not in valid range (0, 100]"));
  const std::string ratio_at = child(at, "requestedToCapacityRatio");
  if (args.type == "RequestedToCapacityRatio") {
    if (!args.ratio_given)
      return field_error(ratio_at, "Required value: must be specified when type is RequestedToCapacityRatio");
    if (auto valid = validate_shape(args.shape.value_or(std::vector<model::utilization_shape_point>{}),
                                    child(ratio_at, "shape"));
        !valid)
      return std::move(valid).error();
  } else if (args.ratio_given) {
    return field_error(ratio_at, "Forbidden: must be nil when type is not RequestedToCapacityRatio");
  }
  return out;
}

// BalancedAllocation's args defaulted and validated (ValidateNodeResourcesBalancedAllocationArgs).
[[nodiscard]] inline result<std::vector<model::resource_weight>> balanced_resources_of(const balanced_args& args) {
  if (args.resources.empty()) return model::default_scored_resources();
  std::vector<model::resource_weight> out = args.resources;
  const std::string at = child(args.path, "resources");
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i].weight == 0) out[i].weight = 1;
    for (std::size_t j = 0; j < i; ++j)
      if (out[j].name == out[i].name)
        return field_error(child(index(at, i), "name"), dra::concat("Duplicate value: ", go_quoted(out[i].name)));
    if (out[i].weight != 1)
      return field_error(child(index(at, i), "weight"),
                         dra::concat("Invalid value: ", std::to_string(out[i].weight), ": must be 1"));
  }
  return out;
}

}  // namespace detail::scheduler_config

// Reads a KubeSchedulerConfiguration and returns the scoring of its profile named `scheduler_name` (or of its only
// profile; the default profile's when it has none), with kube-scheduler's defaults applied and its validation's
// errors, worded as kube-scheduler words them and naming the field path ("profiles[0].pluginConfig[0].args.
// scoringStrategy.type"). A field the API does not have is an error, as kube-scheduler decodes strictly; the fields
// that do not change scoring are read but not checked. Plugins outside dra's model (ImageLocality,
// PodTopologySpread, InterPodAffinity, VolumeBinding) may be named; their scores are alike on every node here.
[[nodiscard]] inline result<model::scheduler_profile> read_scheduler_profile(
    std::string_view text, std::string_view scheduler_name = "default-scheduler") {
  namespace sc = detail::scheduler_config;
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    return dra::error{"the scheduler configuration is empty", "", "", errc::malformed_document};
  std::string json_text;
  if (text[first] == '{') {
    json_text = std::string(text);
  } else {
    auto converted = yaml_to_json(text);
    if (!converted) return std::move(converted).error();
    if (converted->first_lines.size() != 1)
      return dra::error{dra::concat("the scheduler configuration must be one document, not ",
                                    std::to_string(converted->first_lines.size())),
                        "", "", errc::malformed_document};
    json_text = std::move(converted->json);
  }
  simdjson::dom::parser parser;
  sc::element root;
  if (auto code = parser.parse(json_text).get(root))
    return dra::error{dra::concat("not well-formed JSON: ", simdjson::error_message(code)), "", "",
                      errc::malformed_document};
  std::string api_version, kind;
  std::vector<sc::raw_profile> profiles;
  static constexpr std::array<std::string_view, 15> known{"apiVersion",
                                                          "kind",
                                                          "profiles",
                                                          "parallelism",
                                                          "leaderElection",
                                                          "clientConnection",
                                                          "healthzBindAddress",
                                                          "metricsBindAddress",
                                                          "enableProfiling",
                                                          "enableContentionProfiling",
                                                          "percentageOfNodesToScore",
                                                          "podInitialBackoffSeconds",
                                                          "podMaxBackoffSeconds",
                                                          "extenders",
                                                          "delayCacheUntilActive"};
  if (!root.is_object()) return sc::wrong_type("", "an object", root);
  if (auto read = sc::fields(root, "", known,
                             [&](std::string_view name, const sc::element& v, const std::string& at) -> dra::status {
                               if (name == "apiVersion")
                                 return v.is_null() ? dra::status{} : sc::read_string(v, at, api_version);
                               if (name == "kind") return v.is_null() ? dra::status{} : sc::read_string(v, at, kind);
                               if (name != "profiles") return dra::status{};
                               return sc::items(
                                   v, at, [&](const sc::element& item, const std::string& item_at) -> dra::status {
                                     return sc::read_profile(item, item_at, profiles.emplace_back());
                                   });
                             });
      !read)
    return std::move(read).error();
  if (kind.empty()) return sc::field_error("kind", "Required value", errc::invalid_field);
  if (kind != "KubeSchedulerConfiguration")
    return sc::field_error(
        "kind",
        dra::concat("Unsupported value: ", sc::go_quoted(kind), ": supported values: \"KubeSchedulerConfiguration\""),
        errc::invalid_field);
  if (api_version != scheduler_config_api_version)
    return sc::field_error("apiVersion",
                           api_version.empty()
                               ? std::string("Required value")
                               : dra::concat("Unsupported value: ", sc::go_quoted(api_version),
                                             ": supported values: ", sc::go_quoted(scheduler_config_api_version)),
                           errc::invalid_field);
  if (profiles.empty()) profiles.emplace_back();  // SetDefaults_KubeSchedulerConfiguration: one default profile
  if (profiles.size() == 1 && !profiles[0].scheduler_name) profiles[0].scheduler_name = "default-scheduler";
  // Every profile is validated, as kube-scheduler refuses the whole file; then the one asked for is taken.
  std::vector<model::scheduler_profile> built;
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    const std::string at = sc::index("profiles", i);
    const sc::raw_profile& p = profiles[i];
    if (!p.scheduler_name || p.scheduler_name->empty())
      return sc::field_error(sc::child(at, "schedulerName"), "Required value");
    for (std::size_t j = 0; j < i; ++j)
      if (profiles[j].scheduler_name == p.scheduler_name)
        return sc::field_error(sc::child(at, "schedulerName"),
                               dra::concat("Duplicate value: ", sc::go_quoted(*p.scheduler_name)));
    model::scheduler_profile profile;
    profile.scheduler_name = *p.scheduler_name;
    auto weights = sc::score_weights_of(p, at);
    if (!weights) return std::move(weights).error();
    profile.weights = *weights;
    if (p.fit) {
      auto fit = sc::fit_scoring_of(*p.fit);
      if (!fit) return std::move(fit).error();
      profile.fit = std::move(*fit);
    }
    if (p.balanced) {
      auto balanced = sc::balanced_resources_of(*p.balanced);
      if (!balanced) return std::move(balanced).error();
      profile.balanced_resources = std::move(*balanced);
    }
    built.push_back(std::move(profile));
  }
  for (model::scheduler_profile& profile : built)
    if (profile.scheduler_name == scheduler_name) return std::move(profile);
  if (built.size() == 1) return std::move(built[0]);
  std::string names;
  for (const auto& profile : built)
    names += dra::concat(names.empty() ? "" : ", ", sc::go_quoted(profile.scheduler_name));
  return sc::field_error(
      "profiles", dra::concat("no profile is named ", sc::go_quoted(scheduler_name), " (the profiles: ", names, ")"),
      errc::not_found);
}

// Reads the KubeSchedulerConfiguration file at `path` (read_scheduler_profile); its errors name the file.
[[nodiscard]] inline result<model::scheduler_profile> load_scheduler_profile(
    const std::string& path, std::string_view scheduler_name = "default-scheduler") {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  if (!in || std::filesystem::is_directory(path, ec)) {
    const int reason = errno;
    return dra::error{dra::concat("cannot read ", dra::quoted(path), reason != 0 ? ": " : "",
                                  reason != 0 ? std::string_view(std::strerror(reason)) : std::string_view()),
                      "", "", errc::io};
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return dra::error{dra::concat("cannot read ", dra::quoted(path)), "", "", errc::io};
  auto profile = read_scheduler_profile(text, scheduler_name);
  if (!profile) {
    dra::error e = std::move(profile).error();
    e.object = path;
    return e;
  }
  return profile;
}

}  // namespace dra::json
