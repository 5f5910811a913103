// --format sarif (SARIF 2.1.0 for GitHub code scanning) on hand-made findings,
// and --output through the binary. tools/sarif-validate checks the logs of
// every fixture against Microsoft's SARIF multitool.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "driver/output/sarif.h"
#include "driver/output/sarif_tool.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const RuleInfo& rule(std::string_view id) {
  const RuleInfo* found = RuleRegistry::find(id);
  EXPECT_NE(found, nullptr) << id;
  return *found;
}

Finding finding(std::string_view rule_id, std::string file, uint32_t line, std::string message) {
  Finding diagnostic;
  diagnostic.rule = &rule(rule_id);
  diagnostic.severity = diagnostic.rule->default_severity;
  diagnostic.message = std::move(message);
  diagnostic.location.file = std::move(file);
  diagnostic.location.line = line;
  return diagnostic;
}

// A run below /repo with every rule enabled; files live only in `sources`.
class SarifWriter : public ::testing::Test {
 protected:
  SarifWriter() {
    run_.rules = rules_that_run({});
    run_.root = "/repo";
  }
  json log() {
    std::ostringstream out;
    print_sarif(out, run_, sources_);
    return json::parse(out.str());
  }
  json results() { return log()["runs"][0]["results"]; }

  SarifRun run_;
  SourceCache sources_;
};

TEST_F(SarifWriter, DescribesEveryRuleThatRanAndResultsPointIntoThem) {
  RuleSelection selection;
  selection.ignore.push_back(&rule("redundant-barrier"));
  run_.rules = rules_that_run(selection);
  run_.diagnostics = {finding("shared-memory-race", "/repo/a.comp", 3, "race"),
                      finding("manual-subgroup-reduction", "/repo/a.comp", 5, "tree")};
  json document = log();
  EXPECT_EQ(document["version"], "2.1.0");
  const json& driver = document["runs"][0]["tool"]["driver"];
  EXPECT_EQ(driver["name"], "klint");
  EXPECT_EQ(driver["version"], KLINT_VERSION);
  EXPECT_EQ(driver["semanticVersion"], KLINT_VERSION);
  // The checkout's README for a build from a checkout, a web page for a published one.
  const std::string home = driver["informationUri"];
  EXPECT_TRUE(home.starts_with("file://") || home.starts_with("https://")) << home;

  std::vector<std::string> ids;
  for (const json& descriptor : driver["rules"]) ids.push_back(descriptor["id"]);
  std::vector<std::string> expected;
  for (const RuleInfo* info : RuleRegistry::infos()) {
    if (info->id != "redundant-barrier") expected.emplace_back(info->id);
  }
  EXPECT_EQ(ids, expected);
  EXPECT_NE(std::find(ids.begin(), ids.end(), "compile-error"), ids.end());

  const json& found = document["runs"][0]["results"];
  ASSERT_EQ(found.size(), 2u);
  for (const json& result : found) {
    EXPECT_EQ(driver["rules"][result["ruleIndex"].get<size_t>()]["id"], result["ruleId"]);
  }
  EXPECT_EQ(found[0]["ruleId"], "shared-memory-race");
  EXPECT_EQ(found[0]["level"], "error");
  EXPECT_EQ(found[1]["level"], "note");
}

TEST_F(SarifWriter, RuleCarriesItsDocumentationAndGithubProperties) {
  run_.rules = {&rule("shared-memory-race"), &rule("manual-subgroup-reduction")};
  const json rules = log()["runs"][0]["tool"]["driver"]["rules"];
  const json& race = rules[0];
  EXPECT_EQ(race["name"], "SharedMemoryRace");
  EXPECT_EQ(race["shortDescription"]["text"],
            "two invocations access one workgroup-memory element, at least one writing, with no barrier between.");
  const std::string full = race["fullDescription"]["text"];
  EXPECT_TRUE(full.starts_with("Two accesses to the same element of a shared (groupshared, Workgroup) variable by "
                               "different invocations"))
      << full;
  EXPECT_EQ(full.find('`'), std::string::npos);
  EXPECT_EQ(full.find("Why it matters"), std::string::npos) << "one section only";
  EXPECT_NE(race["help"]["markdown"].get<std::string>().find("## What it finds\n"), std::string::npos);
  EXPECT_NE(race["help"]["text"].get<std::string>().find("Why it matters"), std::string::npos);
  EXPECT_TRUE(race["helpUri"].get<std::string>().ends_with("/shared-memory-race.md")) << race["helpUri"];
  EXPECT_EQ(race["defaultConfiguration"]["level"], "error");
  EXPECT_EQ(race["properties"]["tags"], json({"correctness", "gpu", "vulkan"}));
  EXPECT_EQ(race["properties"]["precision"], "high");
  EXPECT_EQ(race["properties"]["problem.severity"], "error");

  const json& reduction = rules[1];
  EXPECT_EQ(reduction["name"], "ManualSubgroupReduction");
  EXPECT_EQ(reduction["defaultConfiguration"]["level"], "note");
  EXPECT_EQ(reduction["properties"]["problem.severity"], "recommendation");
  EXPECT_EQ(reduction["properties"]["precision"], "medium");
  EXPECT_EQ(reduction["properties"]["tags"][0], "performance");
}

