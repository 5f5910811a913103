// klint --confirm on the fixtures of the rules a run can show, one run per
// rule folder: each finding's verdict as the fixture writes it after the rule
// id, closed-world (the fixtures whose loops run to a push constant take their
// shapes from the klint.toml beside them). Then
// the clean kernels, which must get no verdict at all, and kernels that hang
// or that the instrumented run cannot run.
#include <gtest/gtest.h>

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <tuple>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "rules/rule.h"
#include "tests/runner/kernels.h"
#include "tests/support/fixture.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint {
namespace {

using testing::run_klint;

// The rules a run can show, as their metadata declares, and so the rule
// folders whose fixtures carry verdicts.
std::vector<std::string> confirmable_rules() {
  std::vector<std::string> rules;
  for (const RuleInfo* rule : RuleRegistry::infos()) {
    if (RuleRegistry::describe(*rule).run_evidence != RunEvidence::None) rules.emplace_back(rule->id);
  }
  return rules;
}

// The verdicts are lavapipe's, where three subgroup sizes can be tried: a GPU
// runs the one it has, and on NVIDIA's 32 the kernels that assume 32 are right.
bool on_lavapipe() {
  static const bool lavapipe = runner::testing::default_device_name().find("llvmpipe") != std::string::npos;
  return lavapipe;
}

// The arguments of a fixture's `// fixture-options:` lines.
std::vector<std::string> fixture_options(const std::string& text) {
  static const std::regex line(R"(//\s*fixture-options:(.*))");
  std::vector<std::string> options;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it) {
    std::istringstream words((*it)[1].str());
    for (std::string word; words >> word;) options.push_back(word);
  }
  return options;
}

using Seen = std::multiset<std::tuple<std::string, uint32_t, std::string>>;  // file, line, verdict

class Confirm : public ::testing::TestWithParam<std::string> {};

// One run of klint --confirm over the rule's fixture folder; each finding's
// verdict, as `// expect: RULE VERDICT` in the fixtures names it,
// closed-world: a finding of the rule in a fixture needs its verdict written.
TEST_P(Confirm, EachFindingGetsTheVerdictItsFixtureNames) {
  if (!on_lavapipe()) GTEST_SKIP() << "the fixtures hold lavapipe's verdicts";
  const std::string rule = GetParam();
  const std::string folder = std::string(KLINT_SOURCE_DIR) + "/tests/rules/" + rule;
  Seen expected;
  // One run per set of fixture options (--target=...), each over its files.
  std::map<std::vector<std::string>, std::vector<std::string>> runs;
  for (const std::string& path : testing::fixture_files(folder)) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    testing::Fixture fixture = testing::parse_fixture(path, text.str());
    ASSERT_TRUE(fixture.errors.empty()) << path << ": " << fixture.errors.front();
    const std::string name = std::filesystem::path(path).filename().string();
    for (const testing::Expectation& e : fixture.expectations) {
      if (e.rule != rule) continue;
      EXPECT_FALSE(e.verdict.empty()) << path << ":" << e.line << ": a finding of " << rule
                                      << " needs its --confirm verdict after the rule id";
      expected.insert({name, e.line, e.verdict});
    }
    runs[fixture_options(text.str())].push_back(path);
  }
  std::vector<nlohmann::json> findings;
  for (const auto& [options, paths] : runs) {
    std::vector<std::string> args{"--no-cache", "--confirm", "--format", "json", "--select", rule};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), paths.begin(), paths.end());
    testing::KlintRun run = run_klint(args, "", 600);
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;
    const nlohmann::json report = nlohmann::json::parse(run.out);
    for (const nlohmann::json& finding : report["findings"]) findings.push_back(finding);
  }
  Seen seen;
  for (const nlohmann::json& finding : findings) {
    const nlohmann::json& c = finding["confirmation"];
    ASSERT_TRUE(c.is_object()) << finding.dump();
    std::string status = c["status"];
    std::replace(status.begin(), status.end(), ' ', '-');
    const std::string file = std::filesystem::path(finding["location"]["file"].get<std::string>()).filename();
    seen.insert({file, finding["location"]["line"].get<uint32_t>(), status});
    EXPECT_FALSE(c["summary"].get<std::string>().empty());
    EXPECT_FALSE(c["details"].empty());
    if (status == "confirmed") {
      const std::string summary = c["summary"];
      // A witness names the run and either the accesses or the outputs that
      // differ; a limit's, the device whose own limit the kernel exceeds.
      const RunEvidence evidence = RuleRegistry::describe(*RuleRegistry::find(rule)).run_evidence;
      const bool limit = evidence == RunEvidence::DeviceLimit;
      EXPECT_TRUE(limit                                          ? summary.starts_with("on device:")
                  : evidence == RunEvidence::PipelineStatistics ? summary.starts_with("on ")
                        : summary.starts_with("at subgroup size ") ||
                              summary.starts_with("at the device's subgroup size: ") ||
                              summary.starts_with("the output differs"))
          << summary;
      if (limit) {
        EXPECT_NE(c["details"].dump().find("own limits (VkPhysicalDeviceLimits)"), std::string::npos);
      }
      if (summary.starts_with("at ")) {
        EXPECT_FALSE(c["witness"].empty()) << summary;
      }
    }
  }
  EXPECT_EQ(seen, expected);
}

