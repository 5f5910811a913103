// The machine-readable formats: --format json (schema klint-findings-1, see
// docs/output.md) and --format github (workflow annotations).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "driver/output/github.h"
#include "tests/support/run.h"

namespace klint::testing {
namespace {

const std::string kRace = std::string(KLINT_SOURCE_DIR) + "/tests/rules/shared-memory-race/bad_neighbour_read.comp";
const std::string kClean = std::string(KLINT_SOURCE_DIR) + "/tests/clean/softmax.comp";

TEST(JsonFormat, CarriesEveryFindingWithItsNotesAndTheExitCode) {
  KlintRun run = run_klint({"--format", "json", kRace, kClean});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json document = nlohmann::json::parse(run.out);
  EXPECT_EQ(document["schema"], "klint-findings-1");
  EXPECT_EQ(document["files_linted"], 2);
  EXPECT_EQ(document["exit_code"], 1);
  ASSERT_EQ(document["findings"].size(), 1u);
  const auto& finding = document["findings"][0];
  EXPECT_EQ(finding["rule"], "shared-memory-race");
  EXPECT_EQ(finding["severity"], "error");
  EXPECT_EQ(finding["category"], "correctness");
  EXPECT_EQ(finding["location"]["file"], kRace);
  EXPECT_EQ(finding["location"]["line"], 11);
  ASSERT_EQ(finding["notes"].size(), 1u);
  EXPECT_EQ(finding["notes"][0]["location"]["line"], 9);
  EXPECT_EQ(finding["notes"][0]["message"], "invocation 1 writes tile[1] here");
  EXPECT_FALSE(finding["fix"].get<std::string>().empty());
  EXPECT_TRUE(document["inputs"].empty());
}

// A rule's mechanical fix: each edit's exact columns (1-based, the end
// exclusive) and the text it puts there. A finding without one has none.
TEST(JsonFormat, AMechanicalFixCarriesItsEdits) {
  const std::string fence =
      std::string(KLINT_SOURCE_DIR) + "/tests/rules/insufficient-barrier/bad_shared_barrier_alone.comp";
  KlintRun run = run_klint({"--no-cache", "--format", "json", "--select", "insufficient-barrier", fence});
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json document = nlohmann::json::parse(run.out);
  ASSERT_EQ(document["findings"].size(), 1u) << run.out;
  const nlohmann::json& finding = document["findings"][0];
  ASSERT_EQ(finding["edits"].size(), 1u) << finding.dump();
  const nlohmann::json& edit = finding["edits"][0];
  EXPECT_EQ(edit["text"], "barrier");
  EXPECT_EQ(edit["location"]["file"], fence);
  EXPECT_EQ(edit["location"]["token"], "memoryBarrierShared");
  EXPECT_EQ(edit["location"]["end_column"].get<uint32_t>() - edit["location"]["column"].get<uint32_t>(),
            std::string("memoryBarrierShared").size());

  KlintRun race = run_klint({"--no-cache", "--format", "json", kRace});
  EXPECT_FALSE(nlohmann::json::parse(race.out)["findings"][0].contains("edits")) << race.out;
}

TEST(JsonFormat, ReportsInputErrorsAndStaysOneDocument) {
  KlintRun run = run_klint({"--format", "json", "/nonexistent/shader.comp", kClean});
  EXPECT_EQ(run.exit_code, 2);
  nlohmann::json document = nlohmann::json::parse(run.out);
  ASSERT_EQ(document["inputs"].size(), 1u);
  EXPECT_EQ(document["inputs"][0]["path"], "/nonexistent/shader.comp");
  EXPECT_EQ(document["inputs"][0]["error"], true);
  EXPECT_EQ(document["exit_code"], 2);
  EXPECT_TRUE(document["findings"].empty());
  // The reason still reaches the terminal, one line naming the file.
  EXPECT_NE(run.err.find("/nonexistent/shader.comp"), std::string::npos);
}

TEST(GithubFormat, OneAnnotationPerFindingWithNotesOnLinesOfTheirOwn) {
  KlintRun run = run_klint({"--format", "github", kRace});
  EXPECT_EQ(run.exit_code, 1);
  std::string expected = "::error file=" + github_escape(kRace, true) +
                         ",line=11,title=shared-memory-race::data race on 'tile': invocation 0 reads tile[1] "
                         "while invocation 1 writes it, with no barrier between%0A" +
                         kRace + ":9: invocation 1 writes tile[1] here%0Ahelp: ";
  EXPECT_EQ(run.out.rfind(expected, 0), 0u) << run.out;
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1);
}

TEST(GithubFormat, EscapesWhatWorkflowCommandsReserve) {
  EXPECT_EQ(github_escape("a%b\nc\rd:e,f", false), "a%25b%0Ac%0Dd:e,f");
  EXPECT_EQ(github_escape("dir:a,b.comp", true), "dir%3Aa%2Cb.comp");
}

TEST(Format, RejectsAnUnknownFormat) {
  KlintRun run = run_klint({"--format", "xml", kClean});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("xml"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace klint::testing

namespace klint::testing {
namespace {

// JSON strings are UTF-8; a file name with other bytes must not stop the report.
TEST(MachineFormats, FileNamesThatAreNotUtf8StillGiveOneDocument) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("klint-utf8-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::copy_file(kRace, dir / "bad\xff.comp", fs::copy_options::overwrite_existing);
  for (const char* format : {"json", "sarif"}) {
    KlintRun run = run_klint({"--no-cache", "--format", format, "bad\xff.comp"}, dir.string());
    EXPECT_EQ(run.exit_code, 1) << format << run.err;
    nlohmann::json document = nlohmann::json::parse(run.out);
    // json shows the byte escaped, as the text does; SARIF's URIs percent-encode it.
    const char* name = std::string_view(format) == "json" ? "\"bad\\\\xFF.comp\"" : "bad%FF.comp";
    EXPECT_NE(run.out.find(name), std::string::npos) << format;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace klint::testing