TEST_F(SarifWriter, AFindingOfAnUnlistedRuleStillGetsItsDescriptor) {
  run_.rules = {&rule("shared-memory-race")};
  run_.diagnostics = {finding("compile-error", "/repo/a.comp", 1, "syntax error")};
  json document = log();
  const json& result = document["runs"][0]["results"][0];
  EXPECT_EQ(result["ruleIndex"], 1);
  EXPECT_EQ(document["runs"][0]["tool"]["driver"]["rules"][1]["id"], "compile-error");
}

TEST_F(SarifWriter, PathsBelowTheRootAreRelativeToSrcRoot) {
  run_.diagnostics = {finding("shared-memory-race", "/repo/shaders/my kernel.comp", 1, "inside"),
                      finding("shared-memory-race", "/elsewhere/b.comp", 1, "outside"),
                      finding("shared-memory-race", "/repo/../repository/c.comp", 1, "a sibling, not inside")};
  json document = log();
  EXPECT_EQ(document["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file:///repo/");
  const json& found = document["runs"][0]["results"];
  ASSERT_EQ(found.size(), 3u);
  auto artifact = [&](size_t i) { return found[i]["locations"][0]["physicalLocation"]["artifactLocation"]; };
  // In diagnostic_less order: by the path as given.
  EXPECT_EQ(artifact(0), json({{"uri", "file:///elsewhere/b.comp"}}));
  EXPECT_EQ(artifact(1), json({{"uri", "file:///repository/c.comp"}}));
  EXPECT_EQ(artifact(2), json({{"uri", "shaders/my%20kernel.comp"}, {"uriBaseId", "%SRCROOT%"}}));
}

TEST_F(SarifWriter, RegionMarksTheColumnsTheTokenOrTheWholeLine) {
  sources_.add("/repo/a.comp", "void main() {\n    barrier();\n  float \xc3\xa9 = tile[i];\n}\n");
  Finding by_token = finding("redundant-barrier", "/repo/a.comp", 2, "token");
  by_token.location.token = "barrier";
  Finding by_column = finding("redundant-barrier", "/repo/a.comp", 2, "columns");
  by_column.location.column = 5;
  by_column.location.end_column = 12;
  Finding after_utf8 = finding("redundant-barrier", "/repo/a.comp", 3, "code points");
  after_utf8.location.token = "tile";  // after a two-byte character: byte 14, column 13
  Finding whole_line = finding("redundant-barrier", "/repo/a.comp", 2, "no token");
  whole_line.location.token = "missing";
  Finding past_the_end = finding("redundant-barrier", "/repo/a.comp", 9, "no such line");
  run_.diagnostics = {by_column, by_token, whole_line, after_utf8, past_the_end};
  json document = log();
  EXPECT_EQ(document["runs"][0]["columnKind"], "unicodeCodePoints");
  const json& found = document["runs"][0]["results"];
  auto region = [&](const std::string& message) {
    for (const json& result : found) {
      if (result["message"]["text"] == message) return result["locations"][0]["physicalLocation"]["region"];
    }
    return json();
  };
  const json barrier{{"startLine", 2}, {"startColumn", 5}, {"endLine", 2}, {"endColumn", 12}};
  EXPECT_EQ(region("columns."), barrier);
  EXPECT_EQ(region("token."), barrier);
  EXPECT_EQ(region("no token."), json({{"startLine", 2}, {"startColumn", 1}, {"endLine", 2}, {"endColumn", 15}}));
  EXPECT_EQ(region("code points."), json({{"startLine", 3}, {"startColumn", 13}, {"endLine", 3}, {"endColumn", 17}}));
  EXPECT_EQ(region("no such line."), json({{"startLine", 9}}));
}

TEST_F(SarifWriter, LocationWithoutALineCoversTheWholeFile) {
  // A SPIR-V binary by its bytes, with the disassembled instruction as the location's message.
  const fs::path binary = fs::temp_directory_path() / ("klint-sarif-" + std::to_string(getpid()) + ".spv");
  std::ofstream(binary, std::ios::binary) << std::string(20, '\0');
  Finding spirv = finding("invalid-spirv", binary.string(), 0, "bad id");
  spirv.location.excerpt = "%5 = OpLoad %float %4";
  // A text file by its lines, from the first to the end of the last.
  sources_.add("/repo/empty_main.comp", "#version 450\nvoid main() {}\n");
  Finding text = finding("compile-error", "/repo/empty_main.comp", 0, "no local_size");
  run_.diagnostics = {spirv, text};
  json found = results();
  fs::remove(binary);
  ASSERT_EQ(found.size(), 2u);
  const json& spirv_location = found[1]["locations"][0];
  EXPECT_EQ(spirv_location["physicalLocation"]["region"], json({{"byteOffset", 0}, {"byteLength", 20}}));
  EXPECT_EQ(spirv_location["message"]["text"], "%5 = OpLoad %float %4");
  EXPECT_EQ(found[0]["locations"][0]["physicalLocation"]["region"],
            json({{"startLine", 1}, {"startColumn", 1}, {"endLine", 2}, {"endColumn", 15}}));
  EXPECT_FALSE(found[0]["locations"][0].contains("message"));

  // A binary that cannot be read: the artifact alone.
  run_.diagnostics = {finding("invalid-spirv", "/repo/gone.spv", 0, "unreadable")};
  EXPECT_EQ(results()[0]["locations"][0]["physicalLocation"],
            json({{"artifactLocation", {{"uri", "gone.spv"}, {"uriBaseId", "%SRCROOT%"}}}}));
}

TEST_F(SarifWriter, MessageIsASentenceAndTheFixASecondOne) {
  Finding race = finding("shared-memory-race", "/repo/a.comp", 1, "data race on 'tile'");
  race.fix_title = "separate the accesses with barrier()";
  Finding plain = finding("shared-memory-race", "/repo/a.comp", 2, "already ends.");
  run_.diagnostics = {race, plain};
  json found = results();
  EXPECT_EQ(found[0]["message"]["text"], "data race on 'tile'. Fix: separate the accesses with barrier().");
  EXPECT_EQ(found[1]["message"]["text"], "already ends.");
}

TEST_F(SarifWriter, NotesBecomeRelatedLocations) {
  sources_.add("/repo/a.comp", "tile[i] = 1.0;\nx = tile[i + 1];\n");
  Finding race = finding("shared-memory-race", "/repo/a.comp", 2, "race");
  race.notes.push_back({Location{.file = "/repo/a.comp", .line = 1, .token = "tile"}, "invocation 1 writes tile[1] here"});
  race.notes.push_back({Location{.file = "/repo/inc/common.glsl"}, "included here"});
  run_.diagnostics = {race};
  const json related = results()[0]["relatedLocations"];
  ASSERT_EQ(related.size(), 2u);
  EXPECT_EQ(related[0]["id"], 1);
  EXPECT_EQ(related[0]["message"]["text"], "invocation 1 writes tile[1] here.");
  EXPECT_EQ(related[0]["physicalLocation"]["artifactLocation"]["uri"], "a.comp");
  EXPECT_EQ(related[0]["physicalLocation"]["region"],
            json({{"startLine", 1}, {"startColumn", 1}, {"endLine", 1}, {"endColumn", 5}}));
  EXPECT_EQ(related[1]["id"], 2);
  EXPECT_EQ(related[1]["physicalLocation"]["artifactLocation"]["uri"], "inc/common.glsl");
  EXPECT_FALSE(related[1]["physicalLocation"].contains("region"));
}

TEST_F(SarifWriter, SuppressedFindingsOnlyWithIncludeSuppressed) {
  sources_.add("/repo/a.comp", "x = 1;\ny = tile[i + 1];  // klint-ignore: shared-memory-race -- on purpose\n");
  Suppression suppression{.file = "/repo/a.comp", .line = 2, .target_line = 2, .rules = {"shared-memory-race"},
                          .reason = "on purpose"};
  run_.diagnostics = {finding("redundant-barrier", "/repo/a.comp", 1, "reported")};
  run_.suppressed = {{finding("shared-memory-race", "/repo/a.comp", 2, "silenced"), suppression}};
  json without = results();
  ASSERT_EQ(without.size(), 1u);
  EXPECT_FALSE(without[0].contains("suppressions"));

  run_.include_suppressed = true;
  json with = results();
  ASSERT_EQ(with.size(), 2u);
  EXPECT_EQ(with[0]["message"]["text"], "reported.");
  EXPECT_FALSE(with[0].contains("suppressions"));
  ASSERT_EQ(with[1]["suppressions"].size(), 1u);
  const json& entry = with[1]["suppressions"][0];
  EXPECT_EQ(entry["kind"], "inSource");
  EXPECT_EQ(entry["justification"], "on purpose");
  EXPECT_EQ(entry["location"]["physicalLocation"]["region"]["startLine"], 2);
  // The reported finding keeps its fingerprint whether or not the other is listed.
  EXPECT_EQ(with[0]["partialFingerprints"], without[0]["partialFingerprints"]);
}

TEST_F(SarifWriter, InputMessagesBecomeNotificationsOfTheInvocation) {
  run_.messages = {{"/repo/missing.comp", "no such file or directory", true},
                   {"/repo/a.vert", "not a compute shader (vertex stage); skipped", false}};
  run_.exit_code = 2;
  const json invocation = log()["runs"][0]["invocations"][0];
  EXPECT_EQ(invocation["executionSuccessful"], false);
  EXPECT_EQ(invocation["exitCode"], 2);
  const json& notifications = invocation["toolExecutionNotifications"];
  ASSERT_EQ(notifications.size(), 2u);
  EXPECT_EQ(notifications[0]["level"], "error");
  EXPECT_EQ(notifications[0]["message"]["text"], "/repo/missing.comp: no such file or directory.");
  EXPECT_EQ(notifications[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "missing.comp");
  EXPECT_EQ(notifications[1]["level"], "note");

  run_.exit_code = 1;
  run_.messages.clear();
  EXPECT_EQ(log()["runs"][0]["invocations"][0]["executionSuccessful"], true);
}

TEST_F(SarifWriter, VariantsAreAResultProperty) {
  Finding race = finding("shared-memory-race", "/repo/a.comp", 1, "race");
  race.variants = {"TILE=16", "TILE=32"};
  run_.diagnostics = {race, finding("shared-memory-race", "/repo/a.comp", 2, "one variant only")};
  json found = results();
  EXPECT_EQ(found[0]["properties"]["variants"], json({"TILE=16", "TILE=32"}));
  EXPECT_FALSE(found[1].contains("properties"));
}

std::string fingerprint_of(const std::string& text, const std::vector<uint32_t>& lines) {
  SarifRun run;
  run.rules = rules_that_run({});
  run.root = "/repo";
  for (uint32_t line : lines) run.diagnostics.push_back(finding("shared-memory-race", "/repo/a.comp", line, "race"));
  SourceCache sources;
  sources.add("/repo/a.comp", text);
  std::ostringstream out;
  print_sarif(out, run, sources);
  const json document = json::parse(out.str());
  std::string prints;
  for (const json& result : document["runs"][0]["results"]) {
    prints += result["partialFingerprints"]["klint/v1"].get<std::string>() + " ";
  }
  return prints;
}

TEST(SarifFingerprints, SurviveLinesMovingButTellInstancesApart) {
  const std::string text = "void main() {\n    x = tile[i + 1];\n}\n";
  const std::string moved = "\nvoid main() {\n\n    x = tile[i + 1];\n}\n";
  EXPECT_EQ(fingerprint_of(text, {2}), fingerprint_of(moved, {4}));
  EXPECT_NE(fingerprint_of(text, {2}), fingerprint_of("void main() {\n    y = tile[i + 1];\n}\n", {2}));

  // A second instance of the rule on an identical line gets its own print.
  const std::string twins = "void main() {\n    x = tile[i + 1];\n}\nvoid main() {\n    x = tile[i + 1];\n}\n";
  std::string both = fingerprint_of(twins, {2, 5});
  std::string first = both.substr(0, both.find(' ')), second = both.substr(both.find(' ') + 1);
  EXPECT_NE(first, second);
  EXPECT_EQ(first + " ", fingerprint_of(text, {2}));
}

TEST(SarifText, MarkdownBecomesPlainText) {
  EXPECT_EQ(markdown_to_text("## What it finds\nA `shared` array that\nspans lines:\n- one `item`\n  wrapped\n"
                             "- two\n\n```glsl\nshared float s[64];\n  barrier();\n```\nAfter.\n"),
            "What it finds\nA shared array that spans lines:\n- one item wrapped\n- two\n\n"
            "shared float s[64];\n  barrier();\n\nAfter.");
  EXPECT_EQ(sarif_sentence("  lower case  "), "lower case.");
  EXPECT_EQ(sarif_sentence("is it?"), "is it?");
  // An identifier is never changed: GroupMemoryBarrier() is another function.
  EXPECT_EQ(sarif_sentence("gl_GlobalInvocationID differs"), "gl_GlobalInvocationID differs.");
  EXPECT_EQ(sarif_sentence("groupMemoryBarrier() orders"), "groupMemoryBarrier() orders.");
}

TEST(SarifRoot, NearestAncestorWithGitElseTheDirectoryItself) {
  const fs::path base = fs::temp_directory_path() / ("klint-sarif-root-" + std::to_string(getpid()));
  fs::remove_all(base);
  fs::create_directories(base / "repo" / "shaders" / "deep");
  fs::create_directories(base / "plain");
  std::ofstream(base / "repo" / ".git") << "gitdir: /elsewhere/.git/worktrees/repo\n";  // a worktree's .git file
  EXPECT_EQ(repository_root(base / "repo" / "shaders" / "deep"), base / "repo");
  EXPECT_EQ(repository_root(base / "repo"), base / "repo");
  EXPECT_EQ(repository_root(base / "plain"), base / "plain");
  fs::remove_all(base);
}

// Through the binary: --format sarif, --output and --include-suppressed.
class SarifCli : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    fs::create_directories(path(".git"));
    write("race.comp",
          "#version 450\n"
          "layout(local_size_x = 64) in;\n"
          "layout(binding = 0) buffer Data { float x[]; };\n"
          "shared float tile[64];\n"
          "void main() {\n"
          "    uint tid = gl_LocalInvocationID.x;\n"
          "    tile[tid] = x[gl_GlobalInvocationID.x];\n"
          "    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];\n"
          "    // klint-ignore-next-line: shared-memory-race -- a stale value is fine\n"
          "    x[gl_GlobalInvocationID.x] += tile[(tid + 2) % 64];\n"
          "}\n");
  }
  std::vector<std::string> leftovers(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().filename().string().find(".tmp-") != std::string::npos) out.push_back(entry.path());
    }
    return out;
  }
};

