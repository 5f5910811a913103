// What `klint --confirm` prints to show a finding again must show it: the
// `replay:` command, run by a shell as printed, and the reproducer, run as
// its comment says from its folder, after the tree it sits in has moved.
// Each kernel here needs options beyond its file to compile as linted.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/runner/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint {
namespace {

namespace fs = std::filesystem;
using testing::run_klint;

// Two kernels in one file, so that --entry must choose; a size that only -D
// gives; a helper in a header that only -I finds, in a folder whose name a
// shell must have quoted.
constexpr const char* kTwoKernels = R"(#ifndef TILE
#error "build with -DTILE=N"
#endif
#include "tile.hlsli"
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[TILE];

[numthreads(TILE, 1, 1)]
void Race(uint3 lid : SV_GroupThreadID, uint3 gid : SV_DispatchThreadID) {
    tile[lid.x] = data[gid.x];
    data[gid.x] = tile[neighbour(lid.x)];
}

[numthreads(TILE, 1, 1)]
void Clean(uint3 lid : SV_GroupThreadID, uint3 gid : SV_DispatchThreadID) {
    tile[lid.x] = data[gid.x];
    GroupMemoryBarrierWithGroupSync();
    data[gid.x] = tile[neighbour(lid.x)];
}
)";

constexpr const char* kHeader = "uint neighbour(uint i) { return (i + 1) % TILE; }\n";

// GLSL in a file whose name says nothing (-fshader-stage=compute), with no
// workgroup size of its own (--workgroup-size gives it, as ncnn's host does)
// and a stride that only a specialization constant makes read another
// invocation's element: without either there is no race to show.
constexpr const char* kHostSized = R"(#version 450
layout(binding = 0) buffer Data { float x[]; };
layout(constant_id = 1) const uint STRIDE = 1;
shared float tile[512];
void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i] = x[gl_GlobalInvocationID.x];
    x[gl_GlobalInvocationID.x] = tile[i * STRIDE];
}
)";

// A race between neighbours that only invocations below a push constant run:
// at the default harness's n = 0 nothing runs.
constexpr const char* kSizedRace = R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint i = gl_LocalInvocationID.x;
    if (gl_GlobalInvocationID.x < p.n) {
        tile[i] = x[gl_GlobalInvocationID.x];
        x[gl_GlobalInvocationID.x] = tile[(i + 1u) % 64u];
    }
}
)";

class Replay : public testing::ScratchCwdTest {
 protected:
  struct ShellRun {
    int exit_code = -1;
    std::string output;
  };

  // Runs `command` with sh in `cwd`, with this build's klint first on PATH,
  // as a user pastes it.
  ShellRun shell(const std::string& command, const fs::path& cwd) const {
    const fs::path script = path("replay.sh"), output = path("replay.out");
    std::ofstream(script) << "cd " << quoted(cwd.string()) << " || exit 99\nPATH="
                          << quoted(fs::path(KLINT_BINARY).parent_path().string()) << ":\"$PATH\"\n"
                          << command << "\n";
    const int status = std::system(("timeout 120 sh " + script.string() + " > " + output.string() + " 2>&1").c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read(output)};
  }

  // The reproducer's own replay line, run in its folder, confirms the finding again.
  void expect_reproducer_confirms(const std::string& text) const {
    const std::string said = "# replay, in this file's folder: ";
    const size_t at = text.find(said);
    ASSERT_NE(at, std::string::npos) << text;
    const std::string command = text.substr(at + said.size(), text.find('\n', at) - at - said.size());
    ShellRun replayed = shell(command + " --no-cache --format json", path("repro"));
    ASSERT_EQ(replayed.exit_code, 1) << command << "\n" << replayed.output;
    const nlohmann::json r = nlohmann::json::parse(replayed.output, nullptr, false);
    ASSERT_FALSE(r.is_discarded()) << replayed.output;
    ASSERT_EQ(r["findings"].size(), 1u) << replayed.output;
    EXPECT_EQ(r["findings"][0]["confirmation"]["status"], "confirmed") << replayed.output;
  }

  static std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  }

  // The confirmation of the one finding of a --confirm --format json run.
  static nlohmann::json confirmation(const testing::KlintRun& run) {
    const nlohmann::json report = nlohmann::json::parse(run.out, nullptr, false);
    if (report.is_discarded() || report["findings"].size() != 1) {
      ADD_FAILURE() << "one finding expected:\n" << run.out << run.err;
      return {};
    }
    return report["findings"][0]["confirmation"];
  }

  static std::string detail(const nlohmann::json& confirmation, const std::string& prefix) {
    for (const nlohmann::json& line : confirmation.value("details", nlohmann::json::array())) {
      const std::string text = line.get<std::string>();
      if (text.rfind(prefix, 0) == 0) return text.substr(prefix.size());
    }
    ADD_FAILURE() << "no '" << prefix << "' in " << confirmation.dump();
    return "";
  }
};

