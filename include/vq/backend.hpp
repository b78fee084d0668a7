// Where a feature runs. A header of its own so that the layers below the session (features,
// executors) can name a backend without depending on the session.
#pragma once

namespace vq {

enum class Backend { cpu, cuda, automatic };
const char* to_string(Backend backend);

}  // namespace vq
