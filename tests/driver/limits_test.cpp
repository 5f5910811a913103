// Inputs at and past the limits klint bounds (issue: hostile input): deeply
// nested control flow, huge arrays, enormous specialization constants,
// recursive includes, a 10 MB source file, a module whose id bound is 2^22,
// and a workgroup of 1024 invocations with shared memory at the limit. Each
// gets a clear finding or a one-line error, and klint finishes; the other
// files of the run are linted. Time and memory are measured in bench/, not
// asserted here.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzer/frontend.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint {
namespace {

using testing::KlintRun;
using testing::run_klint;

class Limits : public testing::ScratchCwdTest {
 protected:
  // (file, rule, line) of every finding of a JSON run.
  static std::multiset<std::tuple<std::string, std::string, uint32_t>> findings(const KlintRun& run) {
    std::multiset<std::tuple<std::string, std::string, uint32_t>> out;
    nlohmann::json report = nlohmann::json::parse(run.out);
    for (const nlohmann::json& f : report["findings"]) {
      out.emplace(f["location"]["file"], f["rule"], f["location"]["line"].get<uint32_t>());
    }
    return out;
  }
};

std::string nested_loops(int depth) {
  std::string text =
      "#version 450\nlayout(local_size_x = 64) in;\nlayout(binding = 0) buffer D { float x[]; };\n"
      "void main() {\n    uint i = gl_GlobalInvocationID.x;\n";
  for (int k = 0; k < depth; ++k)
    text += "    for (uint j" + std::to_string(k) + " = 0u; j" + std::to_string(k) + " < 2u; ++j" + std::to_string(k) +
            ") {\n";
  text += "    x[i] += 1.0;\n";
  for (int k = 0; k < depth; ++k) text += "    }\n";
  return text + "}\n";
}

constexpr const char* kRace = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    tile[gl_LocalInvocationID.x] = x[gl_GlobalInvocationID.x];
    x[gl_GlobalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1) % 64];
}
)";