TEST_F(SarifCli, StandardOutputHoldsOneLogWithPathsBelowTheRepository) {
  fs::create_directories(path("sub"));
  KlintRun run = run_klint({"--format", "sarif", "../race.comp"}, path("sub").string());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  json document = json::parse(run.out);
  const json& run0 = document["runs"][0];
  EXPECT_EQ(run0["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file://" + path().string() + "/");
  ASSERT_EQ(run0["results"].size(), 1u) << run.out;
  const json& result = run0["results"][0];
  EXPECT_EQ(result["ruleId"], "shared-memory-race");
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "race.comp");
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["region"]["startLine"], 8);
  EXPECT_EQ(run0["invocations"][0]["exitCode"], 1);
  EXPECT_EQ(run.err, "") << "no summary beside a machine format";
}

// A rule's mechanical fix is the result's fix: one artifact change per file,
// the exact region it replaces and the text it puts there, in GLSL and HLSL;
// the same from the cache as from a fresh lint.
TEST_F(SarifCli, AMechanicalFixIsTheResultsFix) {
  write("fence.comp",
        "#version 450\n"
        "layout(local_size_x = 64) in;\n"
        "layout(binding = 0) buffer Data { float x[]; };\n"
        "shared float tile[64];\n"
        "void main() {\n"
        "    tile[gl_LocalInvocationID.x] = x[gl_GlobalInvocationID.x];\n"
        "    memoryBarrierShared();\n"
        "    x[gl_GlobalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1) % 64];\n"
        "}\n");
  write("fence.hlsl",
        "RWStructuredBuffer<float> x : register(u0);\n"
        "groupshared float tile[64];\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint3 gtid : SV_GroupThreadID, uint3 id : SV_DispatchThreadID) {\n"
        "    tile[gtid.x] = x[id.x];\n"
        "    GroupMemoryBarrier();\n"
        "    x[id.x] = tile[(gtid.x + 1) % 64];\n"
        "}\n");
  KlintRun run = run_klint({"--format", "sarif", "fence.comp", "fence.hlsl"}, path().string());
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const json results = json::parse(run.out)["runs"][0]["results"];
  ASSERT_EQ(results.size(), 2u) << run.out;
  const json& glsl = results[0]["fixes"];
  ASSERT_EQ(glsl.size(), 1u) << results[0].dump();
  EXPECT_EQ(glsl[0]["description"]["text"], "use barrier(), which waits for the workgroup and makes its shared writes "
                                            "visible.");
  const json& change = glsl[0]["artifactChanges"][0];
  EXPECT_EQ(change["artifactLocation"]["uri"], "fence.comp");
  EXPECT_EQ(change["replacements"][0]["deletedRegion"],
            json({{"startLine", 7}, {"startColumn", 5}, {"endLine", 7}, {"endColumn", 24}}));
  EXPECT_EQ(change["replacements"][0]["insertedContent"]["text"], "barrier");
  const json& hlsl = results[1]["fixes"][0]["artifactChanges"][0];
  EXPECT_EQ(hlsl["artifactLocation"]["uri"], "fence.hlsl");
  EXPECT_EQ(hlsl["replacements"][0]["deletedRegion"],
            json({{"startLine", 6}, {"startColumn", 5}, {"endLine", 6}, {"endColumn", 23}}));
  EXPECT_EQ(hlsl["replacements"][0]["insertedContent"]["text"], "GroupMemoryBarrierWithGroupSync");
  // A finding with no mechanical fix has none.
  KlintRun race = run_klint({"--format", "sarif", "race.comp"}, path().string());
  EXPECT_FALSE(json::parse(race.out)["runs"][0]["results"][0].contains("fixes")) << race.out;

  KlintRun cached = run_klint({"--format", "sarif", "fence.comp", "fence.hlsl"}, path().string());
  EXPECT_EQ(json::parse(cached.out)["runs"][0]["results"], results);
}

