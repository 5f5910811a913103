// glslang in worker processes (driver/compile_worker.h): a file that crashes
// the front end is a compile-error finding for that file, the other files are
// linted, and a worker that hangs or leaves without an answer is reported, not
// waited for.
#include "driver/compile_worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>

#include "analyzer/cancel.h"
#include "tests/support/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint {
namespace {

constexpr const char* kRace = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    tile[gl_LocalInvocationID.x] = x[gl_GlobalInvocationID.x];
    x[gl_GlobalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1) % 64];
}
)";

class CompileWorker : public testing::ScratchCwdTest {};

TEST_F(CompileWorker, AFileThatCrashesGlslangIsAFindingAndTheOthersAreLinted) {
  write("crash.hlsl", testing::kCrashesGlslang);
  write("race.comp", kRace);
  testing::KlintRun run = testing::run_klint({"--no-cache", "--format", "json", "crash.hlsl", "race.comp"}, "", 60);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["findings"].size(), 2u) << run.out;
  const nlohmann::json& crash = report["findings"][0];
  EXPECT_EQ(crash["rule"], "compile-error");
  EXPECT_EQ(crash["location"]["file"], "crash.hlsl");
  const std::string message = crash["message"];
  // SIGSEGV, or SIGABRT where AddressSanitizer catches the fault first.
  EXPECT_TRUE(message == "glslang's HLSL front end crashed compiling this file (signal 11, Segmentation fault); "
                         "klint cannot lint it" ||
              message == "glslang's HLSL front end crashed compiling this file (signal 6, Aborted); klint cannot lint it")
      << message;
  EXPECT_EQ(report["findings"][1]["rule"], "shared-memory-race");
}

// The same file in process is what the worker keeps klint from: the test
// would crash, so it only checks that the worker's answer for a good file is
// what compile() gives in process.
TEST_F(CompileWorker, AWorkersAnswerIsWhatCompileGives) {
  set_compile_isolation(CompileIsolation{{KLINT_BINARY, "--compile-worker"}, 60});
  SourceCache isolated_sources, local_sources;
  CompiledShader isolated = compile_isolated("race.comp", kRace, Language::Glsl, CompileOptions{}, isolated_sources);
  set_compile_isolation(CompileIsolation{});
  CompiledShader local = compile("race.comp", kRace, Language::Glsl, CompileOptions{}, local_sources);
  EXPECT_TRUE(isolated.ok);
  EXPECT_EQ(isolated.spirv, local.spirv);
  EXPECT_EQ(isolated.files, local.files);
  EXPECT_EQ(isolated.diagnostics.size(), local.diagnostics.size());
  ASSERT_NE(isolated_sources.get("race.comp"), nullptr);
}

TEST_F(CompileWorker, AWorkerThatHangsIsKilledAtTheTimeLimit) {
  set_compile_isolation(CompileIsolation{{"/bin/sleep", "30"}, 0.5});
  SourceCache sources;
  const auto start = std::chrono::steady_clock::now();
  CompiledShader compiled = compile_isolated("race.comp", kRace, Language::Glsl, CompileOptions{}, sources);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  set_compile_isolation(CompileIsolation{});
  EXPECT_FALSE(compiled.ok);
  ASSERT_EQ(compiled.diagnostics.size(), 1u);
  EXPECT_EQ(compiled.diagnostics[0].message,
            "glslang's GLSL front end did not finish compiling this file within 0.5 s");
  EXPECT_LT(seconds, 10);
}

// A lint that was asked to stop (an edit in the language server made it
// stale) stops waiting for its worker, which is killed, and says so.
TEST_F(CompileWorker, ALintAskedToStopStopsWaitingForItsWorker) {
  set_compile_isolation(CompileIsolation{{"/bin/sleep", "30"}, 600});
  SourceCache sources;
  std::atomic<bool> stop{true};
  CompiledShader compiled;
  {
    cancel::Scope scope(stop);
    compiled = compile_isolated("race.comp", kRace, Language::Glsl, CompileOptions{}, sources);
  }
  set_compile_isolation(CompileIsolation{});
  EXPECT_FALSE(compiled.ok);
  ASSERT_EQ(compiled.diagnostics.size(), 1u);
  EXPECT_EQ(compiled.diagnostics[0].message, "the lint was cancelled while glslang compiled");
  // Outside the scope, nothing asks: the next compile is a whole one.
  EXPECT_TRUE(compile_isolated("race.comp", kRace, Language::Glsl, CompileOptions{}, sources).ok);
}

