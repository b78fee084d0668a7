// Forwarding header for engine/session.cpp and model/load.cpp, which still name the registry's
// old place: removed by the session split (they then include feature/registry.hpp).
#pragma once

#include "feature/registry.hpp"