TEST_F(SarifCli, IncludeSuppressedListsTheSilencedFinding) {
  KlintRun plain = run_klint({"--format", "sarif", "race.comp"}, path().string());
  KlintRun with = run_klint({"--format", "sarif", "--include-suppressed", "race.comp"}, path().string());
  EXPECT_EQ(json::parse(plain.out)["runs"][0]["results"].size(), 1u);
  const json results = json::parse(with.out)["runs"][0]["results"];
  ASSERT_EQ(results.size(), 2u) << with.out;
  EXPECT_EQ(results[1]["suppressions"][0]["justification"], "a stale value is fine");
  EXPECT_EQ(results[1]["locations"][0]["physicalLocation"]["region"]["startLine"], 10);
  EXPECT_EQ(with.exit_code, 1);

  KlintRun text = run_klint({"--include-suppressed", "race.comp"}, path().string());
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_NE(text.err.find("--include-suppressed"), std::string::npos) << text.err;
}

TEST_F(SarifCli, OutputIsWrittenWholeAndLeavesNoTemporaryFile) {
  for (const std::string format : {"sarif", "json", "github", "text"}) {
    const fs::path file = path("report." + format);
    KlintRun run = run_klint({"--format", format, "--color", "always", "--output", file.string(), "race.comp"},
                             path().string());
    EXPECT_EQ(run.exit_code, 1) << format << ": " << run.err;
    EXPECT_EQ(run.out, "") << format;
    const std::string written = read(file);
    EXPECT_NE(written.find("race.comp"), std::string::npos) << format << ": " << written;
    EXPECT_EQ(written.find('\x1b'), std::string::npos) << format << ": no colour in a file";
    if (format == "sarif" || format == "json") {
      EXPECT_NO_THROW(json::parse(written)) << format;
    }
  }
  // A second run replaces the report.
  KlintRun again = run_klint({"--format", "sarif", "--output", "report.sarif", "missing.comp"}, path().string());
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("missing.comp"), std::string::npos) << "input errors still reach the terminal";
  EXPECT_EQ(json::parse(read("report.sarif"))["runs"][0]["results"].size(), 0u);
  EXPECT_EQ(leftovers(path()), std::vector<std::string>{});
}