INSTANTIATE_TEST_SUITE_P(Rules, Confirm, ::testing::ValuesIn(confirmable_rules()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// Verdicts are written only for the rules a run can show.
TEST(Confirm, OnlyConfirmableRulesCarryVerdicts) {
  for (const std::string& path : testing::fixture_files(std::string(KLINT_SOURCE_DIR) + "/tests/rules")) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    for (const testing::Expectation& e : testing::parse_fixture(path, text.str()).expectations) {
      if (e.verdict.empty()) continue;
      const std::vector<std::string> confirmable = confirmable_rules();
      EXPECT_NE(std::find(confirmable.begin(), confirmable.end(), e.rule), confirmable.end())
          << path << ":" << e.line << ": no run can show " << e.rule;
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

// A barrier some invocations skip: the witness counts who arrived how often
// and names the direction the finding's branch took for each.
TEST(Confirm, ASkippedBarrierNamesWhoArrivedAndWhereTheOthersTurnedAway) {
  if (!on_lavapipe()) GTEST_SKIP() << "the witness named is lavapipe's";
  const std::string file =
      std::string(KLINT_SOURCE_DIR) + "/tests/rules/barrier-in-divergent-control-flow/bad_branch_on_local_id.comp";
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "--select",
                                     "barrier-in-divergent-control-flow", file},
                                    "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 2u) << run.out;
  const nlohmann::json& c = report["findings"][0]["confirmation"];
  EXPECT_EQ(c["status"], "confirmed") << c.dump();
  EXPECT_EQ(c["summary"], fmt::format("at subgroup size 4: skipped barrier at {0}:10 in workgroup 0: invocation 0 "
                                      "arrives once, invocation 16 never (invocations 16..63 arrive fewer times); at "
                                      "{0}:9 the condition held for invocation 0 and not for invocation 16",
                                      file))
      << c.dump();
  std::vector<std::pair<uint32_t, std::string>> witness;
  for (const nlohmann::json& note : c["witness"]) witness.emplace_back(note["location"]["line"], note["message"]);
  const std::vector<std::pair<uint32_t, std::string>> expected{
      {10, "in workgroup 0: invocation 0 arrives once, invocation 16 never"},
      {9, "the condition held for invocation 0 and not for invocation 16 (workgroup 0)"}};
  EXPECT_EQ(witness, expected) << c.dump();
  // The second barrier, under `i % 2 == 0`: the odd invocations never come.
  EXPECT_NE(report["findings"][1]["confirmation"]["summary"].get<std::string>().find(
                "invocation 1 never (invocations 1, 3, 5, "),
            std::string::npos)
      << report["findings"][1].dump();
}

// A barrier no invocation reaches with the inputs the run had: the verdict
// says the run shows nothing, not that the finding is false.
class ConfirmScratch : public testing::ScratchDirTest {};

TEST_F(ConfirmScratch, ABarrierTheRunNeverReachesIsInconclusive) {
  const std::string file = write("flagged.comp", R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint flags[]; float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    if (flags[0] == 12345u) {
        if (tid >= 32) return;
        tile[tid] = x[tid];
        barrier();
        x[tid] = tile[31 - tid];
    }
}
)").string();
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "--select",
                                     "barrier-in-divergent-control-flow", file},
                                    "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 1u) << run.out;
  const nlohmann::json& c = report["findings"][0]["confirmation"];
  EXPECT_EQ(c["status"], "inconclusive") << c.dump();
  EXPECT_TRUE(c["summary"].get<std::string>().starts_with("no invocation reached the barrier, ")) << c.dump();
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

// The verdict on the one finding of `rule` that `klint --confirm` makes in `file`.
nlohmann::json only_confirmation(const std::string& file, const std::string& rule) {
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "--select", rule, file}, "", 120);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const nlohmann::json report = nlohmann::json::parse(run.out);
  if (report["findings"].size() != 1) {
    ADD_FAILURE() << "not one finding: " << run.out;
    return nlohmann::json::object();
  }
  return report["findings"][0]["confirmation"];
}

