// DeviceClass and the selector and configuration types that classes and claims share.
#pragma once

#include <dra/model/common.hpp>

#include <optional>
#include <vector>

namespace dra::model {

// DeviceSelector: only CEL exists in v1.
struct device_selector {
  text cel_expression;
  bool has_cel = true;  // false when the input's selector has no `cel` (validation reports it)
  friend bool operator==(const device_selector&, const device_selector&) = default;
};

// OpaqueDeviceConfiguration: the parameters are kept as the raw JSON text of
// the input (they are the driver's business), and written back verbatim.
struct opaque_device_configuration {
  text driver;
  text parameters_json;
  bool present = true;  // false when the input's configuration has no `opaque` (validation reports it)
  friend bool operator==(const opaque_device_configuration&, const opaque_device_configuration&) = default;
};

// DeviceClassConfiguration.
struct device_class_configuration {
  opaque_device_configuration opaque;
  friend bool operator==(const device_class_configuration&, const device_class_configuration&) = default;
};

struct device_class {
  object_meta meta;
  std::vector<device_selector> selectors;
  std::vector<device_class_configuration> config;
  std::optional<text> extended_resource_name;
  friend bool operator==(const device_class&, const device_class&) = default;
};

}  // namespace dra::model
