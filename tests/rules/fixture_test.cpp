// One test per file under tests/rules/<rule-id>/: closed-world fixtures.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/fixture.h"

namespace klint::testing {
namespace {

const std::string kRoot = std::string(KLINT_SOURCE_DIR) + "/tests/rules";

class RuleFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(RuleFixture, MatchesExpectations) {
  std::ifstream in(GetParam(), std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  Fixture fixture = parse_fixture(GetParam(), text.str());
  std::string rule_dir = std::filesystem::path(GetParam()).parent_path().filename().string();
  bool positive = std::filesystem::path(GetParam()).stem().string().starts_with("bad");
  if (positive) {
    // A positive fixture must expect its own rule at least once.
    bool expects_rule = false;
    for (const Expectation& e : fixture.expectations) expects_rule |= e.rule == rule_dir;
    EXPECT_TRUE(expects_rule) << GetParam() << ": a bad_* fixture must expect " << rule_dir;
  }
  for (const std::string& problem : check_fixture(fixture)) ADD_FAILURE() << GetParam() << ": " << problem;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = std::filesystem::relative(info.param, kRoot).string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Rules, RuleFixture, ::testing::ValuesIn(fixture_files(kRoot)), test_name);

}  // namespace
}  // namespace klint::testing
