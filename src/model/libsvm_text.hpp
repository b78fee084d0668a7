// The libsvm model text embedded in a model file (spec/vmaf.md §4.2).
#pragma once

#include <cstddef>
#include <string_view>

#include "model/diagnostics.hpp"
#include "model/model.hpp"

namespace vq::model::detail {

// Parses a nu_svr/rbf model over `dimension` features. `budget` is how many support-vector values
// (dimension + 1 per vector) the file may still allocate; this model's share is taken from it
// before anything is allocated. Errors name `where` and the field model_dict.model.
Svm parse_libsvm(std::string_view text, std::size_t dimension, std::size_t& budget,
                 const Where& where);

}  // namespace vq::model::detail
