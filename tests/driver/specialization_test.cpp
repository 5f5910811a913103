// What the host sets, for linting (driver/specialization.h): the command
// line's reading of --specialization, --workgroup-size and
// --subgroup-size-constant, the specializer load_shader applies, the
// subgroup widths a lint runs at, and the cache key.
#include "driver/specialization.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "driver/cache.h"
#include "driver/lint.h"
#include "validate/targets.h"

namespace klint {
namespace {

using runner::Number;

std::optional<Specialization> parse(std::vector<std::string> specialization, std::string workgroup_size = "",
                                    std::string subgroup_size_constant = "", std::string* error = nullptr) {
  std::string ignored;
  return command_line_specialization(specialization, workgroup_size, subgroup_size_constant,
                                     error ? error : &ignored);
}

std::string parse_error(std::vector<std::string> specialization, std::string workgroup_size = "") {
  std::string error;
  EXPECT_FALSE(parse(specialization, workgroup_size, "", &error));
  return error;
}

TEST(CommandLineSpecialization, ReadsEachOptionWithItsOrigin) {
  std::optional<Specialization> s = parse({"BLOCK=64,0=1.5", "FLAG=true"}, "16,16", "SUBGROUP_SIZE");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->constants, (std::vector<SpecializationOption>{
                              {{"BLOCK", Number{int64_t{64}}}, "--specialization BLOCK"},
                              {{"0", Number{1.5}}, "--specialization 0"},
                              {{"FLAG", Number{int64_t{1}}}, "--specialization FLAG"}}));
  EXPECT_EQ(s->workgroup_size, (GivenWorkgroupSize{{16, 16, 1}, "--workgroup-size"}));
  EXPECT_EQ(s->subgroup_size_constant, (SubgroupSizeConstant{"SUBGROUP_SIZE", "--subgroup-size-constant"}));
  EXPECT_TRUE(parse({})->empty());
}

TEST(CommandLineSpecialization, MalformedValuesAndZeroSizesAreOneLineErrors) {
  EXPECT_EQ(parse_error({"BLOCK"}), "--specialization 'BLOCK': 'BLOCK' is not CONSTANT=NUMBER");
  EXPECT_EQ(parse_error({"BLOCK=wide"}), "--specialization 'BLOCK=wide': 'BLOCK=wide' is not CONSTANT=NUMBER");
  EXPECT_EQ(parse_error({"=4"}), "--specialization '=4': '=4' is not CONSTANT=NUMBER");
  EXPECT_EQ(parse_error({}, "64,0"), "--workgroup-size '64,0': a workgroup is at least 1 invocation in each axis");
  EXPECT_EQ(parse_error({}, "0"), "--workgroup-size '0': a workgroup is at least 1 invocation in each axis");
  EXPECT_EQ(parse_error({}, "64x1"), "--workgroup-size '64x1' is not X[,Y[,Z]] of positive integers");
  EXPECT_EQ(parse_error({}, "1,1,1,1"), "--workgroup-size '1,1,1,1' is not X[,Y[,Z]] of positive integers");
}

TEST(SubgroupWidths, EachWidthWithTheTargetsThatRunIt) {
  const Target* ampere = find_target("nvidia-ampere");
  const Target* intel = find_target("intel-xe");  // 8 to 32, picked per shader
  const Target* adreno = find_target("qualcomm-adreno-6xx");
  ASSERT_TRUE(ampere && intel && adreno);
  auto widths = subgroup_widths({ampere, intel, adreno});
  ASSERT_EQ(widths.size(), 4u);
  EXPECT_EQ(widths[0], (std::pair<uint32_t, std::vector<const Target*>>{8, {intel}}));
  EXPECT_EQ(widths[1], (std::pair<uint32_t, std::vector<const Target*>>{16, {intel}}));
  EXPECT_EQ(widths[2], (std::pair<uint32_t, std::vector<const Target*>>{32, {ampere, intel}}));
  EXPECT_EQ(widths[3], (std::pair<uint32_t, std::vector<const Target*>>{64, {adreno}}));
}

TEST(SubgroupWidths, OneLintPerWidthNamedAndJudgedAgainstItsTargets) {
  LintOptions options;
  options.rule_options.targets = {find_target("nvidia-ampere"), find_target("arm-mali-valhall")};
  EXPECT_EQ(subgroup_width_lints(options).size(), 1u);  // no constant: once, as it is
  options.specialization.subgroup_size_constant = SubgroupSizeConstant{"SG", "--subgroup-size-constant"};
  auto lints = subgroup_width_lints(options);
  ASSERT_EQ(lints.size(), 2u);
  EXPECT_EQ(lints[0].first, "subgroup size 16");
  EXPECT_EQ(lints[0].second.specialization.subgroup_size, 16u);
  EXPECT_EQ(lints[0].second.rule_options.targets, std::vector<const Target*>{find_target("arm-mali-valhall")});
  EXPECT_EQ(lints[1].first, "subgroup size 32");
  EXPECT_EQ(lints[1].second.rule_options.targets, std::vector<const Target*>{find_target("nvidia-ampere")});
}

constexpr const char* kUndeclared = R"(#version 450
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    tile[gl_LocalInvocationID.x] = x[gl_GlobalInvocationID.x];
    x[gl_GlobalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1) % 64];
}
)";