bool on_lavapipe() {
  return runner::testing::default_device_name().find("llvmpipe") != std::string::npos;
}

// A skipped barrier's replay shows the same invocations skipping it.
TEST_F(Replay, ASkippedBarrierReplays) {
  write("skip.comp", R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid >= 48) return;
    tile[tid] = x[tid];
    barrier();
    x[tid] = tile[47 - tid];
}
)");
  testing::KlintRun run = run_klint(
      {"--no-cache", "--confirm", "--format", "json", "--select", "barrier-in-divergent-control-flow", "skip.comp"}, "",
      120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const nlohmann::json c = confirmation(run);
  ASSERT_EQ(c.value("status", ""), "confirmed") << c.dump();
  const std::string replay = detail(c, "replay: ");
  ShellRun again = shell(replay, path());
  EXPECT_EQ(again.exit_code, 1) << replay << "\n" << again.output;
  EXPECT_NE(again.output.find("skipped barrier at skip.comp:9 in workgroup 0: invocation 0 arrives once, "
                              "invocation 48 never (invocations 48..63 arrive fewer times)"),
            std::string::npos)
      << again.output;
}

TEST_F(Replay, TheReplayCommandAndTheReproducerCarryWhatTheFileNeedsToCompile) {
  write("k.hlsl", kTwoKernels);
  write("shared inc/tile.hlsli", kHeader);
  testing::KlintRun run =
      run_klint({"--no-cache", "--confirm", "--format", "json", "--reproducers", "repro", "--select",
                 "shared-memory-race", "--entry", "Race", "-DTILE=64", "-I", "shared inc", "k.hlsl"},
                "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const nlohmann::json c = confirmation(run);
  ASSERT_EQ(c.value("status", ""), "confirmed") << c.dump();

  // The command as printed, pasted into a shell where klint ran.
  const std::string replay = detail(c, "replay: ");
  EXPECT_NE(replay.find("-I 'shared inc' -DTILE=64 --entry Race k.hlsl"), std::string::npos) << replay;
  ShellRun again = shell(replay, path());
  EXPECT_EQ(again.exit_code, 1) << replay << "\n" << again.output;  // a shadow finding
  EXPECT_NE(again.output.find("k.hlsl: entry point Race, workgroup 64,1,1"), std::string::npos) << again.output;
  EXPECT_NE(again.output.find("verdict: completed, 1 shadow finding"), std::string::npos) << again.output;
  if (on_lavapipe()) {
    EXPECT_NE(again.output.find("race on tile[1] in workgroup 0"), std::string::npos) << again.output;
  }

  // The reproducer, with its shader and header, moved to another folder and
  // replayed from its own folder as its comment says.
  const std::string written = detail(c, "reproducer: ");
  ASSERT_FALSE(written.empty());
  const fs::path reproducer = path(written);
  fs::create_directories(path("moved"));
  for (const char* part : {"k.hlsl", "shared inc", "repro"}) fs::rename(path(part), path("moved") / part);
  const fs::path moved = path("moved") / fs::path(written).parent_path();
  const std::string text = read(moved / reproducer.filename());
  EXPECT_EQ(text.find(path().string()), std::string::npos) << "no absolute path:\n" << text;
  EXPECT_NE(text.find("file = \"../k.hlsl\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("include-dirs = [\"../shared inc\"]\n"), std::string::npos) << text;
  const std::string said = "# replay, in this file's folder: ";
  const size_t at = text.find(said);
  ASSERT_NE(at, std::string::npos) << text;
  const std::string command = text.substr(at + said.size(), text.find('\n', at) - at - said.size());
  ShellRun replayed = shell(command + " --no-cache --format json", moved);
  ASSERT_EQ(replayed.exit_code, 1) << command << "\n" << replayed.output;
  const nlohmann::json r = nlohmann::json::parse(replayed.output, nullptr, false);
  ASSERT_FALSE(r.is_discarded()) << replayed.output;
  ASSERT_EQ(r["findings"].size(), 1u) << replayed.output;
  EXPECT_EQ(r["findings"][0]["confirmation"]["status"], "confirmed") << replayed.output;
}

// What the lint gave the pipeline (a workgroup size, a constant) and the
// stage of a file its name does not give come back in the command.
TEST_F(Replay, TheReplayCommandGivesThePipelineWhatTheLintGaveIt) {
  write("k.shader", kHostSized);
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "--select", "shared-memory-race",
                                     "-fshader-stage=compute", "--workgroup-size", "64", "--specialization",
                                     "STRIDE=2", "k.shader"},
                                    "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const nlohmann::json c = confirmation(run);
  ASSERT_EQ(c.value("status", ""), "confirmed") << c.dump();
  const std::string replay = detail(c, "replay: ");
  EXPECT_NE(replay.find("--specialization STRIDE=2 --workgroup-size 64,1,1 -fshader-stage=compute k.shader"),
            std::string::npos)
      << replay;
  ShellRun again = shell(replay, path());
  EXPECT_EQ(again.exit_code, 1) << replay << "\n" << again.output;
  EXPECT_NE(again.output.find("k.shader: entry point main, workgroup 64,1,1"), std::string::npos) << again.output;
  EXPECT_NE(again.output.find(" shadow finding"), std::string::npos) << again.output;
}

// Without a manifest the setup comes from how the kernel uses its push
// constants; the replay gives them with --push-constants, and the reproducer
// as a [[kernel]] table.
TEST_F(Replay, ASetupMadeFromTheKernelReplaysWithItsPushConstants) {
  write("sized.comp", kSizedRace);
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "--reproducers", "repro",
                                     "--select", "shared-memory-race", "sized.comp"},
                                    "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const nlohmann::json c = confirmation(run);
  ASSERT_EQ(c.value("status", ""), "confirmed") << c.dump();
  EXPECT_NE(detail(c, "guessed: push constant n = ").find("it bounds"), std::string::npos) << c.dump();
  const std::string replay = detail(c, "replay: ");
  EXPECT_NE(replay.find("klint run --shadow --push-constants n="), std::string::npos) << replay;
  ShellRun again = shell(replay, path());
  EXPECT_EQ(again.exit_code, 1) << replay << "\n" << again.output;
  EXPECT_NE(again.output.find("verdict: completed, "), std::string::npos) << again.output;
  if (on_lavapipe()) {
    EXPECT_NE(again.output.find("race on tile[1] in workgroup 0"), std::string::npos) << again.output;
  }

  const std::string text = read(path(detail(c, "reproducer: ")));
  EXPECT_NE(text.find("push-constants = { \"n\" = "), std::string::npos) << text;
  EXPECT_NE(text.find("buffers = { \"0.0\" = "), std::string::npos) << text;
  expect_reproducer_confirms(text);
}

