// The compiled component's validation (include/dra/compiled.hpp): dra::validate::validate, instantiated once here.
#include "document_impl.hpp"

#include <dra/compiled.hpp>
#include <dra/validate/scenario.hpp>

namespace dra::compiled {

error_list scenario_document::validate() const { return validate::validate(impl_->document); }

}  // namespace dra::compiled