// SPIRV-Tools' dominance work grows faster than the nesting: a thousand
// nested loops took minutes and gigabytes. Past 128 levels klint says so.
TEST_F(Limits, DeeplyNestedControlFlowIsAnErrorPast128Levels) {
  write("deep.comp", nested_loops(1000));
  write("nested.comp", nested_loops(100));
  write("race.comp", kRace);
  KlintRun run = run_klint({"--no-cache", "deep.comp", "nested.comp", "race.comp"}, "", 120);
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("klint: error: deep.comp: control flow nested 1000 deep, more than the 128 klint analyzes; "
                         "not linted\n"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find("race.comp:7: error: data race on 'tile'"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("nested.comp"), std::string::npos) << run.out;  // linted, and clean
}

TEST_F(Limits, HugeArraysAreFindingsNotAllocations) {
  write("shared.comp",
        "#version 450\nlayout(local_size_x = 64) in;\nlayout(binding = 0) buffer D { float x[]; };\n"
        "shared float tile[268435456];\nvoid main() {\n"
        "    tile[gl_LocalInvocationID.x] = x[gl_GlobalInvocationID.x];\n    barrier();\n"
        "    x[gl_GlobalInvocationID.x] = tile[gl_LocalInvocationID.x ^ 1u];\n}\n");
  write("private.comp",
        "#version 450\nlayout(local_size_x = 64) in;\nlayout(binding = 0) buffer D { float x[]; };\n"
        "void main() {\n    float a[16777216];\n"
        "    for (uint k = 0u; k < 16u; ++k) a[k * 1000u] = x[k];\n"
        "    x[gl_GlobalInvocationID.x] = a[gl_LocalInvocationID.x];\n}\n");
  KlintRun run = run_klint({"--no-cache", "--format", "json", "shared.comp", "private.comp"}, "", 120);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(findings(run),
            (std::multiset<std::tuple<std::string, std::string, uint32_t>>{
                {"private.comp", "private-array-spill", 5}, {"shared.comp", "shared-memory-over-limit", 4}}));
  nlohmann::json report = nlohmann::json::parse(run.out);
  EXPECT_NE(report["findings"][1]["message"].get<std::string>().find("uses 1073741824 bytes"), std::string::npos);
}

TEST_F(Limits, EnormousSpecializationConstantsAreJudgedAtTheirDefaults) {
  write("spec.comp",
        "#version 450\nlayout(local_size_x_id = 0, local_size_y_id = 1) in;\n"
        "layout(constant_id = 0) const uint X = 4294967295u;\nlayout(constant_id = 1) const uint Y = 65535u;\n"
        "layout(constant_id = 2) const uint N = 4294967295u;\n"
        "layout(binding = 0) buffer D { float x[]; };\nshared float tile[N / 16u];\nvoid main() {\n"
        "    tile[gl_LocalInvocationIndex] = x[gl_GlobalInvocationID.x];\n    barrier();\n"
        "    x[gl_GlobalInvocationID.x] = tile[gl_LocalInvocationIndex + 1u];\n}\n");
  KlintRun run = run_klint({"--no-cache", "--format", "json", "spec.comp"}, "", 120);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(findings(run),
            (std::multiset<std::tuple<std::string, std::string, uint32_t>>{
                {"spec.comp", "workgroup-size-over-limit", 2}, {"spec.comp", "shared-memory-over-limit", 7},
                // x[] ignores y, and the value written depends on it.
                {"spec.comp", "global-memory-race", 11}}));
  EXPECT_NE(run.out.find("the 65535 invocations along y of a 4294967295x65535x1 workgroup"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("workgroup of 281470681677825 invocations (4294967295x65535x1)"), std::string::npos)
      << run.out;
}

TEST_F(Limits, RecursiveIncludesStopAt64Levels) {
  write("a.glsl", "#include \"b.glsl\"\n");
  write("b.glsl", "#include \"a.glsl\"\n");
  write("mutual.comp",
        "#version 450\n#extension GL_GOOGLE_include_directive : require\n#include \"a.glsl\"\n"
        "layout(local_size_x = 64) in;\nvoid main() {}\n");
  write("self.comp",
        "#version 450\n#extension GL_GOOGLE_include_directive : require\n#include \"self.comp\"\n"
        "layout(local_size_x = 64) in;\nvoid main() {}\n");
  KlintRun run = run_klint({"--no-cache", "mutual.comp", "self.comp"}, "", 120);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.out.find("b.glsl:1: error: #include nested more than 64 levels deep; does \"a.glsl\" include itself? "
                         "[compile-error]"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("self.comp:"), std::string::npos) << run.out;  // some compile error, then on
}

// 10 MB: a kernel under a long comment block, each line an excerpt klint
// could show. klint reads, compiles and indexes it all.
TEST_F(Limits, ATenMegabyteSourceIsLinted) {
  std::string text = "#version 450\n";
  const std::string line = "// " + std::string(96, 'x') + "\n";
  while (text.size() < 10 * 1024 * 1024) text += line;
  text += kRace + std::strlen("#version 450\n");
  write("big.comp", text);
  KlintRun run = run_klint({"--no-cache", "--format", "json", "big.comp"}, "", 120);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(findings(run).size(), 1u) << run.out;
  EXPECT_EQ(std::get<1>(*findings(run).begin()), "shared-memory-race");
}

// spirv-val allows id bounds below 2^22. At 2^22 the module is invalid; just
// below it, the optimizer that normalizes the module runs out of ids unless
// they are renumbered first, and the finding was silently lost.
TEST_F(Limits, IdBoundsAtTwoToTheTwentySecond) {
  SourceCache sources;
  std::vector<uint32_t> words = compile("race.comp", kRace, Language::Glsl, CompileOptions{}, sources).spirv;
  ASSERT_GT(words.size(), 5u);
  auto write_words = [&](const char* name, uint32_t bound) {
    words[3] = bound;
    std::ofstream(path(name), std::ios::binary).write(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  };
  write_words("at.spv", 1u << 22);
  write_words("below.spv", (1u << 22) - 1);
  KlintRun run = run_klint({"--no-cache", "--format", "json", "at.spv", "below.spv"}, "", 120);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  auto seen = findings(run);
  ASSERT_EQ(seen.size(), 2u) << run.out;
  EXPECT_EQ(std::get<1>(*seen.begin()), "invalid-spirv");
  EXPECT_EQ(std::get<1>(*std::next(seen.begin())), "shared-memory-race");
  EXPECT_NE(run.out.find("The id bound is larger than the max id bound 4194303"), std::string::npos) << run.out;
}

// A helper that returns early, called 3,600 times once everything else is
// inlined: merge-return would let the inliner copy it past 100,000
// instructions (analyzer/normalize.cpp), so the calls stay and the file gets
// a note; it is linted, and the kernel's race is still found.
TEST_F(Limits, InliningPastItsBudget) {
  std::string text = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint values[]; };
shared uint tile[64];
uint leaf(uint i) {
    if (i >= values.length()) return 0u;
    uint v = values[i];
    v = v * 3u + values[i + 1u];
    v = v * 5u + values[i + 2u];
    v = v * 7u + values[i + 3u];
    return v ^ (v >> 3u);
}
uint middle(uint i) {
    uint sum = 0u;
)";
  for (int k = 0; k < 60; ++k) text += "    sum += leaf(i + " + std::to_string(k) + "u);\n";
  text += "    return sum;\n}\nvoid main() {\n    uint t = gl_LocalInvocationID.x;\n    tile[t] = 0u;\n";
  text += "    values[t] = tile[(t + 1u) % 64u];\n    uint sum = 0u;\n";
  for (int k = 0; k < 60; ++k) text += "    sum += middle(t * " + std::to_string(k) + "u);\n";
  text += "    values[t] += sum;\n}\n";
  write("calls.comp", text);
  KlintRun run = run_klint({"--no-cache", "--format", "json", "calls.comp"}, "", 120);
  nlohmann::json report = nlohmann::json::parse(run.out);
  EXPECT_EQ(report["files_linted"], 1);
  // main's read of tile after the 60 lines of middle().
  EXPECT_EQ(findings(run).count({"calls.comp", "shared-memory-race", 80}), 1u) << run.out;
  ASSERT_EQ(report["inputs"].size(), 1u) << run.out;
  EXPECT_NE(report["inputs"][0]["reason"].get<std::string>().find("more than the 100000 klint inlines"),
            std::string::npos)
      << run.out;
}

// Accesses with no barrier between pair up quadratically: past the budget
// (analyzer/barrier_intervals.h) the race and redundant-barrier rules leave
// the function out, the file gets a note and still counts as linted, and the
// other rules run. Under it, the same kernel's races are found.
TEST_F(Limits, DenseSharedAccessesPastThePairBudget) {
  auto dense = [](int statements) {
    std::string text = "#version 450\nlayout(local_size_x = 64) in;\nlayout(binding = 0) buffer D { float x[]; };\n"
                       "shared float tile[64];\nvoid main() {\n    uint t = gl_LocalInvocationID.x;\n";
    for (int k = 0; k < statements; ++k) {
      text += "    tile[t] += tile[(t + " + std::to_string(k + 1) + "u) & 63u];\n";
    }
    return text + "    x[t] = tile[t];\n}\n";
  };
  write("few.comp", dense(4));
  write("many.comp", dense(200));
  KlintRun run = run_klint({"--no-cache", "--format", "json", "few.comp", "many.comp"}, "", 120);
  nlohmann::json report = nlohmann::json::parse(run.out);
  EXPECT_EQ(report["files_linted"], 2);
  size_t races_few = 0, races_many = 0;
  for (const nlohmann::json& f : report["findings"]) {
    if (f["rule"] != "shared-memory-race") continue;
    (f["location"]["file"] == "few.comp" ? races_few : races_many) += 1;
  }
  EXPECT_GT(races_few, 0u) << run.out;
  EXPECT_EQ(races_many, 0u) << run.out;
  ASSERT_EQ(report["inputs"].size(), 1u) << run.out;
  EXPECT_EQ(report["inputs"][0]["path"], "many.comp");
  EXPECT_EQ(report["inputs"][0]["error"], false);
  EXPECT_NE(report["inputs"][0]["reason"].get<std::string>().find("shared-memory-race and redundant-barrier left"),
            std::string::npos)
      << run.out;
}

// 1024 invocations and 32 KiB of shared memory, lavapipe's limit: within the
// sourced limits of every default target but the one that offers only what
// Vulkan guarantees (two warnings), one workgroup resident on an Apple core,
// and a reduction whose loops the analyses walk for every invocation.
TEST_F(Limits, AWorkgroupOf1024WithSharedMemoryAtTheLimit) {
  write("wide.comp", R"(#version 450
layout(local_size_x = 1024) in;
layout(binding = 0) buffer D { float x[]; };
shared float tile[8192];
void main() {
    uint t = gl_LocalInvocationID.x;
    for (uint k = 0u; k < 8u; ++k) tile[t + k * 1024u] = x[gl_GlobalInvocationID.x * 8u + k];
    barrier();
    for (uint s = 4096u; s > 0u; s >>= 1) {
        for (uint k = t; k < s; k += 1024u) tile[k] += tile[k + s];
        barrier();
    }
    if (t == 0u) x[gl_WorkGroupID.x] = tile[0];
}
)");
  KlintRun run = run_klint({"--no-cache", "--format", "json", "wide.comp"}, "", 120);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(findings(run),
            (std::multiset<std::tuple<std::string, std::string, uint32_t>>{
                {"wide.comp", "workgroup-size-over-limit", 2},
                {"wide.comp", "shared-memory-over-limit", 4},
                {"wide.comp", "shared-memory-limits-occupancy", 4}}));
}

// docs/portability.md: a limit broken against klint's default devices is a
// warning, and an error once the user declares the targets, on the command
// line or in klint.toml; a capability the module declares is a finding only
// against declared targets.
TEST_F(Limits, DefaultDevicesWarnAndDeclaredTargetsDecide) {
  write("deep.comp",
        "#version 450\nlayout(local_size_x = 1, local_size_y = 1, local_size_z = 128) in;\n"
        "layout(binding = 0) buffer D { double x[]; };\n"
        "void main() { x[gl_LocalInvocationIndex] = x[gl_LocalInvocationIndex] * 2.0lf; }\n");
  auto severities = [](const KlintRun& run) {
    std::multiset<std::pair<std::string, std::string>> out;
    const nlohmann::json report = nlohmann::json::parse(run.out);
    for (const nlohmann::json& f : report["findings"]) out.emplace(f["rule"], f["severity"]);
    return out;
  };
  using Found = std::multiset<std::pair<std::string, std::string>>;
  KlintRun defaults = run_klint({"--no-cache", "--format", "json", "deep.comp"});
  EXPECT_EQ(severities(defaults), (Found{{"workgroup-size-over-limit", "warning"}})) << defaults.out;

  KlintRun declared = run_klint({"--no-cache", "--format", "json", "--target", "intel-xe,nvidia-ampere", "deep.comp"});
  EXPECT_EQ(severities(declared), (Found{{"workgroup-size-over-limit", "error"}, {"numeric-type-unsupported", "error"}}))
      << declared.out;

  write("klint.toml", "targets = [\"intel-xe\", \"nvidia-ampere\"]\n");
  KlintRun configured = run_klint({"--no-cache", "--format", "json", "deep.comp"});
  EXPECT_EQ(severities(configured), severities(declared)) << configured.out;
}

}  // namespace
}  // namespace klint
