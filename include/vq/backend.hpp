// Where a feature runs. A header of its own so that the layers below the session (features,
// executors) can name a backend without depending on the session.
#pragma once

namespace vq {

enum class Backend { cpu, cuda, automatic };
const char* to_string(Backend backend);

// The backend a run that asks for `requested` gets: automatic is cuda where vq was built with
// CUDA and a usable device is present, the CPU otherwise; cpu and cuda are themselves.
Backend resolve(Backend requested);

}  // namespace vq