constexpr const char* kSpecSized = R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK = 1;
layout(constant_id = 1) const uint READERS = 0;
layout(constant_id = 2) const uint SG = 32;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[256];
void main() {
    tile[gl_LocalInvocationID.x] = x[gl_GlobalInvocationID.x];
    if (gl_LocalInvocationID.x < READERS) x[gl_GlobalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1) % BLOCK];
}
)";

FileReport lint(const char* text, const Specialization& specialization) {
  LintOptions options;
  options.specialization = specialization;
  SourceCache sources;
  return lint_text(InputFile{"k.comp", Language::Glsl}, text, options, sources);
}

bool has_race(const FileReport& report) {
  return std::any_of(report.diagnostics.begin(), report.diagnostics.end(),
                     [](const Diagnostic& d) { return d.rule->id == "shared-memory-race"; });
}

std::vector<std::string> reasons(const FileReport& report) {
  std::vector<std::string> out;
  for (const InputMessage& message : report.messages) out.push_back(message.reason);
  return out;
}

TEST(Specializer, AKernelWithNoDeclaredSizeIsAnalyzedAtTheGivenOne) {
  FileReport without = lint(kUndeclared, {});
  EXPECT_FALSE(has_race(without));
  Specialization s;
  s.workgroup_size = GivenWorkgroupSize{{64, 1, 1}, "--workgroup-size"};
  FileReport with = lint(kUndeclared, s);
  EXPECT_TRUE(has_race(with));
  EXPECT_EQ(reasons(with), std::vector<std::string>{"declares no workgroup size (local_size_x/y/z); klint analyzed it "
                                                    "at 64x1x1, the size --workgroup-size gives"});
  EXPECT_FALSE(with.messages[0].is_error);
}

TEST(Specializer, ConstantsAreSetByNameOrIdBeforeAnalysis) {
  EXPECT_FALSE(has_race(lint(kSpecSized, {})));
  Specialization s;
  s.constants = {{{"BLOCK", Number{int64_t{64}}}, "--specialization BLOCK"},
                 {{"1", Number{int64_t{64}}}, "--specialization 1"}};
  FileReport report = lint(kSpecSized, s);
  EXPECT_TRUE(has_race(report));
  EXPECT_TRUE(report.messages.empty()) << report.messages.front().reason;
  // The workgroup size sets the constant behind local_size_x_id as well.
  s.constants.erase(s.constants.begin());
  s.workgroup_size = GivenWorkgroupSize{{64, 1, 1}, "--workgroup-size"};
  EXPECT_TRUE(has_race(lint(kSpecSized, s)));
  // A later value of one constant replaces an earlier one.
  s.constants.push_back({{"READERS", Number{int64_t{0}}}, "--specialization READERS"});
  EXPECT_FALSE(has_race(lint(kSpecSized, s)));
}

