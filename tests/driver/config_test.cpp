// klint.toml: lookup, every key applied, overrides and variants by glob, and
// each kind of bad configuration reported with its file, line and column.
#include "driver/config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "rules/rule.h"
#include "tests/support/scratch.h"
#include "validate/targets.h"

namespace klint {
namespace {

namespace fs = std::filesystem;

class ConfigTest : public testing::ScratchCwdTest {
 protected:
  FileSettings settings(const std::string& file, std::optional<std::string> config = std::nullopt) {
    ConfigResolver resolver(config);
    std::string error;
    std::optional<FileSettings> found = resolver.settings_for(file, &error);
    EXPECT_TRUE(found) << error;
    return found.value_or(FileSettings{});
  }
  // The error for `file` under a klint.toml holding `text`.
  std::string error_for(const std::string& text) {
    write("klint.toml", text);
    ConfigResolver resolver;
    std::string error;
    EXPECT_FALSE(resolver.settings_for("a.comp", &error)) << text;
    return error;
  }
};

const RuleInfo* rule(std::string_view id) {
  const RuleInfo* found = RuleRegistry::find(id);
  EXPECT_TRUE(found) << id;
  return found;
}

using Rules = std::vector<const RuleInfo*>;
using Defines = std::vector<Define>;
using Strings = std::vector<std::string>;

TEST_F(ConfigTest, WithoutConfigEverythingIsDefault) {
  FileSettings s = settings("a.comp");
  EXPECT_EQ(s.config_path, "");
  EXPECT_FALSE(s.select);
  EXPECT_TRUE(s.ignore.empty());
  EXPECT_TRUE(s.defines.empty());
  EXPECT_TRUE(s.variants.empty());
  EXPECT_FALSE(s.target_env);
}

TEST_F(ConfigTest, NearestAncestorConfigApplies) {
  write("klint.toml", "ignore = [\"redundant-barrier\"]\n");
  write("sub/klint.toml", "ignore = [\"shared-memory-race\"]\n");
  FileSettings deep = settings("sub/deeper/still/x.comp");
  EXPECT_EQ(deep.config_path, "sub/klint.toml");
  EXPECT_EQ(deep.ignore, Rules{rule("shared-memory-race")});
  FileSettings beside = settings("other/y.comp");
  EXPECT_EQ(beside.config_path, "klint.toml");
  EXPECT_EQ(beside.ignore, Rules{rule("redundant-barrier")});
  // Absolute paths and paths with `..` find the same files.
  EXPECT_EQ(settings(path("sub/x.comp").string()).config_path, "sub/klint.toml");
  EXPECT_EQ(settings("sub/../z.comp").config_path, "klint.toml");
}

TEST_F(ConfigTest, OneResolverAnswersManyFilesAndDirectories) {
  write("klint.toml", "ignore = [\"redundant-barrier\"]\n");
  write("sub/klint.toml", "ignore = [\"shared-memory-race\"]\n");
  ConfigResolver resolver;
  std::string error;
  for (const char* file : {"sub/a/b.comp", "a/b.comp", "sub/c.comp", "sub/a/d.comp", "e.comp"}) {
    std::optional<FileSettings> s = resolver.settings_for(file, &error);
    ASSERT_TRUE(s) << error;
    EXPECT_EQ(s->config_path, std::string_view(file).starts_with("sub/") ? "sub/klint.toml" : "klint.toml") << file;
  }
}

TEST_F(ConfigTest, ExplicitConfigAppliesToEveryFile) {
  write("sub/klint.toml", "ignore = [\"shared-memory-race\"]\n");
  write("conf/strict.toml",
        "select = [\"shared-memory-race\"]\n"
        "[[overrides]]\nfiles = [\"../sub/**\"]\ntarget-env = \"vulkan1.1\"\n");
  FileSettings s = settings("sub/x.comp", "conf/strict.toml");
  EXPECT_EQ(s.config_path, "conf/strict.toml");
  EXPECT_EQ(s.select, Rules{rule("shared-memory-race")});
  EXPECT_TRUE(s.ignore.empty());                  // sub/klint.toml is not read
  EXPECT_EQ(s.target_env, TargetEnv::Vulkan1_1);  // globs are relative to conf/
  EXPECT_FALSE(settings("elsewhere/y.comp", "conf/strict.toml").target_env);
}

TEST_F(ConfigTest, MissingExplicitConfigIsAnError) {
  ConfigResolver resolver("nope.toml");
  std::string error;
  EXPECT_FALSE(resolver.settings_for("a.comp", &error));
  EXPECT_EQ(error, "nope.toml: no such file or directory");
}

TEST_F(ConfigTest, TopLevelKeys) {
  write("klint.toml", R"(
select = ["shared-memory-race", "redundant-barrier", "barrier-in-divergent-control-flow"]
ignore = ["redundant-barrier"]
include-dirs = ["include", "/opt/sdk/include"]
defines = ["TILE=16", "USE_FP16"]
targets = ["nvidia-ampere", "device:1", "gpus/mine.json"]
target-env = "vulkan1.2"
entry-point = "CSMain"

[severity]
shared-memory-race = "warning"
redundant-barrier = "note"
)");
  FileSettings s = settings("shaders/a.comp");
  EXPECT_EQ(s.select,
            (Rules{rule("shared-memory-race"), rule("redundant-barrier"), rule("barrier-in-divergent-control-flow")}));
  EXPECT_EQ(s.ignore, Rules{rule("redundant-barrier")});
  EXPECT_EQ(s.include_dirs, (Strings{"include", "/opt/sdk/include"}));
  EXPECT_EQ(s.defines, (Defines{{"TILE", "16"}, {"USE_FP16", ""}}));
  EXPECT_EQ(s.targets, (Strings{"nvidia-ampere", "device:1", "gpus/mine.json"}));
  EXPECT_EQ(s.target_env, TargetEnv::Vulkan1_2);
  EXPECT_EQ(s.entry_point, "CSMain");
  ASSERT_EQ(s.severity.size(), 2u);
  EXPECT_EQ(s.severity.at(rule("shared-memory-race")), Severity::Warning);
  EXPECT_EQ(s.severity.at(rule("redundant-barrier")), Severity::Note);
}

TEST_F(ConfigTest, PathsAreRelativeToTheConfigFile) {
  write("project/klint.toml", "include-dirs = [\"include\"]\ntargets = [\"t.json\"]\n");
  fs::create_directories("project/src");
  EXPECT_EQ(settings("project/src/a.comp").include_dirs, Strings{"project/include"});
  fs::current_path("project/src");
  FileSettings s = settings("a.comp");
  EXPECT_EQ(s.config_path, path("project/klint.toml").string());  // not below the working directory
  EXPECT_EQ(s.include_dirs, Strings{path("project/include").string()});
  EXPECT_EQ(s.targets, Strings{path("project/t.json").string()});
}

TEST_F(ConfigTest, DefinesAsATable) {
  write("klint.toml", "[defines]\nTILE = 16\nNAME = \"x\"\nFLAG = true\n");
  EXPECT_EQ(settings("a.comp").defines, (Defines{{"TILE", "16"}, {"NAME", "x"}, {"FLAG", ""}}));
}

TEST_F(ConfigTest, OverridesApplyByGlobAndLaterOnesWin) {
  write("klint.toml", R"(
ignore = ["redundant-barrier"]
defines = ["A=1", "B=1"]
include-dirs = ["inc"]
[severity]
shared-memory-race = "warning"

[[overrides]]
files = ["vendor/**"]
ignore = ["shared-memory-race"]
defines = ["B=2", "C"]
include-dirs = ["vendor/inc"]
target-env = "vulkan1.1"

[[overrides]]
files = ["*.hlsl", "special/k.comp"]
extend-ignore = ["uncoalesced-global-access"]
target-env = "vulkan1.2"
entry-point = "CSMain"
targets = ["apple-m1"]
[overrides.severity]
shared-memory-race = "error"
)");
  FileSettings plain = settings("src/a.comp");
  EXPECT_EQ(plain.ignore, Rules{rule("redundant-barrier")});
  EXPECT_FALSE(plain.target_env);
  EXPECT_TRUE(plain.targets.empty());

  FileSettings vendor = settings("vendor/deep/b.comp");
  EXPECT_EQ(vendor.ignore, Rules{rule("shared-memory-race")});              // ignore replaces
  EXPECT_EQ(vendor.defines, (Defines{{"A", "1"}, {"B", "2"}, {"C", ""}}));  // defines add, a name redefined in place
  EXPECT_EQ(vendor.include_dirs, (Strings{"inc", "vendor/inc"}));
  EXPECT_EQ(vendor.target_env, TargetEnv::Vulkan1_1);
  EXPECT_EQ(vendor.severity.at(rule("shared-memory-race")), Severity::Warning);

  FileSettings hlsl = settings("src/k.hlsl");
  EXPECT_EQ(hlsl.ignore, (Rules{rule("redundant-barrier"), rule("uncoalesced-global-access")}));  // extend-ignore adds
  EXPECT_EQ(hlsl.severity.at(rule("shared-memory-race")), Severity::Error);
  EXPECT_EQ(hlsl.entry_point, "CSMain");
  EXPECT_EQ(hlsl.targets, Strings{"apple-m1"});

  FileSettings both = settings("vendor/k.hlsl");
  EXPECT_EQ(both.ignore, (Rules{rule("shared-memory-race"), rule("uncoalesced-global-access")}));
  EXPECT_EQ(both.target_env, TargetEnv::Vulkan1_2);  // the later override wins
  EXPECT_EQ(settings("special/k.comp").target_env, TargetEnv::Vulkan1_2);
  EXPECT_FALSE(settings("other/special/k.comp").target_env);  // a slash anchors the glob
}

TEST_F(ConfigTest, OverrideSelectReplacesAndEmptyIgnoreClears) {
  write("klint.toml", R"(
select = ["shared-memory-race"]
ignore = ["redundant-barrier"]
[[overrides]]
files = ["x/**"]
select = ["redundant-barrier", "redundant-barrier"]
ignore = []
)");
  FileSettings s = settings("x/a.comp");
  EXPECT_EQ(s.select, Rules{rule("redundant-barrier")});
  EXPECT_TRUE(s.ignore.empty());
}

TEST_F(ConfigTest, VariantsApplyByGlobInOrder) {
  write("klint.toml", R"(
[[variants]]
files = ["mul_mat*.comp"]
name = "f16"
defines = ["DATA_A_F16=1", "B_TYPE=float16_t"]

[[variants]]
files = ["mul_mat*.comp", "softmax.comp"]
name = "q4_0"
defines = { DATA_A_Q4_0 = 1 }

[[variants]]
files = ["softmax.comp"]
name = "f16"
defines = ["SOFTMAX_F16"]
)");
  FileSettings mul_mat = settings("shaders/mul_mat_vec.comp");
  ASSERT_EQ(mul_mat.variants.size(), 2u);
  EXPECT_EQ(mul_mat.variants[0].name, "f16");
  EXPECT_EQ(mul_mat.variants[0].defines, (Defines{{"DATA_A_F16", "1"}, {"B_TYPE", "float16_t"}}));
  EXPECT_EQ(mul_mat.variants[1].name, "q4_0");
  EXPECT_EQ(mul_mat.variants[1].defines, (Defines{{"DATA_A_Q4_0", "1"}}));
  FileSettings softmax = settings("softmax.comp");
  ASSERT_EQ(softmax.variants.size(), 2u);
  EXPECT_EQ(softmax.variants[0].name, "q4_0");
  EXPECT_EQ(softmax.variants[1].name, "f16");
  EXPECT_EQ(softmax.variants[1].defines, (Defines{{"SOFTMAX_F16", ""}}));
  EXPECT_TRUE(settings("other.comp").variants.empty());
}

TEST_F(ConfigTest, SpecializationKeysAtTopLevelInOverridesAndVariants) {
  write("klint.toml", R"(
specialization = { BLOCK = 64, 1 = true, SCALE = "0.5 * 3" }
workgroup-size = [64]
[[overrides]]
files = ["mul_mat*.comp"]
specialization = { BLOCK = 128 }
workgroup-size = [16, 16]
subgroup-size-constant = "SUBGROUP_SIZE"
[[overrides]]
files = ["mul_mat_vec.comp"]
subgroup-size-constant = 3
[[variants]]
files = ["mul_mat*.comp"]
name = "wide"
specialization = { BLOCK = 256 }
workgroup-size = [256, 1, 1]
)");
  FileSettings plain = settings("softmax.comp");
  using runner::Number;
  const std::vector<SpecializationOption> top{
      {{"BLOCK", Number{int64_t{64}}}, "specialization 'BLOCK' (klint.toml:2:20)"},
      {{"1", Number{int64_t{1}}}, "specialization '1' (klint.toml:2:32)"},
      {{"SCALE", Number{1.5}}, "specialization 'SCALE' (klint.toml:2:42)"}};
  EXPECT_EQ(plain.specialization.constants, top);
  EXPECT_EQ(plain.specialization.workgroup_size, (GivenWorkgroupSize{{64, 1, 1}, "workgroup-size (klint.toml:3:18)"}));
  EXPECT_FALSE(plain.specialization.subgroup_size_constant);
  EXPECT_TRUE(plain.variants.empty());

  FileSettings mul_mat = settings("mul_mat_vec.comp");
  // An override adds its constants after the top level's: the later BLOCK wins when applied.
  ASSERT_EQ(mul_mat.specialization.constants.size(), 4u);
  EXPECT_EQ(mul_mat.specialization.constants[3].origin, "specialization 'BLOCK' (klint.toml:6:20)");
  EXPECT_EQ(mul_mat.specialization.workgroup_size->size, (std::array<uint32_t, 3>{16, 16, 1}));
  EXPECT_EQ(mul_mat.specialization.subgroup_size_constant,
            (SubgroupSizeConstant{"3", "subgroup-size-constant (klint.toml:11:26)"}));
  ASSERT_EQ(mul_mat.variants.size(), 1u);
  EXPECT_EQ(mul_mat.variants[0].specialization.constants,
            (std::vector<SpecializationOption>{
                {{"BLOCK", Number{int64_t{256}}}, "specialization 'BLOCK' (klint.toml:15:20)"}}));
  EXPECT_EQ(mul_mat.variants[0].specialization.workgroup_size->size, (std::array<uint32_t, 3>{256, 1, 1}));
}

TEST_F(ConfigTest, AddSpecializationAppendsConstantsAndReplacesTheRest) {
  Specialization to;
  to.constants = {{{"A", runner::Number{int64_t{1}}}, "a"}};
  to.workgroup_size = GivenWorkgroupSize{{8, 8, 1}, "first"};
  Specialization more;
  more.constants = {{{"A", runner::Number{int64_t{2}}}, "b"}};
  more.subgroup_size_constant = SubgroupSizeConstant{"SG", "second"};
  add_specialization(to, more);
  ASSERT_EQ(to.constants.size(), 2u);
  EXPECT_EQ(to.constants[1].origin, "b");
  EXPECT_EQ(to.workgroup_size->origin, "first");  // kept: `more` gives none
  EXPECT_EQ(to.subgroup_size_constant->key, "SG");
  more.workgroup_size = GivenWorkgroupSize{{32, 1, 1}, "third"};
  add_specialization(to, more);
  EXPECT_EQ(to.workgroup_size->origin, "third");
}

TEST_F(ConfigTest, BadSpecializationKeysAreErrors) {
  EXPECT_EQ(error_for("workgroup-size = [64, 0]\n"),
            "klint.toml:1:23: 'workgroup-size' is 0 in y: a workgroup is at least 1 invocation in each axis");
  EXPECT_EQ(error_for("workgroup-size = 64\n"),
            "klint.toml:1:18: 'workgroup-size' must be an array of 1 to 3 integers, such as [64, 1, 1]");
  EXPECT_EQ(error_for("workgroup-size = [1, 2, 3, 4]\n"),
            "klint.toml:1:18: 'workgroup-size' must be an array of 1 to 3 integers, such as [64, 1, 1]");
  EXPECT_EQ(error_for("workgroup-size = [\"64\"]\n"),
            "klint.toml:1:19: 'workgroup-size' must be an array of 1 to 3 integers, such as [64, 1, 1]");
  EXPECT_EQ(error_for("specialization = [1]\n"),
            "klint.toml:1:18: 'specialization' must be a table: { name = a number, true, false or an expression }");
  EXPECT_EQ(error_for("specialization = { A = [1] }\n"),
            "klint.toml:1:24: the value of 'A' in 'specialization' must be a number, true, false or an expression");
  EXPECT_EQ(error_for("specialization = { A = \"rows\" }\n"),
            "klint.toml:1:25: in 'rows': unknown variable 'rows' (no variables are declared)");
  EXPECT_EQ(error_for("specialization = { A = \"1 / 0\" }\n"), "klint.toml:1:24: division by zero in '1 / 0'");
  EXPECT_EQ(error_for("subgroup-size-constant = \"\"\n"),
            "klint.toml:1:26: 'subgroup-size-constant' must be a specialization constant's name or constant_id");
  EXPECT_EQ(error_for("subgroup-size-constant = -1\n"),
            "klint.toml:1:26: 'subgroup-size-constant' must be a specialization constant's name or constant_id");
  EXPECT_EQ(error_for("[[variants]]\nfiles = [\"*.comp\"]\nname = \"a\"\nworkgroup-sise = [1]\n"),
            "klint.toml:4:1: unknown key 'workgroup-sise' in [[variants]] (did you mean 'workgroup-size'?)");
}

TEST_F(ConfigTest, ShowConfigPrintsTheSpecialization) {
  write("klint.toml", R"(
specialization = { BLOCK = 64, 1 = true }
[[overrides]]
files = ["*.comp"]
specialization = { BLOCK = 128 }
workgroup-size = [16, 16]
subgroup-size-constant = "SG"
)");
  std::ostringstream out;
  print_effective_config(out, "a.comp", settings("a.comp"));
  EXPECT_NE(out.str().find("specialization = { 1 = 1, BLOCK = 128 }\n"
                           "#   specialization '1' (klint.toml:2:32)\n"
                           "#   specialization 'BLOCK' (klint.toml:5:20)\n"
                           "workgroup-size = [16, 16, 1]  # workgroup-size (klint.toml:6:18)\n"
                           "subgroup-size-constant = \"SG\"  # subgroup-size-constant (klint.toml:7:26)\n"),
            std::string::npos)
      << out.str();
}

TEST_F(ConfigTest, TwoVariantsOfOneNameForOneFileAreAnError) {
  write("klint.toml",
        "[[variants]]\nfiles = [\"*.comp\"]\nname = \"a\"\n\n"
        "[[variants]]\nfiles = [\"k*.comp\"]\nname = \"a\"\n");
  ConfigResolver resolver;
  std::string error;
  EXPECT_TRUE(resolver.settings_for("x.comp", &error)) << error;
  EXPECT_FALSE(resolver.settings_for("k.comp", &error));
  EXPECT_EQ(error, "klint.toml:5:1: two [[variants]] named 'a' apply to k.comp");
}

TEST_F(ConfigTest, AddDefinesReplacesByName) {
  Defines defines{{"A", "1"}, {"B", ""}};
  add_defines(defines, {{"B", "2"}, {"C", "3"}, {"A", ""}});
  EXPECT_EQ(defines, (Defines{{"A", ""}, {"B", "2"}, {"C", "3"}}));
}

TEST_F(ConfigTest, SyntaxErrorGivesLineAndColumn) {
  EXPECT_EQ(error_for("select = [\"shared-memory-race\"]\nignore = [\"x\"\n"),
            "klint.toml:2:15: error while parsing array: encountered end-of-file");
  EXPECT_EQ(error_for("a = 1\na = 2\n"),
            "klint.toml:2:5: error while parsing key-value pair: cannot redefine existing integer 'a'");
}

// What the parser saw, and keys as written, can hold control characters:
// shown as escapes, the error stays one line (a case the config fuzzer found).
TEST_F(ConfigTest, ErrorsStayOneLine) {
  EXPECT_EQ(error_for("a = n\n"), "klint.toml:1:6: error while parsing floating-point: expected 'nan', saw 'n\\n'");
  EXPECT_EQ(error_for("\"a\\tb\" = 1\n"), "klint.toml:1:1: unknown key 'a\\tb'");
}

TEST_F(ConfigTest, TheFirstErrorInTheFileIsReported) {
  EXPECT_EQ(error_for("zzz = 1\naaa = 2\n"), "klint.toml:1:1: unknown key 'zzz'");
  EXPECT_EQ(error_for("[severity]\nshared-memory-race = \"fatal\"\nbarrier-in-divergent-control-flow = \"x\"\n"),
            "klint.toml:2:22: bad severity for 'shared-memory-race': use \"error\", \"warning\" or \"note\"");
}

TEST_F(ConfigTest, UnknownKeysAreErrorsWithSuggestions) {
  EXPECT_EQ(error_for("selectt = []\n"), "klint.toml:1:1: unknown key 'selectt' (did you mean 'select'?)");
  EXPECT_EQ(error_for("fail-on = \"error\"\n"), "klint.toml:1:1: unknown key 'fail-on'");
  EXPECT_EQ(error_for("[[overrides]]\nfiles = [\"*.comp\"]\n\n  include_dirs = []\n"),
            "klint.toml:4:3: unknown key 'include_dirs' in [[overrides]] (did you mean 'include-dirs'?)");
  EXPECT_EQ(error_for("[[variants]]\nfiles = [\"*.comp\"]\nname = \"a\"\ndefine = []\n"),
            "klint.toml:4:1: unknown key 'define' in [[variants]] (did you mean 'defines'?)");
  EXPECT_EQ(error_for("[[overrides]]\nfiles = [\"*.comp\"]\nvariants = []\n"),
            "klint.toml:3:1: unknown key 'variants' in [[overrides]]");
}

TEST_F(ConfigTest, WrongTypesAreErrors) {
  EXPECT_EQ(error_for("select = \"shared-memory-race\"\n"), "klint.toml:1:10: 'select' must be an array of rule ids");
  EXPECT_EQ(error_for("ignore = [1]\n"), "klint.toml:1:11: 'ignore' must be an array of rule ids");
  EXPECT_EQ(error_for("target-env = 2\n"), "klint.toml:1:14: 'target-env' must be a string such as \"vulkan1.2\"");
  EXPECT_EQ(error_for("severity = \"note\"\n"),
            "klint.toml:1:12: 'severity' must be a table: [severity] rule-id = \"warning\"");
  EXPECT_EQ(error_for("defines = [\"A\", 2]\n"),
            "klint.toml:1:17: 'defines' must be an array such as [\"FOO\", \"BAR=2\"] or a table");
  EXPECT_EQ(error_for("[defines]\nA = 1.5\n"),
            "klint.toml:2:5: the value of 'A' must be a string, an integer or true (defined, no value)");
  EXPECT_EQ(error_for("overrides = 3\n"),
            "klint.toml:1:13: 'overrides' must be an array of tables: write [[overrides]]");
  EXPECT_EQ(error_for("[[variants]]\nfiles = [\"*.comp\"]\nname = 3\n"),
            "klint.toml:3:8: 'name' must be a non-empty string");
}

TEST_F(ConfigTest, BadValuesAreErrors) {
  EXPECT_EQ(error_for("select = [\"shared-memory-racee\"]\n"),
            "klint.toml:1:11: unknown rule 'shared-memory-racee' in 'select' (did you mean 'shared-memory-race'?)");
  EXPECT_EQ(error_for("select = []\n"), "klint.toml:1:10: 'select' is empty: leave it out to run every rule");
  EXPECT_EQ(error_for("[severity]\nredundant-barier = \"note\"\n"),
            "klint.toml:2:1: unknown rule 'redundant-barier' in [severity] (did you mean 'redundant-barrier'?)");
  EXPECT_EQ(error_for("[severity]\nredundant-barrier = \"fatal\"\n"),
            "klint.toml:2:21: bad severity for 'redundant-barrier': use \"error\", \"warning\" or \"note\"");
  EXPECT_EQ(
      error_for("targets = [\"nvidia-ampere\", \"nvidia-amper\"]\n"),
      "klint.toml:1:29: unknown target 'nvidia-amper' (klint targets lists them) (did you mean 'nvidia-ampere'?)");
  EXPECT_EQ(error_for("targets = [\"device:x\"]\n"),
            "klint.toml:1:12: unknown target 'device:x' (klint targets lists them)");
  EXPECT_EQ(error_for("target-env = \"vulkan1.4\"\n"),
            "klint.toml:1:14: unknown target-env 'vulkan1.4': use vulkan1.0 to vulkan1.3");
  EXPECT_EQ(error_for("defines = [\"-DFOO\"]\n"),
            "klint.toml:1:12: bad macro name '-DFOO': it must be an identifier (leave out the -D)");
  EXPECT_EQ(error_for("[[overrides]]\nfiles = [\"a/**b\"]\n"),
            "klint.toml:2:10: bad glob 'a/**b': '**' must be a whole path component, as in 'a/**/b'");
  EXPECT_EQ(error_for("[[overrides]]\nfiles = []\n"),
            "klint.toml:2:9: 'files' is empty: it must name at least one glob");
  EXPECT_EQ(error_for("\n[[overrides]]\nignore = []\n"),
            "klint.toml:2:1: [[overrides]] needs 'files', a list of globs");
  EXPECT_EQ(error_for("[[variants]]\nfiles = [\"*.comp\"]\n"), "klint.toml:1:1: [[variants]] needs 'name'");
}

TEST_F(ConfigTest, ABrokenConfigFailsEveryFileBelowIt) {
  write("sub/klint.toml", "selectt = []\n");
  ConfigResolver resolver;
  std::string error;
  EXPECT_TRUE(resolver.settings_for("a.comp", &error));
  for (const char* file : {"sub/a.comp", "sub/b/c.comp"}) {
    error.clear();
    EXPECT_FALSE(resolver.settings_for(file, &error));
    EXPECT_EQ(error, "sub/klint.toml:1:1: unknown key 'selectt' (did you mean 'select'?)");
  }
}

TEST_F(ConfigTest, ShowConfigPrintsEveryEffectiveSetting) {
  write("klint.toml", R"(
ignore = ["redundant-barrier"]
defines = ["A=1"]
target-env = "vulkan1.2"
[severity]
shared-memory-race = "note"
[[variants]]
files = ["*.comp"]
name = "f16"
defines = ["F16"]
)");
  std::string defaults;
  for (std::string_view name : default_target_names())
    defaults += (defaults.empty() ? "\"" : ", \"") + std::string(name) + "\"";
  std::ostringstream out;
  print_effective_config(out, "a.comp", settings("a.comp"));
  EXPECT_EQ(out.str(), R"(# settings for a.comp
# from klint.toml
# select: every rule
ignore = ["redundant-barrier"]
include-dirs = []
defines = ["A=1"]
# targets: klint's defaults, [)" +
                           defaults + R"(]
target-env = "vulkan1.2"
# entry-point: klint's default, "main"
# specialization: none, the constants keep their defaults
# workgroup-size: the kernel's own
# subgroup-size-constant: none

[severity]
shared-memory-race = "note"

[[variants]]
name = "f16"
defines = ["F16"]
)");
  std::ostringstream none;
  print_effective_config(none, "b.glsl", FileSettings{});
  EXPECT_NE(none.str().find("# no klint.toml applies: klint's defaults\n"), std::string::npos) << none.str();
  EXPECT_NE(none.str().find("# variants: none, the file is linted once\n"), std::string::npos) << none.str();
}

TEST_F(ConfigTest, KeyChangesWithEverySetting) {
  FileSettings base;
  FileSettings same;
  same.config_path = "elsewhere/klint.toml";  // where a setting comes from does not change results
  same.overrides = {AppliedOverride{7, {"*.comp"}}};
  same.overrides_in_config = 1;
  same.notes = {"klint.toml:1:11: a note"};
  EXPECT_EQ(base.key(), same.key());
  std::vector<FileSettings> changed(13);
  changed[0].select = Rules{rule("shared-memory-race")};
  changed[1].ignore = Rules{rule("shared-memory-race")};
  changed[2].severity[rule("shared-memory-race")] = Severity::Note;
  changed[3].defines = {{"A", "1"}};
  changed[4].include_dirs = {"inc"};
  changed[5].target_env = TargetEnv::Vulkan1_3;  // the default, but set: the command line may say otherwise
  changed[6].variants = {Variant{"f16", {{"F16", ""}}}};
  changed[7].targets = {"apple-m1"};
  changed[8].entry_point = "main";
  changed[9].specialization.constants = {{{"BLOCK", runner::Number{int64_t{64}}}, "specialization 'BLOCK' (a:1:1)"}};
  changed[10].specialization.workgroup_size = GivenWorkgroupSize{{64, 1, 1}, "workgroup-size (a:1:1)"};
  changed[11].specialization.subgroup_size_constant = SubgroupSizeConstant{"SG", "subgroup-size-constant (a:1:1)"};
  changed[12].variants = {Variant{"f16", {{"F16", ""}}, changed[10].specialization}};
  for (size_t i = 0; i < changed.size(); ++i) {
    EXPECT_NE(changed[i].key(), base.key()) << i;
    for (size_t j = 0; j < i; ++j) EXPECT_NE(changed[i].key(), changed[j].key()) << i << " " << j;
  }
}

}  // namespace
}  // namespace klint
