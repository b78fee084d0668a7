// One variant of the CPU twin's row kernels: compiled once per instruction set by
// metrics/toolkit/cpu_variants.hpp (no include guard).
#include "metrics/adm/adm_cpu_dwt_rows.hpp"
#include "metrics/adm/adm_cpu_decouple_rows.hpp"
#include "metrics/adm/adm_cpu_csf_rows.hpp"
#include "metrics/adm/adm_cpu_masking_rows.hpp"
#include "metrics/adm/adm_cpu_den_rows.hpp"

constexpr Kernels kernels{VQ_VARIANT_NAME,
                          dwt0_vertical<std::uint8_t>,
                          dwt0_vertical<std::uint16_t>,
                          dwt0_horizontal,
                          dwt1_vertical,
                          dwt23_vertical,
                          dwt_wide_horizontal,
                          decouple0,
                          decouple_wide,
                          csf0,
                          csf_wide,
                          threshold_row<std::int16_t>,
                          threshold_row<std::int32_t>,
                          masked_row0,
                          masked_row_wide,
                          cubed_row0,
                          cubed_row_wide};
