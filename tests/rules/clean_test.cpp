// tests/clean/ holds correct, idiomatic kernels: every rule, on every default
// target, must stay silent on them.
#include <gtest/gtest.h>

#include "tests/support/fixture.h"

namespace klint::testing {
namespace {

class CleanKernel : public ::testing::TestWithParam<std::string> {};

TEST_P(CleanKernel, IsSilentUnderEveryRule) {
  auto language = language_for_path(GetParam(), false);
  ASSERT_TRUE(language);
  LintOptions options;
  SourceCache sources;
  FileReport report = lint_file(InputFile{GetParam(), *language, true}, options, sources);
  EXPECT_TRUE(report.messages.empty());
  for (const Diagnostic& d : report.diagnostics) {
    ADD_FAILURE() << d.location.file << ":" << d.location.line << ": " << d.message << " [" << d.rule->id << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(Clean, CleanKernel,
                         ::testing::ValuesIn(fixture_files(std::string(KLINT_SOURCE_DIR) + "/tests/clean")),
                         [](const auto& info) { return shader_test_name(info.param); });

}  // namespace
}  // namespace klint::testing
