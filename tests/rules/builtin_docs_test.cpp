// The documentation of the rules no Rule object stands for shows what they
// report: the Bad example of compile-error does not compile and its Fix does,
// the validator rejects invalid-spirv's Bad example and accepts its Fix.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "analyzer/frontend.h"
#include "rules/rule.h"
#include "validate/spirv_val.h"

namespace klint {
namespace {

// The fenced block under `## section` of a rule's documentation.
std::string doc_example(const RuleInfo& rule, std::string_view section) {
  std::string_view doc = RuleRegistry::describe(rule).doc;
  size_t open = doc.find("```", doc.find(std::string("## ") + std::string(section)));
  size_t body = doc.find('\n', open) + 1;
  return std::string(doc.substr(body, doc.find("```", body) - body));
}

CompiledShader compile_example(const std::string& path, const std::string& text, Language language) {
  SourceCache sources;
  return compile(path, text, language, CompileOptions{}, sources);
}

TEST(BuiltinRuleDocs, CompileErrorExamples) {
  CompiledShader bad = compile_example("bad.comp", doc_example(kCompileError, "Bad"), Language::Glsl);
  ASSERT_EQ(bad.diagnostics.size(), 1u);
  EXPECT_EQ(bad.diagnostics[0].rule, &kCompileError);
  EXPECT_EQ(bad.diagnostics[0].message, "'counter' : undeclared identifier");
  CompiledShader fix = compile_example("fix.comp", doc_example(kCompileError, "Fix"), Language::Glsl);
  EXPECT_TRUE(fix.ok);
  EXPECT_TRUE(fix.diagnostics.empty());
}

TEST(BuiltinRuleDocs, InvalidSpirvExamples) {
  CompiledShader bad = compile_example("bad.spvasm", doc_example(kInvalidSpirv, "Bad"), Language::SpirvAssembly);
  ASSERT_TRUE(bad.ok);
  auto rejected = validate_spirv(bad.spirv, SPV_ENV_VULKAN_1_3);
  ASSERT_EQ(rejected.size(), 1u);
  EXPECT_NE(rejected[0].message.find("VUID-StandaloneSpirv-LocalSize-06426"), std::string::npos);
  CompiledShader fix = compile_example("fix.spvasm", doc_example(kInvalidSpirv, "Fix"), Language::SpirvAssembly);
  ASSERT_TRUE(fix.ok);
  EXPECT_TRUE(validate_spirv(fix.spirv, SPV_ENV_VULKAN_1_3).empty());
}

}  // namespace
}  // namespace klint
