// klint --confirm on the failing fixtures of the six rules a run can show:
// each finding's verdict, closed-world (the fixtures whose loops run to a
// push constant take their shapes from the klint.toml beside them). Then
// the clean kernels, which must get no verdict at all, and kernels that hang
// or that the instrumented run cannot run.
#include <gtest/gtest.h>

#include <fmt/core.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "rules/rule.h"
#include "tests/runner/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint {
namespace {

using testing::run_klint;

struct Verdict {
  std::string file;  // under tests/rules
  uint32_t line;
  std::string status;
};

const std::vector<Verdict> kExpected = {
    {"shared-memory-race/bad_broadcast_without_second_barrier.comp", 17, "confirmed"},
    {"shared-memory-race/bad_every_lane_writes_subgroup_slot.comp", 11, "confirmed"},
    {"shared-memory-race/bad_groupshared_neighbour.hlsl", 9, "confirmed"},
    {"shared-memory-race/bad_neighbour_read.comp", 11, "confirmed"},
    {"shared-memory-race/bad_spec_workgroup_neighbour.comp", 14, "confirmed"},
    {"shared-memory-race/bad_warp_synchronous_reduction.comp", 20, "confirmed"},
    {"shared-memory-race/bad_warp_synchronous_reduction.comp", 21, "confirmed"},
    {"shared-memory-race/bad_warp_synchronous_reduction.comp", 22, "confirmed"},
    {"shared-memory-race/bad_warp_synchronous_reduction.comp", 23, "confirmed"},
    {"shared-memory-race/bad_warp_synchronous_reduction.comp", 24, "confirmed"},
    {"shared-memory-race/bad_write_after_read_next_iteration.comp", 12, "confirmed"},
    {"insufficient-barrier/bad_assembly_no_semantics.spvasm", 31, "confirmed"},
    {"insufficient-barrier/bad_control_barrier_buffer_semantics.comp", 13, "confirmed"},
    {"insufficient-barrier/bad_group_memory_barrier.hlsl", 9, "confirmed"},
    {"insufficient-barrier/bad_group_memory_barrier_reduction.comp", 12, "confirmed"},
    {"insufficient-barrier/bad_group_memory_barrier_reduction.comp", 15, "confirmed"},
    {"insufficient-barrier/bad_helper_with_early_return.comp", 16, "confirmed"},
    {"insufficient-barrier/bad_loop_back_edge.comp", 15, "confirmed"},
    {"insufficient-barrier/bad_seed_device_barrier.hlsl", 12, "confirmed"},
    {"insufficient-barrier/bad_shared_barrier_alone.comp", 13, "confirmed"},
    {"insufficient-barrier/bad_single_writer.comp", 10, "confirmed"},
    {"insufficient-barrier/bad_vulkan_memory_model.comp", 12, "confirmed"},
    {"uninitialized-shared-read/bad_array_larger_than_workgroup.comp", 14, "confirmed"},
    {"uninitialized-shared-read/bad_guarded_fill_then_tree_reduction.comp", 16, "confirmed"},
    {"uninitialized-shared-read/bad_missing_halo.comp", 13, "confirmed"},
    {"uninitialized-shared-read/bad_read_before_write.hlsl", 8, "confirmed"},
    {"grid-stride-mismatch/bad_dispatch_thread_id.hlsl", 8, "confirmed"},
    {"grid-stride-mismatch/bad_group_index.hlsl", 9, "confirmed"},
    {"grid-stride-mismatch/bad_local_id_dispatch_step.comp", 12, "confirmed"},
    {"grid-stride-mismatch/bad_rows_along_y.comp", 12, "confirmed"},
    {"grid-stride-mismatch/bad_seed_elementwise.comp", 19, "confirmed"},
    {"grid-stride-mismatch/bad_seed_elementwise.comp", 24, "confirmed"},
    {"grid-stride-mismatch/bad_seed_reduction.comp", 16, "confirmed"},
    {"grid-stride-mismatch/bad_spec_constant.comp", 10, "confirmed"},
    {"grid-stride-mismatch/bad_spec_constant.comp", 14, "confirmed"},
    {"grid-stride-mismatch/bad_vector_and_signed.comp", 11, "confirmed"},
    {"grid-stride-mismatch/bad_vector_and_signed.comp", 15, "confirmed"},
    {"grid-stride-mismatch/bad_workgroup_id_times_size.comp", 10, "confirmed"},
    {"grid-stride-mismatch/bad_workgroup_id_times_size.comp", 15, "confirmed"},
    {"subgroup-size-assumed/bad_first_invocations.comp", 15, "confirmed"},
    {"subgroup-size-assumed/bad_global_id_atomic.comp", 12, "confirmed"},
    {"subgroup-size-assumed/bad_last_lane.comp", 12, "confirmed"},
    {"subgroup-size-assumed/bad_seed_simd_reduction.comp", 15, "confirmed"},
    {"subgroup-size-assumed/bad_seed_simd_reduction.comp", 16, "confirmed"},
    {"subgroup-size-assumed/bad_shift_mask.comp", 12, "confirmed"},
    {"subgroup-size-assumed/bad_shift_mask.comp", 13, "confirmed"},
    {"subgroup-size-assumed/bad_subgroup_base.comp", 10, "confirmed"},
    {"subgroup-size-assumed/bad_wave_lane.hlsl", 9, "confirmed"},
    {"subgroup-size-assumed/bad_wave_lane.hlsl", 10, "confirmed"},
    {"subgroup-size-assumed/bad_wave_lane.hlsl", 14, "confirmed"},
    {"subgroup-count-assumed/bad_groupshared.hlsl", 10, "confirmed"},
    {"subgroup-count-assumed/bad_groupshared.hlsl", 14, "confirmed"},
    {"subgroup-count-assumed/bad_guard_read.comp", 18, "confirmed"},
    {"subgroup-count-assumed/bad_lane_reads.comp", 17, "confirmed"},
    {"subgroup-count-assumed/bad_partial_8.comp", 13, "confirmed"},
    {"subgroup-count-assumed/bad_partial_8.comp", 17, "confirmed"},
    {"subgroup-count-assumed/bad_seed_simd_groups.comp", 19, "confirmed"},
    {"subgroup-count-assumed/bad_seed_simd_groups.comp", 24, "confirmed"},
    {"subgroup-count-assumed/bad_seed_warp_size_1024.comp", 20, "confirmed"},
    {"subgroup-count-assumed/bad_spec_constant_workgroup.comp", 13, "confirmed"},
};

std::string rule_of(const std::string& file) { return file.substr(0, file.find('/')); }

class Confirm : public ::testing::TestWithParam<std::string> {};

// The verdicts are lavapipe's, where three subgroup sizes can be tried: a GPU
// runs the one it has, and on NVIDIA's 32 the kernels that assume 32 are right.
bool on_lavapipe() {
  static const bool lavapipe = runner::testing::default_device_name().find("llvmpipe") != std::string::npos;
  return lavapipe;
}

TEST_P(Confirm, EachFindingGetsItsVerdict) {
  if (!on_lavapipe()) GTEST_SKIP() << "the table holds lavapipe's verdicts";
  const std::string file = GetParam();
  const std::string path = std::string(KLINT_SOURCE_DIR) + "/tests/rules/" + file;
  testing::KlintRun run =
      run_klint({"--no-cache", "--confirm", "--format", "json", "--select", rule_of(file), path}, "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out);
  std::multiset<std::pair<uint32_t, std::string>> seen, expected;
  for (const nlohmann::json& finding : report["findings"]) {
    const nlohmann::json& c = finding["confirmation"];
    ASSERT_TRUE(c.is_object()) << finding.dump();
    const std::string status = c["status"];
    seen.insert({finding["location"]["line"].get<uint32_t>(), status});
    EXPECT_FALSE(c["summary"].get<std::string>().empty());
    EXPECT_FALSE(c["details"].empty());
    if (status == "confirmed") {
      const std::string summary = c["summary"];
      // A witness names the run and either the accesses or the outputs that differ.
      EXPECT_TRUE(summary.starts_with("at subgroup size ") || summary.starts_with("at the device's subgroup size: ") ||
                  summary.starts_with("the output differs"))
          << summary;
      if (summary.starts_with("at ")) {
        EXPECT_FALSE(c["witness"].empty()) << summary;
      }
    }
  }
  for (const Verdict& v : kExpected) {
    if (v.file == file) expected.insert({v.line, v.status});
  }
  EXPECT_EQ(seen, expected) << run.out;
}

std::vector<std::string> fixture_files() {
  std::set<std::string> files;
  for (const Verdict& v : kExpected) files.insert(v.file);
  return {files.begin(), files.end()};
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Confirm, ::testing::ValuesIn(fixture_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// The rules a run can show are those whose metadata says so, and every bad
// fixture of each is in the table: a new fixture needs a verdict.
TEST(Confirm, TableCoversEveryFailingFixture) {
  std::set<std::string> listed, rules;
  for (const Verdict& v : kExpected) {
    listed.insert(v.file);
    rules.insert(rule_of(v.file));
  }
  std::set<std::string> confirmable;
  for (const RuleInfo* rule : RuleRegistry::infos()) {
    if (rule->run_evidence != RunEvidence::None) confirmable.insert(std::string(rule->id));
  }
  EXPECT_EQ(confirmable, rules);
  for (const std::string& rule : confirmable) {
    for (const auto& entry : std::filesystem::directory_iterator(std::string(KLINT_SOURCE_DIR) + "/tests/rules/" + rule)) {
      const std::string name = entry.path().filename().string();
      if (name.starts_with("bad_")) {
        EXPECT_TRUE(listed.count(rule + "/" + name)) << rule << "/" << name;
      }
    }
  }
}

// SARIF: the verdict in the result's properties, the witness's accesses
// among its related locations.
TEST(Confirm, SarifCarriesTheVerdictAndTheWitness) {
  if (!on_lavapipe()) GTEST_SKIP() << "the witness named is lavapipe's";
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "sarif", "--select", "shared-memory-race",
                                     std::string(KLINT_SOURCE_DIR) + "/tests/rules/shared-memory-race/bad_neighbour_read.comp"},
                                    "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json log = nlohmann::json::parse(run.out);
  const nlohmann::json& results = log["runs"][0]["results"];
  ASSERT_EQ(results.size(), 1u) << run.out;
  const nlohmann::json& c = results[0]["properties"]["confirmation"];
  EXPECT_EQ(c["status"], "confirmed") << c.dump();
  EXPECT_EQ(c["summary"].get<std::string>().rfind("at subgroup size 4: race on tile[1] in workgroup 0: ", 0), 0u)
      << c.dump();
  std::vector<std::pair<uint32_t, std::string>> witness;
  for (const nlohmann::json& related : results[0]["relatedLocations"]) {
    const std::string text = related["message"]["text"];
    if (text.starts_with("Witness: ")) {
      witness.emplace_back(related["physicalLocation"]["region"]["startLine"].get<uint32_t>(), text);
    }
  }
  const std::vector<std::pair<uint32_t, std::string>> expected{
      {9, "Witness: write by invocation 1 of workgroup 0."}, {11, "Witness: read by invocation 0 of workgroup 0."}};
  EXPECT_EQ(witness, expected) << results[0].dump();
}

// A correct kernel has no finding to confirm, and the run adds none.
TEST(Confirm, CleanKernelsGetNoVerdict) {
  testing::KlintRun run = run_klint(
      {"--no-cache", "--confirm", "--format", "json", std::string(KLINT_SOURCE_DIR) + "/tests/clean"}, "", 300);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out);
  EXPECT_TRUE(report["findings"].empty()) << run.out;
  EXPECT_EQ(report["files_linted"], 10);
}

// Under -j the files are confirmed at once, as they are linted, and the
// findings come out in the order -j 1 gives them, each with its verdict.
TEST(Confirm, FilesConfirmedInParallelKeepTheirOrder) {
  const std::string rules = std::string(KLINT_SOURCE_DIR) + "/tests/rules/";
  auto verdicts = [&](const std::string& jobs) {
    testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "-j", jobs,
                                       rules + "shared-memory-race/bad_neighbour_read.comp",
                                       rules + "uninitialized-shared-read/bad_missing_halo.comp",
                                       rules + "insufficient-barrier/bad_single_writer.comp",
                                       std::string(KLINT_SOURCE_DIR) + "/tests/clean/transpose.comp"},
                                      "", 120);
    EXPECT_EQ(run.exit_code, 1) << run.err;
    const nlohmann::json report = nlohmann::json::parse(run.out);
    std::vector<std::string> out;
    for (const nlohmann::json& finding : report["findings"]) {
      out.push_back(fmt::format("{}:{} {} {}", finding["location"]["file"].get<std::string>(),
                                finding["location"]["line"].get<uint32_t>(), finding["rule"].get<std::string>(),
                                finding.contains("confirmation") ? finding["confirmation"]["status"].get<std::string>()
                                                                 : "no verdict"));
    }
    return out;
  };
  const std::vector<std::string> one = verdicts("1");
  EXPECT_GE(one.size(), 3u);
  EXPECT_EQ(verdicts("4"), one);
}

