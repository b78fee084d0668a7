// What `--report` adds to a run of the command line: the inputs' bitrates and worst-frame
// thumbnails gathered after the run, and the page written atomically (as -o is).
#pragma once

#include <functional>
#include <string>

#include "cli/args.hpp"
#include "cli/output_file.hpp"
#include "io/open_video.hpp"
#include "report/pooling.hpp"
#include "vq/scores.hpp"

namespace vq::cli {

// Opens an input as the run did (raw format, decoder threads); the report reads inputs again.
using InputOpener = std::function<OpenedInput(const std::string& path)>;

// Builds the report of this run and publishes it to `page`. The worst frames' thumbnails are
// read again from the inputs when both are regular files (report/thumbnails.hpp says why);
// otherwise the page says there are none.
void publish_html_report(OutputFile& page, const Arguments& args, const ScoreTable& table,
                         const ExtraPooling& pooling, const InputOpener& open);

}  // namespace vq::cli
