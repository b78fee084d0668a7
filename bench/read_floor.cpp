// vq-read-floor: reads both inputs through vq's readers (read-ahead threads included) and scores
// nothing: the floor under any end-to-end timing of the CLI.
//   vq-read-floor REF DIST W H   (raw 8-bit 4:2:0) or   vq-read-floor REF.y4m DIST.y4m
#include <cstdlib>
#include <iostream>

#include "io/frame_source.hpp"
#include "vq/error.hpp"

int main(int argc, char** argv) {
    if (argc != 3 && argc != 5) {
        std::cerr << "usage: vq-read-floor REF DIST [W H]\n";
        return 2;
    }
    try {
        const auto open = [&](const char* path) {
            if (argc == 3) return vq::open_y4m(path);
            return vq::open_yuv(path, {std::atoi(argv[3]), std::atoi(argv[4]), 8, vq::ChromaFormat::yuv420});
        };
        auto ref = vq::read_ahead(open(argv[1]), 4);
        auto dist = vq::read_ahead(open(argv[2]), 4);
        std::size_t frames = 0;
        while (ref->next() && dist->next()) ++frames;
        std::cout << frames << " frame pairs read\n";
    } catch (const vq::Error& e) {
        std::cerr << "vq-read-floor: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