class ConfirmRuns : public testing::ScratchCwdTest {};

// The race is on line 7; the kernel then loops long enough, on enough
// workgroups, to outlast the timeout even on lavapipe (tests/runner/kernels.h).
constexpr const char* kRaceThenEndless = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint v[]; };
shared uint tile[64];
void main() {
    tile[gl_LocalInvocationID.x] = gl_LocalInvocationID.x;
    uint x = tile[(gl_LocalInvocationID.x + 1) % 64];
    for (uint i = 0u; i < 65000u; i++) x = x * 1664525u + i;
    v[gl_GlobalInvocationID.x % 64] = x;
}
)";

TEST_F(ConfirmRuns, AKernelThatHangsIsNotRunnableAndKlintGoesOn) {
  write("endless.comp", kRaceThenEndless);
  write("klint.toml", "[[kernel]]\nfile = \"endless.comp\"\ngrid = [65535, 65535]\n");
  write("race.comp", kRaceThenEndless);  // the default grid: it ends
  // --timeout bounds every run: long enough for race.comp's runs on a loaded
  // machine (under ASan too), far too short for endless.comp's grid.
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--timeout", "5", "--format", "json", "--select",
                                     "shared-memory-race", "endless.comp", "race.comp"},
                                    "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 2u) << run.out;
  const nlohmann::json& endless = report["findings"][0]["confirmation"];
  EXPECT_EQ(endless["status"], "not runnable") << endless.dump();
  EXPECT_EQ(endless["summary"], "the run timed out after 5 s") << endless.dump();
  const nlohmann::json& race = report["findings"][1]["confirmation"];
  EXPECT_EQ(race["status"], "confirmed") << race.dump();
}

