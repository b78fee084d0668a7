// The report's CAMBI heatmap: where CAMBI ran, each worst frame's thumbnails get a picture of where
// its distorted picture bands.
//
// A run keeps no map (it would keep one per frame, as it would pictures: thumbnails.hpp says
// why); CAMBI's CPU pipeline is run again, with the run's own options, on the few distorted
// pictures read again for the thumbnails, and their c-values of the finest scale (spec/cambi.md
// §10: per pixel, how visible a band is there) are drawn as the thumbnail is.
#pragma once

#include <optional>

#include "metrics/cambi/cambi.hpp"
#include "report/thumbnails.hpp"
#include "vq/picture.hpp"
#include "vq/run.hpp"

namespace vq::report {

class BandingMap {
public:
    // The map of the job's first CAMBI request (libvmaf's syntax, any options), or none when the
    // job runs no CAMBI.
    static std::optional<BandingMap> of(const Job& job);

    // The c-values of CAMBI's finest scale for `distorted`, at the size thumbnail_of() gives it
    // (each pixel the largest c-value it covers, so that a thin band survives the shrinking),
    // coloured from black (no banding) through purple and orange to pale yellow, by
    // sqrt(c / cmax) as CAMBI's own heatmap pictures are (§13), so that faint banding shows and
    // frames compare.
    RgbImage image(const Picture& distorted, int max_width) const;

private:
    explicit BandingMap(cambi::Options options) : options_(std::move(options)) {}
    cambi::Options options_;
};

}  // namespace vq::report