TEST(Specializer, WhatCannotBeAppliedIsAnErrorNamingTheOption) {
  auto error_of = [](const Specialization& s) {
    FileReport report = lint(kSpecSized, s);
    EXPECT_EQ(report.messages.size(), 1u);
    EXPECT_TRUE(report.diagnostics.empty());
    return report.messages.empty() || !report.messages[0].is_error ? std::string() : report.messages[0].reason;
  };
  Specialization unknown;
  unknown.constants = {{{"BLOK", Number{int64_t{64}}}, "--specialization BLOK"}};
  EXPECT_EQ(error_of(unknown),
            "--specialization BLOK: no specialization constant 'BLOK' (did you mean 'BLOCK'?); it has 0 (BLOCK), 1 "
            "(READERS), 2 (SG)");
  Specialization out_of_range;
  out_of_range.constants = {{{"BLOCK", Number{int64_t{-1}}}, "specialization 'BLOCK' (klint.toml:1:20)"}};
  EXPECT_EQ(error_of(out_of_range).rfind("specialization 'BLOCK' (klint.toml:1:20): specialization constant 'BLOCK' "
                                         "is a uint",
                                         0),
            0u);
  Specialization conflict;
  conflict.constants = {{{"BLOCK", Number{int64_t{32}}}, "--specialization BLOCK"}};
  conflict.workgroup_size = GivenWorkgroupSize{{64, 1, 1}, "--workgroup-size"};
  EXPECT_EQ(error_of(conflict),
            "--workgroup-size gives the workgroup x 64, but --specialization BLOCK sets it (constant_id 0) to 32");
  Specialization twice;
  twice.constants = {{{"SG", Number{int64_t{32}}}, "--specialization SG"}};
  twice.subgroup_size_constant = SubgroupSizeConstant{"2", "--subgroup-size-constant"};
  twice.subgroup_size = 16;
  EXPECT_EQ(error_of(twice), "--subgroup-size-constant: constant_id 2 is also set by --specialization SG");
  Specialization no_subgroup_constant;
  no_subgroup_constant.subgroup_size_constant = SubgroupSizeConstant{"WARP", "--subgroup-size-constant"};
  no_subgroup_constant.subgroup_size = 32;
  EXPECT_EQ(error_of(no_subgroup_constant).rfind("--subgroup-size-constant: no specialization constant 'WARP'", 0), 0u);
}

TEST(Specializer, TheModuleKnowsTheSubgroupWidthItIsJudgedAt) {
  LintOptions options;
  options.keep_shader = true;
  options.specialization.subgroup_size_constant = SubgroupSizeConstant{"SG", "--subgroup-size-constant"};
  SourceCache sources;
  for (const auto& [name, at_width] : subgroup_width_lints(options)) {
    FileReport report = lint_text(InputFile{"k.comp", Language::Glsl}, kSpecSized, at_width, sources);
    ASSERT_TRUE(report.shader && report.shader->module) << name;
    EXPECT_EQ(report.shader->module->subgroup_size(), at_width.specialization.subgroup_size) << name;
    EXPECT_NE(at_width.specialization.subgroup_size, 0u);
  }
  options.specialization = {};
  FileReport plain = lint_text(InputFile{"k.comp", Language::Glsl}, kSpecSized, options, sources);
  ASSERT_TRUE(plain.shader);
  EXPECT_EQ(plain.shader->module->subgroup_size(), 0u);
}

TEST(Specializer, ADeclaredSizeStaysAndTheFileSaysTheOptionDidNotApply) {
  Specialization s;
  s.workgroup_size = GivenWorkgroupSize{{32, 1, 1}, "--workgroup-size"};
  FileReport report = lint(R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    tile[gl_LocalInvocationID.x] = x[gl_GlobalInvocationID.x];
    x[gl_GlobalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1) % 64];
}
)",
                           s);
  EXPECT_TRUE(has_race(report));
  EXPECT_EQ(reasons(report),
            std::vector<std::string>{"main declares 64x1x1: --workgroup-size gives 32x1x1, which applies only to sizes "
                                     "the host sets (a specialization constant, or none declared); klint analyzed "
                                     "the declared size"});
  s.workgroup_size->size = {64, 1, 1};
  EXPECT_TRUE(lint(R"(#version 450
layout(local_size_x = 64) in;
void main() {}
)",
                   s)
                  .messages.empty());
}

TEST(Specializer, TheCacheKeyChangesWithEverySetting) {
  LintOptions base;
  std::vector<LintOptions> changed(6);
  changed[0].specialization.constants = {{{"A", Number{int64_t{1}}}, "--specialization A"}};
  changed[1].specialization.constants = {{{"A", Number{1.0}}, "--specialization A"}};
  changed[2].specialization.constants = {{{"A", Number{int64_t{1}}}, "specialization 'A' (klint.toml:1:1)"}};
  changed[3].specialization.workgroup_size = GivenWorkgroupSize{{64, 1, 1}, "--workgroup-size"};
  changed[4].specialization.subgroup_size_constant = SubgroupSizeConstant{"SG", "--subgroup-size-constant"};
  changed[5].specialization = changed[4].specialization;
  changed[5].specialization.subgroup_size = 32;
  for (size_t i = 0; i < changed.size(); ++i) {
    EXPECT_NE(settings_key(changed[i]), settings_key(base)) << i;
    for (size_t j = 0; j < i; ++j) EXPECT_NE(settings_key(changed[i]), settings_key(changed[j])) << i << " " << j;
  }
}

}  // namespace
}  // namespace klint
