// speed_eigen.hpp's tridiagonalisation split over a team, as the CUDA twin runs it on a thread
// block: emulated here by host threads meeting at a barrier, it must give the serial run's bits
// (the CPU twin's) on random covariance-like matrices, for teams of several sizes.
#include <barrier>
#include <random>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/speed/speed_eigen.hpp"

namespace vq::speed::eigen {
namespace {

struct ThreadTeam {
    int member, members;
    std::barrier<>* barrier;
    int rank() const { return member; }
    int size() const { return members; }
    void sync() const { barrier->arrive_and_wait(); }
};

// A symmetric positive semi-definite matrix B Bᵀ / 25 of random floats.
std::vector<float> random_covariance(std::mt19937& random) {
    std::normal_distribution<float> sample(0.0f, 20.0f);
    std::vector<float> b(n * n), k(n * n);
    for (float& v : b) v = sample(random);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c <= r; ++c) {
            float sum = 0.0f;
            for (int t = 0; t < n; ++t) sum = sum + b[r * n + t] * b[c * n + t];
            k[r * n + c] = k[c * n + r] = sum / 25.0f;
        }
    return k;
}

TEST(SpeedEigenTeam, TeamTridiagonalisationGivesTheSerialBits) {
    std::mt19937 random(5);
    for (int trial = 0; trial < 20; ++trial) {
        const std::vector<float> k = random_covariance(random);
        std::vector<float> serial_a = k, serial_d(n), serial_e(n - 1), v(n), x(n);
        tridiagonalise(serial_a.data(), serial_d.data(), serial_e.data(), v.data(), x.data(),
                       SerialTeam{});
        for (const int members : {2, 7, 32}) {
            std::vector<float> a = k, d(n), e(n - 1), shared_v(n), shared_x(n);
            std::barrier<> barrier(members);
            std::vector<std::jthread> team;
            for (int m = 0; m < members; ++m)
                team.emplace_back([&, m] {
                    tridiagonalise(a.data(), d.data(), e.data(), shared_v.data(), shared_x.data(),
                                   ThreadTeam{m, members, &barrier});
                });
            team.clear();  // joins
            EXPECT_EQ(d, serial_d) << "trial " << trial << ", " << members << " members";
            EXPECT_EQ(e, serial_e) << "trial " << trial << ", " << members << " members";
        }
    }
}

}  // namespace
}  // namespace vq::speed::eigen