// On lavapipe a store past a workgroup array overwrites the driver's heap,
// and the plain kernel's run aborts (with this kernel it did, on the machine
// this was written on). The instrumented one clamps the index and shows it.
TEST_F(ConfirmRuns, AKernelThatCrashesTheDriverIsConfirmedFromItsInstrumentedRun) {
  if (!on_lavapipe()) GTEST_SKIP() << "needs subgroups narrower than 32, which lavapipe gives";
  write("crash.comp", R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float x[]; };
shared float partial[8];
void main() {
    if (subgroupElect()) partial[gl_SubgroupID] = x[gl_GlobalInvocationID.x];
    barrier();
    if (gl_LocalInvocationID.x == 0) x[0] = partial[0] + partial[7];
}
)");
  testing::KlintRun run = run_klint(
      {"--no-cache", "--confirm", "--format", "json", "--select", "subgroup-count-assumed", "crash.comp"}, "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 1u) << run.out;
  const nlohmann::json& c = report["findings"][0]["confirmation"];
  EXPECT_EQ(c["status"], "confirmed") << c.dump();
  EXPECT_NE(c["summary"].get<std::string>().find("index out of range"), std::string::npos) << c.dump();
}

// Shrinking: the workgroups halve while the overlap still shows (4 to 2; one
// workgroup has nothing to overlap with), then n halves down to the smallest
// that still reaches the second workgroup's first element (16). The
// reproducer replays the smallest setup.
TEST_F(ConfirmRuns, TheSetupThatShowsAFindingIsShrunkAndWrittenAsAReproducer) {
  write("stride.comp", R"(#version 450
layout(local_size_x = 16) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_WorkGroupSize.x) {
        x[i] = x[i] * 2.0;
    }
}
)");
  write("klint.toml", "[[kernel]]\nfile = \"stride.comp\"\nvariables = [\"n\"]\nmatrix = [[1024]]\ngrid = [4]\n"
                      "push-constants = { n = \"n\" }\nbuffers = { Data = \"n\" }\n");
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "--reproducers", "repro",
                                     "--select", "grid-stride-mismatch", "stride.comp"}, "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 1u) << run.out;
  const nlohmann::json& c = report["findings"][0]["confirmation"];
  ASSERT_EQ(c["status"], "confirmed") << c.dump();
  const std::vector<std::string> details = c["details"];
  ASSERT_GE(details.size(), 4u) << c.dump();
  EXPECT_NE(details[0].find(", shape n=32, grid 2,1,1, seed 1"), std::string::npos) << details[0];
  EXPECT_EQ(details[1], "shrunk from shape n=1024, grid 4,1,1");
  EXPECT_NE(details[2].find("klint run --shadow --shape n=32 --grid 2,1,1 --seed 1 stride.comp"), std::string::npos)
      << details[2];
  const uint32_t line = report["findings"][0]["location"]["line"];
  const std::string reproducer = "repro/stride-" + std::to_string(line) + "-grid-stride-mismatch.toml";
  EXPECT_EQ(details[3], "reproducer: " + reproducer);
  const std::string text = read(reproducer);
  EXPECT_NE(text.find("grid = [2, 1, 1]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("push-constants = { \"n\" = 32 }\n"), std::string::npos) << text;
  EXPECT_NE(text.find("buffers = { \"Data\" = 32 }\n"), std::string::npos) << text;

  testing::KlintRun replay = run_klint({"--no-cache", "--confirm", "--format", "json", "--config", reproducer,
                                        "--select", "grid-stride-mismatch", "stride.comp"}, "", 120);
  ASSERT_EQ(replay.exit_code, 1) << replay.err;
  nlohmann::json again = nlohmann::json::parse(replay.out);
  const nlohmann::json& r = again["findings"][0]["confirmation"];
  EXPECT_EQ(r["status"], "confirmed") << r.dump();
  EXPECT_NE(r["details"][0].get<std::string>().find(", grid 2,1,1, seed 1"), std::string::npos) << r.dump();
  EXPECT_NE(r["details"][1].get<std::string>().rfind("shrunk", 0), 0u) << r.dump();  // nothing left to shrink
}

