// Every parameterised test says what it tests: a readable name from its suite's name generator
// (size, depth, layout, option), and a value gtest can print (a PrintTo beside the parameter's
// type), so that neither the test list nor a failure line shows a raw byte dump.
#include <algorithm>
#include <cctype>
#include <string>

#include <gtest/gtest.h>

namespace vq {
namespace {

TEST(TestNames, ParameterisedTestsHaveReadableNamesAndValues) {
    const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
    int checked = 0;
    for (int s = 0; s < unit.total_test_suite_count(); ++s) {
        const testing::TestSuite& suite = *unit.GetTestSuite(s);
        for (int t = 0; t < suite.total_test_count(); ++t) {
            const testing::TestInfo& test = *suite.GetTestInfo(t);
            if (!test.value_param()) continue;
            ++checked;
            const std::string name = test.name();
            const std::string label = name.substr(name.rfind('/') + 1);
            const std::string where = std::string(suite.name()) + "." + name;
            EXPECT_FALSE(std::all_of(label.begin(), label.end(),
                                     [](unsigned char c) { return std::isdigit(c); }))
                << where << ": a bare index; give INSTANTIATE_TEST_SUITE_P a name generator";
            EXPECT_EQ(std::string(test.value_param()).find("-byte object"), std::string::npos)
                << where << ": its parameter prints as bytes; give the parameter's type a PrintTo: "
                << test.value_param();
        }
    }
    EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace vq