TEST_F(SarifCli, UnwritableOutputIsAOneLineErrorAndLeavesNothingBehind) {
  KlintRun missing =
      run_klint({"--format", "sarif", "--output", "no/such/dir/out.sarif", "race.comp"}, path().string());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "klint: error: no/such/dir/out.sarif: no such file or directory\n");

  // A read-only directory (root writes anywhere, so run as nobody).
  fs::create_directories(path("locked"));
  ASSERT_EQ(chmod(path("locked").c_str(), 0555), 0);
  chmod(path().c_str(), 0755);
  chmod(path("race.comp").c_str(), 0644);
  // nobody cannot write the tests' result cache either: leave it out.
  KlintRun locked = run_klint({"--no-cache", "--format", "sarif", "--output", "locked/out.sarif", "race.comp"},
                              path().string(), 60,
                              /*unprivileged=*/true);
  EXPECT_EQ(locked.exit_code, 2) << locked.err;
  EXPECT_EQ(locked.err, "klint: error: locked/out.sarif: permission denied\n");
  EXPECT_FALSE(fs::exists(path("locked/out.sarif")));
  EXPECT_EQ(leftovers(path("locked")), std::vector<std::string>{});

  KlintRun directory = run_klint({"--format", "sarif", "--output", "locked", "race.comp"}, path().string());
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_EQ(directory.err, "klint: error: locked: is a directory\n");
  EXPECT_EQ(leftovers(path()), std::vector<std::string>{});
}