// A workgroup size from a specialization constant shrinks after the grid:
// the race needs two invocations, so 64 halves down to 2. The replay and the
// reproducer carry the constant.
TEST_F(ConfirmRuns, AWorkgroupSizeThatASpecializationConstantSetsShrinksToo) {
  const std::string fixture =
      read(std::string(KLINT_SOURCE_DIR) + "/tests/rules/shared-memory-race/bad_spec_workgroup_neighbour.comp");
  write("race.comp", fixture);
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "--reproducers", "repro",
                                     "--select", "shared-memory-race", "race.comp"},
                                    "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 1u) << run.out;
  const nlohmann::json& c = report["findings"][0]["confirmation"];
  ASSERT_EQ(c["status"], "confirmed") << c.dump();
  const std::vector<std::string> details = c["details"];
  ASSERT_GE(details.size(), 4u) << c.dump();
  EXPECT_NE(details[0].find(", grid 1,1,1, workgroup 2,1,1, seed 1"), std::string::npos) << details[0];
  EXPECT_EQ(details[1], "shrunk from grid 2,1,1, workgroup 64,1,1");
  EXPECT_NE(details[2].find("klint run --shadow --grid 1,1,1 --seed 1 --specialization 0=2 race.comp"),
            std::string::npos)
      << details[2];
  const std::string reproducer = "repro/race-14-shared-memory-race.toml";
  EXPECT_EQ(details[3], "reproducer: " + reproducer);
  const std::string text = read(reproducer);
  EXPECT_NE(text.find("specialization = { \"0\" = 2 }\n"), std::string::npos) << text;

  // klint run replays it: two invocations, one race.
  testing::KlintRun replay =
      run_klint({"run", "--shadow", "--grid", "1,1,1", "--seed", "1", "--specialization", "0=2", "race.comp"}, "", 60);
  EXPECT_EQ(replay.exit_code, 1) << replay.err;  // a shadow finding
  EXPECT_NE(replay.out.find("race.comp: entry point main, workgroup 2,1,1, grid 1,1,1, seed 1\n"), std::string::npos)
      << replay.out;
  EXPECT_NE(replay.out.find("shadow: 6 accesses logged, 1 finding\n"), std::string::npos) << replay.out;

  // So does the reproducer, at the workgroup it names: nothing left to shrink.
  testing::KlintRun again = run_klint({"--no-cache", "--confirm", "--format", "json", "--config", reproducer,
                                       "--select", "shared-memory-race", "race.comp"},
                                      "", 120);
  ASSERT_EQ(again.exit_code, 1) << again.err;
  const nlohmann::json replayed = nlohmann::json::parse(again.out);
  const nlohmann::json& r = replayed["findings"][0]["confirmation"];
  EXPECT_EQ(r["status"], "confirmed") << r.dump();
  EXPECT_NE(r["details"][0].get<std::string>().find(", grid 1,1,1, seed 1"), std::string::npos) << r.dump();
  EXPECT_NE(r["details"][1].get<std::string>().find("--specialization 0=2 race.comp"), std::string::npos) << r.dump();
}

