// The one loaded shader (validate/loaded_shader.h) as the lint takes it:
// what it keeps for --confirm, and a normalization that fails.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyzer/ir/module.h"
#include "driver/lint.h"

namespace klint {
namespace {

constexpr const char* kRace = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    tile[gl_LocalInvocationID.x] = x[gl_GlobalInvocationID.x];
    x[gl_GlobalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1) % 64];
}
)";

const InputFile kInput{"race.comp", Language::Glsl};

bool has_race(const FileReport& report) {
  return std::any_of(report.diagnostics.begin(), report.diagnostics.end(),
                     [](const Diagnostic& d) { return d.rule->id == "shared-memory-race"; });
}

// Normalization fails on no valid module klint has met, so the failure is
// injected: the file gets a note, and the rules run on the module as written.
TEST(LoadedShader, ANormalizationThatFailsIsANoteAndTheModuleIsLintedAsWritten) {
  SourceCache sources;
  LoadOptions load = driver_load_options();
  load.normalizer = [](const std::vector<uint32_t>&, spv_target_env, std::string* error, std::string*) {
    *error = "the optimizer ran out of ids";
    return std::optional<std::vector<uint32_t>>();
  };
  LintOptions options;
  auto shader = std::make_shared<const LoadedShader>(
      load_shader(ShaderInput{kInput.path, kRace, kInput.language}, options.compile, sources, load));
  ASSERT_TRUE(shader->module);
  FileReport report = lint_shader(kInput, shader, options, sources);
  ASSERT_EQ(report.messages.size(), 1u);
  EXPECT_EQ(report.messages[0].reason,
            "klint could not normalize the module (the optimizer ran out of ids); it analyzed the module as written, "
            "and may find less");
  EXPECT_FALSE(report.messages[0].is_error);
  EXPECT_TRUE(report.messages[0].linted);
  EXPECT_TRUE(has_race(report));
}

// A lint for --confirm keeps the module the rules saw, and the findings name
// its instructions; it keeps no words, which large kernels cannot spare.
TEST(LoadedShader, ALintForConfirmKeepsTheModuleAndTheFindingsNameItsInstructions) {
  SourceCache sources;
  LintOptions options;
  options.keep_shader = true;
  FileReport report = lint_text(kInput, kRace, options, sources);
  ASSERT_TRUE(report.shader);
  ASSERT_TRUE(report.shader->module);
  EXPECT_TRUE(report.shader->words.empty());
  ASSERT_TRUE(has_race(report));
  std::vector<const ir::Instruction*> by_ordinal;
  report.shader->module->ir().for_each_instruction([&](const ir::Instruction& i) { by_ordinal.push_back(&i); });
  for (const Diagnostic& d : report.diagnostics) {
    ASSERT_FALSE(d.instructions.empty()) << d.message;
    const ir::Instruction& first = *by_ordinal.at(d.instructions.front() - 1);
    EXPECT_EQ(report.shader->module->location(first).line, d.location.line) << d.message;
  }

  options.keep_shader = false;
  EXPECT_FALSE(lint_text(kInput, kRace, options, sources).shader);
}

}  // namespace
}  // namespace klint
