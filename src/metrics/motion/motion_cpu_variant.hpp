// One variant of the CPU twin's row kernels: compiled once per instruction set by
// metrics/toolkit/cpu_variants.hpp (no include guard).
#include "metrics/motion/motion_cpu_rows.hpp"

constexpr Kernels kernels{VQ_VARIANT_NAME, vertical_row_8, vertical_row_16, horizontal_row_sad};
