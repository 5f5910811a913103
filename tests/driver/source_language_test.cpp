// A finding speaks the language of its file: an HLSL kernel's messages, notes
// and fixes name SV_DispatchThreadID and GroupMemoryBarrierWithGroupSync(),
// never gl_GlobalInvocationID or barrier(), and a GLSL kernel's never the
// reverse. Checked over every bad_* fixture, whose findings cover every rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/run.h"

namespace klint {
namespace {

namespace fs = std::filesystem;
using testing::run_klint;

std::vector<std::string> bad_fixtures(const std::string& extension) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(KLINT_SOURCE_DIR) / "tests" / "rules")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.starts_with("bad_") && entry.path().extension() == extension) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every sentence a user reads about the files: messages, notes and fixes.
std::vector<std::string> sentences(const std::vector<std::string>& files) {
  std::vector<std::string> args{"--no-cache", "--format", "json", "-j", "2"};
  args.insert(args.end(), files.begin(), files.end());
  auto run = run_klint(args, "", 300);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  std::vector<std::string> out;
  auto report = nlohmann::json::parse(run.out, nullptr, false);
  if (report.is_discarded()) {
    ADD_FAILURE() << "not JSON: " << run.out.substr(0, 500);
    return out;
  }
  for (const auto& finding : report["findings"]) {
    out.push_back(finding["message"].get<std::string>());
    if (finding.contains("fix")) out.push_back(finding["fix"].get<std::string>());
    for (const auto& note : finding.value("notes", nlohmann::json::array())) {
      out.push_back(note["message"].get<std::string>());
    }
  }
  return out;
}

size_t count_matching(const std::vector<std::string>& texts, const std::regex& pattern, std::string* first) {
  size_t count = 0;
  for (const std::string& text : texts) {
    if (!std::regex_search(text, pattern)) continue;
    if (count++ == 0) *first = text;
  }
  return count;
}

TEST(SourceLanguage, HlslFindingsNameHlslBuiltInsAndBarriers) {
  auto texts = sentences(bad_fixtures(".hlsl"));
  std::string example;
  const std::regex glsl(R"(gl_[A-Z]\w*|(^|[^A-Za-z])barrier\(\)|\bmemoryBarrier\w*\(|\bsubgroup[A-Z]\w*\(|local_size_)");
  EXPECT_EQ(count_matching(texts, glsl, &example), 0u) << "for example: " << example;
  // The same findings do name the built-ins, in HLSL: a test that could not see them would pass on nothing.
  const std::regex hlsl(R"(SV_(DispatchThreadID|GroupThreadID|GroupIndex|GroupID)\b)");
  EXPECT_GE(count_matching(texts, hlsl, &example), 20u);
  const std::regex barrier(R"(GroupMemoryBarrierWithGroupSync\(\))");
  EXPECT_GE(count_matching(texts, barrier, &example), 1u);
}

TEST(SourceLanguage, GlslFindingsNameNoHlsl) {
  auto texts = sentences(bad_fixtures(".comp"));
  std::string example;
  const std::regex hlsl(R"(SV_[A-Z]\w*|GroupMemoryBarrierWithGroupSync|\bWave[A-Z]\w*|groupshared|numthreads)");
  EXPECT_EQ(count_matching(texts, hlsl, &example), 0u) << "for example: " << example;
  const std::regex glsl(R"(gl_(GlobalInvocationID|LocalInvocationID|LocalInvocationIndex|WorkGroupID)\b)");
  EXPECT_GE(count_matching(texts, glsl, &example), 20u);
}

}  // namespace
}  // namespace klint
