// Unknown fields of resource.k8s.io objects, reported as the API server's strict field validation reports them.
#pragma once

#include <dra/json/ingest.hpp>
#include <dra/validate/detail/report.hpp>

#include <span>

namespace dra::validate {

// One error per field that an object's kind does not have: `unknown field "spec.devices[0].basic"`,
// as Kubernetes' strict decoding words it; the path is the field's own.
inline void report_unknown_fields(std::span<const json::unknown_field> fields, error_list& errors) {
  for (const json::unknown_field& field : fields)
    errors.push_back(dra::error{concat("unknown field ", dra::quoted(field.path)), field.path, field.object,
                                errc::unknown_field});
}

}  // namespace dra::validate