// The setups a verdict says it tried, without the subgroup sizes they ran at.
std::vector<std::string> tried_setups(const nlohmann::json& c) {
  std::vector<std::string> tried;
  for (const std::string detail : c.value("details", nlohmann::json::array())) {
    if (detail.starts_with("tried: ")) tried.push_back(detail.substr(7, detail.find(" at ") - 7));
  }
  return tried;
}

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
  // With the klint.toml of the kernel's manifest, wherever klint run is run.
  EXPECT_NE(details[2].find("klint run --shadow --shape n=32 --grid 2,1,1 --seed 1 --config klint.toml stride.comp"),
            std::string::npos)
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

// A workgroup size from a specialization constant is kept where the finding
// showed while the grid shrinks: each size is another compile. The table copy
// is right at its default of 64 and runs past the table's end at 96, the
// size tried first for an index past an array's end; the replay and the
// reproducer carry that size.
TEST_F(ConfirmRuns, TheWorkgroupSizeThatShowedAFindingIsKeptAndReplayed) {
  const std::string fixture =
      read(std::string(KLINT_SOURCE_DIR) + "/tests/rules/grid-stride-tail/bad_table_copy_spec_size.comp");
  write("table.comp", fixture);
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "--reproducers", "repro",
                                     "--select", "grid-stride-tail", "table.comp"},
                                    "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 1u) << run.out;
  const nlohmann::json& c = report["findings"][0]["confirmation"];
  ASSERT_EQ(c["status"], "confirmed") << c.dump();
  EXPECT_EQ(c["summary"], "at subgroup size 4: index out of range in workgroup 0: invocation 64 writes an index at or "
                          "past 256, the length of 'table' at table.comp:20");
  const std::vector<std::string> details = c["details"];
  ASSERT_GE(details.size(), 4u) << c.dump();
  EXPECT_NE(details[0].find(", grid 1,1,1, workgroup 96,1,1, seed 1"), std::string::npos) << details[0];
  EXPECT_EQ(details[1], "shrunk from grid 2,1,1, workgroup 96,1,1");
  EXPECT_NE(details[2].find("klint run --shadow --grid 1,1,1 --seed 1 --specialization 0=96 table.comp"),
            std::string::npos)
      << details[2];
  const std::string reproducer = "repro/table-20-grid-stride-tail.toml";
  EXPECT_EQ(details[3], "reproducer: " + reproducer);
  const std::string text = read(reproducer);
  EXPECT_NE(text.find("specialization = { \"0\" = 96 }\n"), std::string::npos) << text;

  // klint run replays it: invocations 64 to 95 write past the table.
  testing::KlintRun replay =
      run_klint({"run", "--shadow", "--grid", "1,1,1", "--seed", "1", "--specialization", "0=96", "table.comp"}, "", 60);
  EXPECT_EQ(replay.exit_code, 1) << replay.err;  // a shadow finding
  EXPECT_NE(replay.out.find("table.comp: entry point main, workgroup 96,1,1, grid 1,1,1, seed 1\n"), std::string::npos)
      << replay.out;
  EXPECT_NE(replay.out.find("index out of range in workgroup 0: invocation 64 writes an index at or past 256"),
            std::string::npos)
      << replay.out;

  // So does the reproducer, at the workgroup it names: nothing left to shrink.
  testing::KlintRun again = run_klint({"--no-cache", "--confirm", "--format", "json", "--config", reproducer,
                                       "--select", "grid-stride-tail", "table.comp"},
                                      "", 120);
  ASSERT_EQ(again.exit_code, 1) << again.err;
  const nlohmann::json replayed = nlohmann::json::parse(again.out);
  const nlohmann::json& r = replayed["findings"][0]["confirmation"];
  EXPECT_EQ(r["status"], "confirmed") << r.dump();
  EXPECT_NE(r["details"][0].get<std::string>().find(", grid 1,1,1, seed 1"), std::string::npos) << r.dump();
  EXPECT_NE(r["details"][1].get<std::string>().find("--specialization 0=96 --config " + reproducer + " table.comp"),
            std::string::npos)
      << r.dump();
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
  const nlohmann::json c = only_confirmation("lane.comp", "subgroup-size-assumed");
  // Lane 31 exists in no subgroup narrower than 32: no run reaches the store,
  // so the runs say nothing of the finding.
  const std::string status = c["status"];
  const std::string summary = c["summary"];
  if (on_lavapipe()) {
    EXPECT_EQ(status, "inconclusive") << c.dump();
    EXPECT_EQ(summary, "the runs never reached line 7 or the others it is about, in any of 3 setups");
  }
  if (status == "inconclusive") {
    EXPECT_EQ(tried_setups(c), (std::vector<std::string>{"grid 2,1,1, workgroup 64,1,1", "grid 2,1,1, workgroup 32,1,1",
                                                         "grid 2,1,1, workgroup 128,1,1"}))
        << c.dump();
  }
}

