// The order a confirmation tries its setups in: a workgroup size that a
// finding names ("such as local_size_x = 48") runs first, since each size is
// another compile of the kernel and the default cannot show that finding;
// a finding that names none starts at the kernel's own size. Each test runs
// the lint's rules and the confirmation in process, and records the setups
// as their runs start.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rules/rule.h"
#include "runner/confirm.h"
#include "runner/infer_setup.h"
#include "validate/loaded_shader.h"

namespace klint::runner {
namespace {

struct Confirmed {
  std::vector<Diagnostic> findings;
  Verdicts verdicts;
  std::vector<std::string> setups;  // as their runs started
};

Confirmed confirm(const std::string& source, Language language = Language::Glsl) {
  SourceCache sources;
  const LoadedShader shader = load_shader(
      ShaderInput{language == Language::Hlsl ? "k.hlsl" : "k.comp", source, language}, CompileOptions{}, sources, {});
  Confirmed out;
  if (!shader.module) {
    ADD_FAILURE() << "no module";
    return out;
  }
  RuleSelection selection;
  selection.select.push_back(RuleRegistry::find("grid-stride-tail"));
  out.findings = run_rules(*shader.module, selection, RuleOptions{});
  std::vector<const Diagnostic*> findings;
  for (const Diagnostic& d : out.findings) findings.push_back(&d);
  ConfirmOptions options;
  options.setup_started = [&](const std::string& setup) { out.setups.push_back(setup); };
  out.verdicts = confirm_findings(findings, shader, nullptr, options);
  return out;
}

// A table copied in steps of a workgroup size the host picks, right at the
// default of 32: the finding names 48, and the one setup run is there.
TEST(ConfirmOrder, AWorkgroupSizeTheFindingNamesRunsFirst) {
  const Confirmed c = confirm(R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint GROUP = 32;
layout(binding = 0) buffer Data { uint data[]; };
layout(binding = 1) readonly buffer Source { uint source[]; };
shared uint lut[128];
void main() {
    for (uint i = 0; i < 128; i += GROUP) lut[i + gl_LocalInvocationID.x] = source[i + gl_LocalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = lut[data[gl_GlobalInvocationID.x] & 127u];
}
)");
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_NE(c.findings[0].message.find("such as local_size_x = 48,"), std::string::npos) << c.findings[0].message;
  ASSERT_EQ(c.verdicts.size(), 1u);
  ASSERT_TRUE(c.verdicts[0]);
  EXPECT_EQ(c.verdicts[0]->status, Confirmation::Status::Confirmed) << c.verdicts[0]->summary;
  EXPECT_NE(c.verdicts[0]->summary.find("invocation 32 writes an index at or past 128"), std::string::npos)
      << c.verdicts[0]->summary;
  ASSERT_EQ(c.setups.size(), 1u) << ::testing::PrintToString(c.setups);
  EXPECT_NE(c.setups[0].find("workgroup 48,1,1"), std::string::npos) << c.setups[0];
}

// Rows of a tile filled in steps of a workgroup height the host picks: the
// size named is along y, and the setup run first keeps x as declared.
TEST(ConfirmOrder, TheNamedSizeIsAlongTheAxisTheLoopStepsBy) {
  const Confirmed c = confirm(R"(#version 450
layout(local_size_x = 8, local_size_y_id = 1) in;
layout(constant_id = 1) const uint ROWS = 8;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64][8];
void main() {
    for (uint r = 0; r < 64; r += ROWS) {
        tile[r + gl_LocalInvocationID.y][gl_LocalInvocationID.x] = data[(r + gl_LocalInvocationID.y) * 8 + gl_LocalInvocationID.x];
    }
    barrier();
    data[gl_LocalInvocationIndex] = tile[gl_LocalInvocationID.x][gl_LocalInvocationID.y];
}
)");
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_NE(c.findings[0].message.find("such as local_size_y = 12,"), std::string::npos) << c.findings[0].message;
  ASSERT_TRUE(c.verdicts.at(0));
  EXPECT_EQ(c.verdicts[0]->status, Confirmation::Status::Confirmed) << c.verdicts[0]->summary;
  ASSERT_FALSE(c.setups.empty());
  EXPECT_NE(c.setups[0].find("workgroup 8,12,1"), std::string::npos) << c.setups[0];
  EXPECT_EQ(c.setups.size(), 1u) << ::testing::PrintToString(c.setups);
}

// A default that does not divide the array overruns as written: the finding
// names the last iteration, no other size, and the runs start at the default.
TEST(ConfirmOrder, AFindingAtTheDefaultSizeStartsThere) {
  const Confirmed c = confirm(R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint GROUP = 48;
layout(binding = 0) buffer Data { uint data[]; };
shared uint lut[128];
void main() {
    for (uint i = 0; i < 128; i += GROUP) lut[i + gl_LocalInvocationID.x] = data[i + gl_LocalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = lut[gl_LocalInvocationID.x];
}
)");
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].message.find("such as"), std::string::npos) << c.findings[0].message;
  ASSERT_TRUE(c.verdicts.at(0));
  EXPECT_EQ(c.verdicts[0]->status, Confirmation::Status::Confirmed) << c.verdicts[0]->summary;
  ASSERT_FALSE(c.setups.empty());
  EXPECT_NE(c.setups[0].find("workgroup 48,1,1"), std::string::npos) << c.setups[0];
}

// HLSL's groups are sized in the source (glslang takes no specialization
// constant in numthreads): nothing to name, and the run is at that size.
TEST(ConfirmOrder, AnHlslGroupRunsAtItsOwnSize) {
  const Confirmed c = confirm(R"(StructuredBuffer<float> src : register(t0);
RWStructuredBuffer<float> dst : register(u1);
groupshared float cache[100];
[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 id : SV_DispatchThreadID) {
    for (uint i = 0; i < 100; i += 64) cache[i + gtid.x] = src[i + gtid.x];
    GroupMemoryBarrierWithGroupSync();
    dst[id.x] = cache[gtid.x];
}
)",
                              Language::Hlsl);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].message.find("such as"), std::string::npos) << c.findings[0].message;
  ASSERT_TRUE(c.verdicts.at(0));
  EXPECT_EQ(c.verdicts[0]->status, Confirmation::Status::Confirmed) << c.verdicts[0]->summary;
  ASSERT_EQ(c.setups.size(), 1u) << ::testing::PrintToString(c.setups);
  EXPECT_EQ(c.setups[0].find("workgroup"), std::string::npos) << c.setups[0];
}

TEST(NamedWorkgroupSizes, ReadsEachAxisOnceFromMessagesAndNotes) {
  Diagnostic first;
  first.message = "a size that does not divide 256, such as local_size_x = 96, indexes past the end";
  first.notes.push_back(Note{{}, "and local_size_y = 12 along y; local_size_x = 96 again"});
  Diagnostic second;
  second.message = "not a size: local_size_z = 0, local_size_w = 3, my_local_size_x = 5";
  const Diagnostic* findings[] = {&first, &second};
  EXPECT_EQ(named_workgroup_sizes(findings),
            (std::vector<std::pair<size_t, uint32_t>>{{0, 96}, {1, 12}}));
}

}  // namespace
}  // namespace klint::runner
