// Reading a ScoreTable's scores for the C interface, shared by a finished result and a running
// session: index checks (VQ_ERROR_INVALID_ARGUMENT) and the present flag.
#pragma once

#include <cstddef>

#include "guard.hpp"
#include "vq/scores.hpp"

namespace vq::capi {

const char* score_name(const ScoreTable& table, std::size_t score, const Call& call);

// frame must be below `frames` (the table's frames, or a session's ready ones).
void frame_value(const ScoreTable& table, std::size_t score, std::size_t frame,
                 std::size_t frames, double* value, int* present, const Call& call);

}  // namespace vq::capi