// Every shape runs at the default workgroup size before a varied size: each
// size is another compile of the kernel, each shape only other push
// constants. The tried setups come in that order.
TEST_F(ConfirmRuns, ShapesRunAtTheDefaultWorkgroupBeforeAnyVariedSize) {
  write("lane.comp", R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK = 64;
layout(push_constant) uniform Push { uint n; } p;
layout(binding = 0) buffer Data { uint data[]; };
void main() {
    if (gl_GlobalInvocationID.x >= p.n) return;
    if (gl_SubgroupInvocationID == 31) data[gl_WorkGroupID.x] = 1u;
}
)");
  const nlohmann::json c = only_confirmation("lane.comp", "subgroup-size-assumed");
  if (!on_lavapipe()) GTEST_SKIP() << "lavapipe's subgroups are narrower than 32: " << c.dump();
  ASSERT_EQ(c["status"], "inconclusive") << c.dump();
  const std::vector<std::string> tried = tried_setups(c);
  ASSERT_GE(tried.size(), 4u) << c.dump();
  // The shapes at 64, then the first shape at 32 and at 128, last.
  const size_t shapes = tried.size() - 2;
  for (size_t i = 0; i < shapes; ++i) EXPECT_NE(tried[i].find(", workgroup 64,1,1"), std::string::npos) << tried[i];
  EXPECT_NE(tried[shapes].find(", workgroup 32,1,1"), std::string::npos) << tried[shapes];
  EXPECT_NE(tried[shapes + 1].find(", workgroup 128,1,1"), std::string::npos) << tried[shapes + 1];
  EXPECT_EQ(tried[shapes].substr(0, tried[shapes].find(", grid")), tried[0].substr(0, tried[0].find(", grid")));
}