// The image size in a uniform block: the setup made from the kernel gives it
// a size the workgroups do not divide, and the replay line and the
// reproducer give the block the same.
TEST_F(Replay, ASetupMadeFromTheKernelReplaysWithItsUniforms) {
  write("edge.comp", R"(#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform Frame { uvec2 unused; uint width; uint height; } frame;
layout(binding = 1) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= frame.width || p.y >= frame.height) return;
    tile[gl_LocalInvocationIndex] = x[p.y * frame.width + p.x];
    barrier();
    x[p.y * frame.width + p.x] = tile[63u - gl_LocalInvocationIndex];
}
)");
  testing::KlintRun run = run_klint({"--no-cache", "--confirm", "--format", "json", "--reproducers", "repro",
                                     "--select", "barrier-in-divergent-control-flow", "edge.comp"},
                                    "", 120);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const nlohmann::json c = confirmation(run);
  ASSERT_EQ(c.value("status", ""), "confirmed") << c.dump();
  EXPECT_NE(detail(c, "guessed: uniform 0.0 width = ").find("a count: it bounds an id"), std::string::npos)
      << c.dump();
  const std::string replay = detail(c, "replay: ");
  EXPECT_NE(replay.find(" --uniforms width="), std::string::npos) << replay;
  ShellRun again = shell(replay, path());
  EXPECT_EQ(again.exit_code, 1) << replay << "\n" << again.output;
  EXPECT_NE(again.output.find("skipped barrier at edge.comp:10 in workgroup "), std::string::npos) << again.output;

  const std::string text = read(path(detail(c, "reproducer: ")));
  EXPECT_NE(text.find("uniforms = { \"width\" = "), std::string::npos) << text;
  expect_reproducer_confirms(text);
}

// Without a Vulkan device to ask, a limit finding's verdict says so in one
// line, and the lint's findings are all still there. (In this suite for its
// shell, which can hide the devices from the loader.)
TEST_F(Replay, WithNoVulkanDeviceALimitFindingSaysWhyInOneLine) {
  write("big.comp", R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[12288];
void main() {
    tile[gl_LocalInvocationIndex] = x[gl_GlobalInvocationID.x];
    barrier();
    x[gl_GlobalInvocationID.x] = tile[63u - gl_LocalInvocationIndex];
}
)");
  ShellRun run = shell("VK_ICD_FILENAMES=/nonexistent/icd.json VK_DRIVER_FILES=/nonexistent/icd.json klint --no-cache "
                       "--confirm --color=never --select shared-memory-over-limit big.comp",
                       path());
  EXPECT_EQ(run.exit_code, 1) << run.output;  // findings
  EXPECT_NE(run.output.find("big.comp:4:14: warning: entry point 'main' uses 49152 bytes"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("\n  not runnable: no Vulkan device at hand to read limits from: "), std::string::npos)
      << run.output;
}

}  // namespace
}  // namespace klint
