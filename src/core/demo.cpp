// The demo clip is the synthetic generator's mixed scene (core/synthetic.hpp).
#include "vq/demo.hpp"

#include "core/synthetic.hpp"

namespace vq {

VideoFormat demo_format() { return {1280, 720, 8, ChromaFormat::yuv420}; }

FramePair demo_frame(int index) {
    const VideoFormat format = demo_format();
    return {make_synthetic_frame(format, SyntheticScene::mixed, index, false),
            make_synthetic_frame(format, SyntheticScene::mixed, index, true)};
}

}  // namespace vq