// Two findings whose runs must show a race: shared-memory-race on 'a', in
// every workgroup, and insufficient-barrier on 'b', only in workgroup 5,
// which a confirming run's grid of two never starts.
constexpr const char* kTwoRaces = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint x[]; };
shared uint a[64];
shared uint b[64];
void main() {
    uint i = gl_LocalInvocationID.x;
    a[i] = x[i];
    x[i] = a[(i + 1) % 64];
    if (gl_WorkGroupID.x == 5) {
        b[i] = x[i];
        memoryBarrierShared();
        x[i] = b[(i + 1) % 64];
    }
}
)";

// The words without their line info: no OpLine, OpString or OpSource.
std::vector<uint32_t> without_lines(const std::vector<uint32_t>& words) {
  constexpr std::array<uint32_t, 7> kDebug{2, 3, 4, 7, 8, 317, 330};  // OpSource*, OpString, OpLine, OpNoLine, OpModuleProcessed
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0) break;
    if (std::find(kDebug.begin(), kDebug.end(), words[at] & 0xFFFFu) == kDebug.end()) {
      out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(at),
                 words.begin() + static_cast<std::ptrdiff_t>(at + count));
    }
    at += count;
  }
  return out;
}

// Without line info every finding's location is the file alone; the race
// the run shows on 'a' must confirm the finding about 'a' and not the one
// about 'b', which (file, line) would have joined to it.
TEST_F(ConfirmRuns, EvidenceJoinsAFindingByInstructionWithoutLineInfo) {
  SourceCache sources;
  CompiledShader compiled = compile("two.comp", kTwoRaces, Language::Glsl, CompileOptions{}, sources);
  ASSERT_TRUE(compiled.ok);
  const std::vector<uint32_t> words = without_lines(compiled.spirv);
  std::ofstream("two.spv", std::ios::binary)
      .write(reinterpret_cast<const char*>(words.data()), static_cast<std::streamsize>(words.size() * 4));
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "--select",
                                     "shared-memory-race,insufficient-barrier", "two.spv"},
                                    "", 300);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 2u) << run.out;
  std::map<std::string, std::string> status;  // rule -> verdict
  for (const nlohmann::json& finding : report["findings"]) {
    EXPECT_EQ(finding["location"]["line"], 0) << "the module has no line info: " << finding.dump();
    status[finding["rule"]] = finding["confirmation"]["status"];
  }
  EXPECT_EQ(status["shared-memory-race"], "confirmed") << run.out;
  // Workgroup 5 never runs: the run says nothing of 'b'.
  EXPECT_EQ(status["insufficient-barrier"], "inconclusive") << run.out;
}

// A half-precision accumulator: the copy that sums in 32 bits is compared
// where the kernel writes, an image here; a loop that ran once, or never,
// shows nothing and says so.
TEST_F(ConfirmRuns, AHalfAccumulatorIsComparedWithACopyThatSumsIn32Bits) {
  if (!on_lavapipe()) GTEST_SKIP() << "the values named are lavapipe's";
  auto kernel = [](const char* bound) {
    return fmt::format(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer Blobs {{ f16vec4 blobs[]; }};
layout(rgba16f, set = 0, binding = 1) writeonly uniform image2D picture;
layout(push_constant) uniform Registers {{ uint count; uint16_t small; }};
void main() {{
    f16vec4 sum = f16vec4(0.0hf);
    for (uint i = 0; i < {}; i++) sum += blobs[i] * blobs[i + 1u];
    imageStore(picture, ivec2(gl_GlobalInvocationID.xy), sum);
}}
)",
                       bound);
  };
  std::ofstream("image.comp") << kernel("count");
  std::ofstream("once.comp") << kernel("min(count, 1u)");
  std::ofstream("small.comp") << kernel("uint(small)");
  std::ofstream("never.comp") << kernel("uint(blobs[0].x > 2.0hf)");
  const nlohmann::json image = only_confirmation("image.comp", "half-precision-accumulator");
  EXPECT_EQ(image["status"], "confirmed") << image.dump();
  EXPECT_TRUE(image["summary"].get<std::string>().starts_with(
      "the output differs from a copy that sums 'sum' in 32 bits: 'picture' half 0 is "))
      << image.dump();
  const nlohmann::json once = only_confirmation("once.comp", "half-precision-accumulator");
  EXPECT_EQ(once["status"], "inconclusive") << once.dump();
  EXPECT_TRUE(once["summary"].get<std::string>().starts_with(
      "no invocation ran the loop that carries 'sum' more than once, in any of "))
      << once.dump();
  // A 16-bit count is a size too.
  EXPECT_EQ(only_confirmation("small.comp", "half-precision-accumulator")["status"], "confirmed");
  // A bound from data that no value of the run passes: the loop only tests
  // its condition.
  const nlohmann::json never = only_confirmation("never.comp", "half-precision-accumulator");
  EXPECT_EQ(never["status"], "inconclusive") << never.dump();
  EXPECT_EQ(never["summary"], "no invocation ran the loop that carries 'sum' more than once, with grid 2,1,1 at "
                              "subgroup size 4")
      << never.dump();
}

