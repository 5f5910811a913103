// One shader linted as several variants: shared findings become one finding
// naming the variants that found it; findings of one variant name only it.
#include "driver/variants.h"

#include <gtest/gtest.h>

#include <sstream>

#include "driver/output/text.h"

namespace klint::testing {
namespace {

Finding finding(const RuleInfo& rule, uint32_t line, std::string message) {
  Finding d;
  d.rule = &rule;
  d.severity = rule.default_severity;
  d.message = std::move(message);
  d.location = Location{"k.comp", line};
  return d;
}

FileReport report(std::vector<Finding> diagnostics) {
  FileReport r;
  r.path = "k.comp";
  r.diagnostics = std::move(diagnostics);
  r.files = {"k.comp"};
  return r;
}

TEST(MergeVariants, SharedFindingsAreReportedOnceNamingTheirVariants) {
  std::vector<FileReport> reports;
  reports.push_back(report({finding(kCompileError, 3, "a"), finding(kInvalidSpirv, 9, "b")}));
  reports.push_back(report({finding(kCompileError, 3, "a")}));
  reports.push_back(report({finding(kCompileError, 3, "a"), finding(kCompileError, 5, "c")}));
  FileReport merged = merge_variants(std::move(reports), {"f32", "f16", "q4_0"});
  ASSERT_EQ(merged.diagnostics.size(), 3u);
  EXPECT_EQ(merged.diagnostics[0].location.line, 3u);
  EXPECT_EQ(merged.diagnostics[0].variants, (std::vector<std::string>{"f32", "f16", "q4_0"}));
  EXPECT_EQ(merged.diagnostics[1].location.line, 5u);
  EXPECT_EQ(merged.diagnostics[1].variants, (std::vector<std::string>{"q4_0"}));
  EXPECT_EQ(merged.diagnostics[2].location.line, 9u);
  EXPECT_EQ(merged.diagnostics[2].variants, (std::vector<std::string>{"f32"}));
  EXPECT_EQ(merged.files, (std::vector<std::string>{"k.comp"}));
}

TEST(MergeVariants, DifferentMessagesOnOneLineStayApart) {
  std::vector<FileReport> reports;
  reports.push_back(report({finding(kCompileError, 3, "'B_TYPE' undeclared")}));
  reports.push_back(report({finding(kCompileError, 3, "'A_TYPE' undeclared")}));
  FileReport merged = merge_variants(std::move(reports), {"one", "two"});
  ASSERT_EQ(merged.diagnostics.size(), 2u);
  EXPECT_EQ(merged.diagnostics[0].variants, (std::vector<std::string>{"two"}));
  EXPECT_EQ(merged.diagnostics[1].variants, (std::vector<std::string>{"one"}));
}

TEST(MergeVariants, TheTextFormatNamesTheVariants) {
  std::vector<FileReport> reports;
  reports.push_back(report({finding(kCompileError, 3, "a")}));
  reports.push_back(report({finding(kCompileError, 3, "a")}));
  FileReport merged = merge_variants(std::move(reports), {"f32", "f16"});
  SourceCache sources;
  std::ostringstream out;
  print_diagnostic(out, merged.diagnostics[0], sources, TextStyle{false});
  EXPECT_NE(out.str().find("\n  variants: f32, f16\n"), std::string::npos) << out.str();
}

TEST(MergeVariants, TheTextFormatNamesTheFirstFewOfMany) {
  std::vector<FileReport> reports;
  std::vector<std::string> names;
  for (int i = 0; i < 12; ++i) {
    reports.push_back(report({finding(kCompileError, 3, "a")}));
    names.push_back("v" + std::to_string(i));
  }
  FileReport merged = merge_variants(std::move(reports), names);
  ASSERT_EQ(merged.diagnostics[0].variants.size(), 12u);
  SourceCache sources;
  std::ostringstream out;
  print_diagnostic(out, merged.diagnostics[0], sources, TextStyle{false});
  EXPECT_NE(out.str().find("\n  variants: v0, v1, v2, v3, v4, v5, v6, v7 and 4 more\n"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace klint::testing