TEST_F(CompileWorker, AWorkerThatLeavesWithoutAnAnswerIsReported) {
  set_compile_isolation(CompileIsolation{{"/bin/true"}, 10});
  SourceCache sources;
  CompiledShader compiled = compile_isolated("race.comp", kRace, Language::Glsl, CompileOptions{}, sources);
  // SPIR-V assembly never goes to a worker: SPIRV-Tools reads it in process.
  CompiledShader assembly =
      compile_isolated("k.spvasm", "OpNope\n", Language::SpirvAssembly, CompileOptions{}, sources);
  set_compile_isolation(CompileIsolation{{"/nonexistent/klint"}, 10});
  CompiledShader missing = compile_isolated("race.comp", kRace, Language::Glsl, CompileOptions{}, sources);
  set_compile_isolation(CompileIsolation{});
  ASSERT_EQ(compiled.diagnostics.size(), 1u);
  EXPECT_EQ(compiled.diagnostics[0].message, "the compiler worker ended without an answer (exited with status 0)");
  ASSERT_EQ(missing.diagnostics.size(), 1u);
  EXPECT_EQ(missing.diagnostics[0].message,
            "cannot start the compiler worker /nonexistent/klint: No such file or directory");
  ASSERT_EQ(assembly.diagnostics.size(), 1u);
  EXPECT_EQ(assembly.diagnostics[0].message.find("compiler worker"), std::string::npos)
      << assembly.diagnostics[0].message;
}

// The worker's messages carry a protocol version: a worker that speaks
// another (one left from an older klint) is refused, not misread. This stand-in
// answers {"version": 2} in CBOR, framed, on the worker's socket (fd 3).
TEST_F(CompileWorker, AnAnswerInAnotherProtocolVersionIsRefused) {
  set_compile_isolation(CompileIsolation{
      {"/bin/bash", "-c", R"(printf '\x0a\x00\x00\x00\x00\x00\x00\x00\xa1\x67version\x03' >&3; sleep 10)"}, 10});
  SourceCache sources;
  CompiledShader compiled = compile_isolated("race.comp", kRace, Language::Glsl, CompileOptions{}, sources);
  set_compile_isolation(CompileIsolation{});
  EXPECT_FALSE(compiled.ok);
  ASSERT_EQ(compiled.diagnostics.size(), 1u);
  EXPECT_EQ(compiled.diagnostics[0].message,
            "the compiler worker's answer is not one klint reads: it speaks version 3 of the protocol, not 2");
}

// The texts of included files, and which file included which, come back from
// the worker as it compiled them.
TEST_F(CompileWorker, IncludedTextsComeFromTheWorker) {
  write("common.h", "#define TILE 16\n");
  const std::string main = "#version 450\n#include \"common.h\"\nlayout(local_size_x = TILE) in;\nvoid main() {}\n";
  set_compile_isolation(CompileIsolation{{KLINT_BINARY, "--compile-worker"}, 60});
  SourceCache sources;
  CompiledShader compiled =
      compile_isolated(path("main.comp").string(), main, Language::Glsl, CompileOptions{}, sources);
  set_compile_isolation(CompileIsolation{});
  ASSERT_TRUE(compiled.ok);
  ASSERT_EQ(compiled.files.size(), 2u);
  std::filesystem::remove(path("common.h"));  // what the parent shows is what was compiled
  const SourceFile* included = sources.get(compiled.files[1]);
  ASSERT_NE(included, nullptr) << compiled.files[1];
  EXPECT_EQ(included->text(), "#define TILE 16\n");
  EXPECT_EQ(compiled.includes, std::vector<Inclusion>({{path("main.comp").string(), "common.h", compiled.files[1]}}));
}

// An idle worker of one command is not reused after the command changes:
// ctest runs each test in a process of its own, so this test makes the change
// within one.
TEST_F(CompileWorker, ChangingTheCommandEndsTheIdleWorkers) {
  set_compile_isolation(CompileIsolation{{KLINT_BINARY, "--compile-worker"}, 60});
  SourceCache sources;
  CompiledShader first = compile_isolated("race.comp", kRace, Language::Glsl, CompileOptions{}, sources);
  set_compile_isolation(CompileIsolation{{"/bin/true"}, 10});
  CompiledShader second = compile_isolated("race.comp", kRace, Language::Glsl, CompileOptions{}, sources);
  set_compile_isolation(CompileIsolation{});
  EXPECT_TRUE(first.ok);
  ASSERT_EQ(second.diagnostics.size(), 1u);
  EXPECT_EQ(second.diagnostics[0].message, "the compiler worker ended without an answer (exited with status 0)");
}

}  // namespace
}  // namespace klint