// A finding of a rule that no run can show gets a verdict that says so, in
// one line of the text and as "no run" in JSON; the compiler's findings are
// about the file and get none.
TEST_F(ConfirmRuns, ARuleNoRunCanShowSaysSoInOneLine) {
  const std::string rules = std::string(KLINT_SOURCE_DIR) + "/tests/rules/";
  const std::string redundant = rules + "redundant-barrier/bad_back_to_back.comp";
  std::ofstream("broken.comp") << "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { undeclared = 1; }\n";
  testing::KlintRun json = run_klint({"--no-cache", "--confirm", "--format", "json", redundant, "broken.comp"}, "", 300);
  ASSERT_EQ(json.exit_code, 1) << json.err;
  const nlohmann::json report = nlohmann::json::parse(json.out);
  size_t no_run = 0;
  for (const nlohmann::json& finding : report["findings"]) {
    if (finding["rule"] == "compile-error") {
      EXPECT_FALSE(finding.contains("confirmation")) << finding.dump();
      continue;
    }
    ASSERT_TRUE(finding.contains("confirmation")) << finding.dump();
    if (finding["rule"] == "redundant-barrier") {
      EXPECT_EQ(finding["confirmation"]["status"], "no run") << finding.dump();
      EXPECT_EQ(finding["confirmation"]["summary"], "no run can show this yet") << finding.dump();
      ++no_run;
    }
  }
  EXPECT_GE(no_run, 1u) << json.out;
  testing::KlintRun text = run_klint({"--no-cache", "--confirm", "--color=never", redundant}, "", 300);
  EXPECT_NE(text.out.find("\n  no run can show this yet\n"), std::string::npos) << text.out;
}

// A subgroup operation after a branch that no run split inside a subgroup
// shows nothing about it: the verdict says whether the branch split the
// workgroup (between subgroups: a wider subgroup would hold both sides) or
// went one way for everyone (the inputs never took it), and a branch that
// did split a subgroup confirms.
TEST_F(ConfirmRuns, APartialGroupVerdictSaysHowTheBranchSplitTheInvocations) {
  if (!on_lavapipe()) GTEST_SKIP() << "the subgroup sizes named are lavapipe's";
  // Rows of 16 invocations; the shuffle's group, 2 or 32 lanes, is split
  // where the condition differs across it.
  auto kernel = [](const std::string& condition, uint32_t mask) {
    return fmt::format(R"(#version 450
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 16, local_size_y = 2) in;
layout(binding = 0) buffer Data {{ float x[]; }};
layout(push_constant) uniform P {{ uint rows; }};
void main() {{
    uint i = gl_LocalInvocationIndex;
    if ({}) return;
    x[i] = subgroupShuffleXor(x[i], {}u);
}}
)",
                       condition, mask);
  };
  const std::string rule = "subgroup-operation-in-divergent-control-flow";
  write("rows.comp", kernel("gl_WorkGroupID.x * 2u + gl_LocalInvocationID.y >= rows", 16));
  const nlohmann::json rows = only_confirmation("rows.comp", rule);
  EXPECT_EQ(rows["status"], "inconclusive") << rows.dump();
  EXPECT_TRUE(rows["summary"].get<std::string>().starts_with(
      "the condition at rows.comp:8 went the same way in every invocation of a subgroup of 4, 8 and 16 lanes, in "
      "any of "))
      << rows.dump();
  EXPECT_TRUE(rows["summary"].get<std::string>().ends_with("; a wider subgroup may hold invocations that go both ways"))
      << rows.dump();
  write("never.comp", kernel("x[i] < -2.0", 1));
  const nlohmann::json never = only_confirmation("never.comp", rule);
  EXPECT_EQ(never["status"], "inconclusive") << never.dump();
  EXPECT_TRUE(never["summary"].get<std::string>().starts_with(
      "the condition at never.comp:8 went the same way in every invocation of a workgroup, "))
      << never.dump();
  write("half.comp", kernel("x[i] < 0.0", 1));
  EXPECT_EQ(only_confirmation("half.comp", rule)["status"], "confirmed");
}

