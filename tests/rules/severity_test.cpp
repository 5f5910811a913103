// A rule may report a finding graver than its default severity: fixtures
// match messages, not severities, so the severities are checked here.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analyzer/frontend.h"
#include "rules/rule.h"
#include "tests/support/fixture.h"

namespace klint::testing {
namespace {

std::vector<Finding> lint(const std::string& relative_path) {
  std::string path = std::string(KLINT_SOURCE_DIR) + "/" + relative_path;
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  Fixture fixture = parse_fixture(path, text.str());
  SourceCache sources;
  auto language = language_for_path(path, false);
  EXPECT_TRUE(language.has_value()) << path;
  if (!language) return {};
  return lint_file(InputFile{path, *language, true}, fixture.options, sources).diagnostics;
}

TEST(RuleSeverity, SubgroupCountAssumedIsAnErrorWhereTheArrayOverruns) {
  const RuleInfo* rule = RuleRegistry::find("subgroup-count-assumed");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->default_severity, Severity::Warning);
  size_t errors = 0, warnings = 0;
  for (const Diagnostic& d : lint("tests/rules/subgroup-count-assumed/bad_partial_8.comp")) {
    if (d.rule != rule) continue;
    bool overrun = d.message.find("runs past") != std::string::npos;
    EXPECT_EQ(d.severity, overrun ? Severity::Error : Severity::Warning) << d.message;
    (overrun ? errors : warnings) += 1;
  }
  EXPECT_EQ(errors, 1u);
  EXPECT_EQ(warnings, 1u);
}

}  // namespace
}  // namespace klint::testing
