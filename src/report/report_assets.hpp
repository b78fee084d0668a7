// The plotting library the HTML report inlines: uPlot, vendored in third_party/uplot and embedded
// at build time (src/report/embed_assets.cmake).
#pragma once

#include <string_view>

namespace vq::report {

std::string_view uplot_script();  // uPlot.iife.min.js
std::string_view uplot_style();   // uPlot.min.css

}  // namespace vq::report