// What the default workgroup size does not show is looked for at half and
// twice that size, when a specialization constant sets it; a verdict of not
// reproduced lists every setup tried.
TEST_F(ConfirmRuns, ASpecializedWorkgroupSizeIsVariedForWhatTheDefaultDoesNotShow) {
  write("lane.comp", R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK = 64;
layout(binding = 0) buffer Data { uint data[]; };
void main() {
    if (gl_SubgroupInvocationID == 31) data[gl_WorkGroupID.x] = 1u;
}
)");
  testing::KlintRun run = run_klint(
      {"--no-cache", "--confirm", "--format", "json", "--select", "subgroup-size-assumed", "lane.comp"}, "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 1u) << run.out;
  const nlohmann::json& c = report["findings"][0]["confirmation"];
  // Lane 31 exists in no subgroup narrower than 32: no run writes anything.
  const std::string status = c["status"];
  const std::string summary = c["summary"];
  if (on_lavapipe()) {
    EXPECT_EQ(status, "not reproduced") << c.dump();
    EXPECT_EQ(summary, "no difference between subgroup sizes and nothing on its lines in any of 3 setups");
  }
  std::vector<std::string> tried;
  for (const std::string detail : c["details"]) {
    if (detail.starts_with("tried: ")) tried.push_back(detail.substr(0, detail.find(" at ")));
  }
  if (status == "not reproduced") {
    EXPECT_EQ(tried, (std::vector<std::string>{"tried: grid 2,1,1, workgroup 64,1,1",
                                               "tried: grid 2,1,1, workgroup 32,1,1",
                                               "tried: grid 2,1,1, workgroup 128,1,1"}))
        << c.dump();
  }
}

}  // namespace
}  // namespace klint
