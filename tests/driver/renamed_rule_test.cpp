// A renamed rule: shader-feature-unsupported is now numeric-type-unsupported.
// Wherever a user names rules (--select, --ignore, --explain, klint.toml,
// klint-ignore comments) the old id keeps working, with one note that gives
// the new id; baselines and SARIF fingerprints written under the old id keep
// matching.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

// One finding of numeric-type-unsupported against vulkan-1.3-minimum, on line 6.
constexpr const char* kHalf = R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    float16_t x = float16_t(data[gl_GlobalInvocationID.x]);
    data[gl_GlobalInvocationID.x] = float(x * float16_t(2.0));
}
)";

constexpr const char* kNote = "rule 'shader-feature-unsupported' is now 'numeric-type-unsupported'; the old id still works";

class RenamedRule : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("half.comp", kHalf);
  }
  KlintRun klint(std::vector<std::string> args) {
    args.insert(args.begin(), {"--color=never", "--target", "vulkan-1.3-minimum"});
    return run_klint(args, path().string());
  }
};

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST_F(RenamedRule, FindingsCarryTheNewId) {
  KlintRun run = klint({"half.comp"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("half.comp:6: error: the shader uses 16-bit float arithmetic (shaderFloat16), which "
                         "vulkan-1.3-minimum does not support [numeric-type-unsupported]"),
            std::string::npos)
      << run.out;
}

TEST_F(RenamedRule, CommandLineTakesTheOldIdWithANote) {
  KlintRun ignored = klint({"--ignore", "shader-feature-unsupported", "half.comp"});
  EXPECT_EQ(ignored.exit_code, 0) << ignored.out << ignored.err;
  EXPECT_EQ(ignored.out, "");
  EXPECT_EQ(ignored.err, std::string("klint: note: --ignore: ") + kNote + "\n");

  KlintRun selected = klint({"--select=shader-feature-unsupported", "half.comp"});
  EXPECT_EQ(selected.exit_code, 1) << selected.err;
  EXPECT_NE(selected.out.find("[numeric-type-unsupported]"), std::string::npos) << selected.out;
  EXPECT_NE(selected.err.find(std::string("klint: note: --select: ") + kNote + "\n"), std::string::npos)
      << selected.err;

  KlintRun explained = klint({"--explain", "shader-feature-unsupported"});
  EXPECT_EQ(explained.exit_code, 0) << explained.err;
  EXPECT_NE(explained.out.find("numeric-type-unsupported"), std::string::npos) << explained.out;
  EXPECT_EQ(explained.err, std::string("klint: note: --explain: ") + kNote + "\n");

  // The new id needs no note.
  KlintRun current = klint({"--ignore", "numeric-type-unsupported", "half.comp"});
  EXPECT_EQ(current.exit_code, 0);
  EXPECT_EQ(current.err, "");
}

TEST_F(RenamedRule, ConfigurationTakesTheOldIdWithANotePerPlace) {
  write("klint.toml", "ignore = [\"shader-feature-unsupported\"]\n"
                      "\n"
                      "[severity]\n"
                      "shader-feature-unsupported = \"warning\"\n"
                      "\n"
                      "[[overrides]]\n"
                      "files = [\"half.comp\"]\n"
                      "select = [\"shader-feature-unsupported\"]\n"
                      "ignore = []\n");
  write("other.comp", kHalf);
  KlintRun run = klint({"half.comp", "other.comp"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  // The override selects the rule again for half.comp, at the severity set under its old id.
  EXPECT_NE(run.out.find("half.comp:6: warning:"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("other.comp"), std::string::npos) << run.out;
  // Once per place in the file, however many files it applies to.
  EXPECT_EQ(count(run.err, kNote), 3u) << run.err;
  EXPECT_NE(run.err.find(std::string("klint: note: klint.toml:1:11: ") + kNote), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(std::string("klint: note: klint.toml:4:1: ") + kNote), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(std::string("klint: note: klint.toml:8:11: ") + kNote), std::string::npos) << run.err;
}

TEST_F(RenamedRule, SuppressionsTakeTheOldIdWithANote) {
  std::string suppressed = kHalf;
  suppressed.insert(suppressed.find("\n    data["),
                    "  // klint-ignore: shader-feature-unsupported -- the host checks shaderFloat16");
  write("half.comp", suppressed);
  KlintRun run = klint({"half.comp"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find(std::string("klint: note: half.comp:6: ") + kNote), std::string::npos) << run.err;
}

// What klint wrote before the rename, for half.comp.
constexpr const char* kBaselineOfTheOldId = R"({
  "findings": [
    {
      "file": "half.comp",
      "fingerprint": "81feb8d30c43c7af:1",
      "line": 6,
      "message": "the shader uses 16-bit float arithmetic (shaderFloat16), which vulkan-1.3-minimum does not support",
      "rule": "shader-feature-unsupported"
    }
  ],
  "schema": "klint-baseline-1",
  "version": "0.1.0"
}
)";

TEST_F(RenamedRule, BaselinesAndFingerprintsOfTheOldIdKeepMatching) {
  write("klint-baseline.json", kBaselineOfTheOldId);
  KlintRun run = klint({"--baseline", "klint-baseline.json", "half.comp"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.out, "");

  nlohmann::json sarif = nlohmann::json::parse(klint({"--format", "sarif", "half.comp"}).out);
  const nlohmann::json& result = sarif["runs"][0]["results"][0];
  EXPECT_EQ(result["ruleId"], "numeric-type-unsupported");
  EXPECT_EQ(result["partialFingerprints"]["klint/v1"], "81feb8d30c43c7af:1");
  bool described = false;
  for (const nlohmann::json& rule : sarif["runs"][0]["tool"]["driver"]["rules"]) {
    if (rule["id"] != "numeric-type-unsupported") continue;
    described = true;
    EXPECT_EQ(rule["deprecatedIds"], nlohmann::json::array({"shader-feature-unsupported"}));
  }
  EXPECT_TRUE(described);
}

}  // namespace
}  // namespace klint::testing