// The storage accesses the race's evidence needs fill the log (a loop stores
// 4096 times per invocation); once the race is confirmed, the runs log only
// what the subgroup operation's finding needs, and its verdict says what the
// branch did rather than that the log filled up.
TEST_F(ConfirmRuns, OnceAFindingIsSettledTheRunsLogOnlyWhatTheOthersNeed) {
  write("two.comp", R"(#version 450
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 16, local_size_z = 4) in;
layout(binding = 0) buffer Data { float res[]; };
void main() {
    uint row = gl_WorkGroupID.x * 16u + gl_LocalInvocationID.x;
    float y = res[row * 4u + gl_LocalInvocationID.z];
    res[row + 4096u] = y;
    for (uint k = 0u; k < 4096u; ++k) res[gl_LocalInvocationIndex + 8192u] = y + float(k);
    if (y < -2.0) return;
    res[row * 4u + gl_LocalInvocationID.z + 16384u] = subgroupShuffleXor(y, 1u);
}
)");
  testing::KlintRun run =
      run_klint({"--no-cache", "--confirm", "--format", "json", "--select",
                 "global-memory-race,subgroup-operation-in-divergent-control-flow", "two.comp"},
                "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 2u) << run.out;
  EXPECT_EQ(report["findings"][0]["confirmation"]["status"], "confirmed") << run.out;
  const nlohmann::json& c = report["findings"][1]["confirmation"];
  EXPECT_EQ(c["status"], "inconclusive") << c.dump();
  EXPECT_TRUE(c["summary"].get<std::string>().starts_with(
      "the condition at two.comp:10 went the same way in every invocation of a workgroup, "))
      << c.dump();
  // The same with workgroup memory: once the race on the tile is confirmed,
  // the barrier's runs leave the 4096 stores to the scratch row out.
  write("three.comp", R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float res[]; };
shared float tile[64];
shared float scratch[64];
void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i] = res[gl_GlobalInvocationID.x];
    float y = tile[(i + 1u) % 64u];
    for (uint k = 0u; k < 4096u; ++k) scratch[i] = y + float(k);
    if (y < -2.0) return;
    barrier();
    res[gl_GlobalInvocationID.x] = y + scratch[i];
}
)");
  run = run_klint({"--no-cache", "--confirm", "--format", "json", "--select",
                   "shared-memory-race,barrier-in-divergent-control-flow", "three.comp"},
                  "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const nlohmann::json shared = nlohmann::json::parse(run.out);
  ASSERT_EQ(shared["findings"].size(), 2u) << run.out;
  EXPECT_EQ(shared["findings"][0]["confirmation"]["status"], "confirmed") << run.out;
  const nlohmann::json& barrier = shared["findings"][1]["confirmation"];
  EXPECT_EQ(barrier["status"], "inconclusive") << barrier.dump();
  EXPECT_TRUE(barrier["summary"].get<std::string>().starts_with(
      "the condition at three.comp:11 went the same way in every invocation of a workgroup, "))
      << barrier.dump();
}

}  // namespace
}  // namespace klint