// An identifier at the start of a message reaches SARIF as it is written:
// "Gl_GlobalInvocationID" names nothing, "GroupMemoryBarrier()" another function.
TEST_F(SarifCli, MessagesKeepTheirFirstLetter) {
  write("divergent.comp", "#version 450\nlayout(local_size_x = 64) in;\nvoid main() {\n"
                          "    if (gl_LocalInvocationID.x < 16) {\n        barrier();\n    }\n}\n");
  KlintRun run = run_klint({"--format=sarif", "divergent.comp"}, path().string());
  const json result = json::parse(run.out)["runs"][0]["results"][0];
  EXPECT_EQ(result["message"]["text"].get<std::string>().substr(0, 10), "barrier in") << result.dump(2);
  std::vector<std::string> notes;
  for (const json& related : result["relatedLocations"]) notes.push_back(related["message"]["text"]);
  EXPECT_NE(std::find(notes.begin(), notes.end(), "gl_LocalInvocationID differs between the invocations of a workgroup."),
            notes.end())
      << result.dump(2);
}

// The links a log carries lead somewhere: a build from a checkout links each
// rule to its page in the checkout, which exists where the build runs. (A
// published build links to where it serves its docs, which a test cannot reach.)
TEST_F(SarifCli, LinksOfALocalBuildNameFilesThatExist) {
  if (!std::string_view(KLINT_DOCS_URL).starts_with("file://")) GTEST_SKIP() << "docs published at " << KLINT_DOCS_URL;
  KlintRun run = run_klint({"--format", "sarif", "race.comp"}, path().string());
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const json document = json::parse(run.out);
  const json& driver = document["runs"][0]["tool"]["driver"];
  std::vector<std::string> uris{driver["informationUri"].get<std::string>()};
  for (const json& rule : driver["rules"]) uris.push_back(rule["helpUri"].get<std::string>());
  ASSERT_GE(uris.size(), 20u);
  for (const std::string& uri : uris) {
    ASSERT_TRUE(uri.starts_with("file://")) << uri;
    std::string file = uri.substr(7);
    for (size_t at = file.find("%20"); at != std::string::npos; at = file.find("%20", at + 1)) file.replace(at, 3, " ");
    EXPECT_TRUE(fs::is_regular_file(file)) << uri;
  }
}

}  // namespace
}  // namespace klint::testing
