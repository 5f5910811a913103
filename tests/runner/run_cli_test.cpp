// `klint run` as a user runs it: the report, the verdict and the exit codes.
#include <gtest/gtest.h>

#include <fmt/core.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "runner/harness.h"
#include "tests/runner/kernels.h"
#include "tests/support/run.h"

namespace klint {
namespace {

namespace fs = std::filesystem;
using testing::KlintRun;
using testing::run_klint;

const char* kTwice = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint values[]; } out_;
void main() { out_.values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 2u; }
)";

const char* kPastTheEnd = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint values[4]; } out_;
void main() { out_.values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 2u; }
)";

// The workgroup's width from a specialization constant, stored per invocation.
const char* kSpecialized = R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WIDTH = 4;
layout(set = 0, binding = 0) writeonly buffer Out { uint values[]; } out_;
void main() { out_.values[gl_GlobalInvocationID.x] = gl_WorkGroupSize.x; }
)";

// Sizes in push constants: each invocation below n stores its id times scale.
const char* kSized = R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; float scale; } p;
layout(set = 0, binding = 0) writeonly buffer Out { float values[]; } out_;
void main() {
    if (gl_GlobalInvocationID.x < p.n) out_.values[gl_GlobalInvocationID.x] = float(gl_GlobalInvocationID.x) * p.scale;
}
)";

// The same with the sizes in a uniform block, inside a struct.
const char* kSizedUniform = R"(#version 450
layout(local_size_x = 64) in;
struct Sizes { uint n; float scale; };
layout(set = 0, binding = 1) uniform Params { Sizes sizes; vec4 tint; } p;
layout(set = 0, binding = 0) writeonly buffer Out { float values[]; } out_;
void main() {
    if (gl_GlobalInvocationID.x < p.sizes.n) out_.values[gl_GlobalInvocationID.x] = float(gl_GlobalInvocationID.x) * p.sizes.scale;
}
)";

class RunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("klint-run-cli-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  KlintRun klint(std::vector<std::string> args) {
    args.insert(args.begin(), "run");
    return run_klint(args, dir_.string());
  }

  fs::path dir_;
};

// The device line names the machine's device (lavapipe's build, in CI); the
// rest is exact.
std::string without_device(const std::string& out) {
  size_t at = out.find("device: ");
  if (at == std::string::npos) return out;
  return out.substr(0, at) + out.substr(out.find('\n', at) + 1);
}

TEST_F(RunCli, CompletedRunReportsEachBuffer) {
  write("twice.comp", kTwice);
  KlintRun run = klint({"twice.comp", "--grid", "2"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\ndevice: " + runner::testing::default_device_name() + "\n"), std::string::npos) << run.out;
  EXPECT_EQ(without_device(run.out),
            "twice.comp: entry point main, workgroup 64,1,1, grid 2,1,1, seed 1\n"
            "guessed: grid 2,1,1 workgroups\n"
            "guessed: binding 0.0 (out_): 16384 elements of its runtime array values\n"
            "guessed: binding 0.0 (out_): only written, every word starts as the sentinel 0x7ff57ff5\n"
            "binding 0.0 out_ (storage-buffer, 65536 bytes): 16256 of 16384 words never written; "
            "first: 0 2 4 6 8 10 12 14 ...\n"
            "verdict: completed\n");
}

// A buffer the kernel reads as well starts with the seeded floats: its report
// counts the words that changed, and unwritten words show their old values.
TEST_F(RunCli, ReadAndWrittenBufferCountsChangedWords) {
  write("halve.comp", R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Data { float values[8]; } data;
void main() { data.values[gl_GlobalInvocationID.x] = data.values[gl_GlobalInvocationID.x] * 0.0 + 1.0; }
)");
  KlintRun run = klint({"halve.comp"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  runner::SplitMix64 random(1);
  std::string rest;
  for (int i = 0; i < 8; ++i) {
    const float value = random.next_float();
    if (i >= 4) rest += fmt::format(" {:g}", value);
  }
  EXPECT_EQ(without_device(run.out),
            "halve.comp: entry point main, workgroup 4,1,1, grid 1,1,1, seed 1\n"
            "guessed: grid 1,1,1 workgroups\n"
            "guessed: buffer contents: every 32-bit word a float in [-1,1] from seed 1\n"
            "binding 0.0 data (storage-buffer, 32 bytes): 4 of 8 words changed; first: 1 1 1 1" + rest + "\n"
            "verdict: completed\n");
}

TEST_F(RunCli, WriteOutOfBoundsExitsOne) {
  write("past.comp", kPastTheEnd);
  KlintRun run = klint({"past.comp", "--seed", "9"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(without_device(run.out),
            "past.comp: entry point main, workgroup 64,1,1, grid 1,1,1, seed 9\n"
            "guessed: grid 1,1,1 workgroups\n"
            "guessed: binding 0.0 (out_): only written, every word starts as the sentinel 0x7ff57ff5\n"
            "binding 0.0 out_ (storage-buffer, 16 bytes): 0 of 4 words never written; first: 0 2 4 6\n"
            "  out of bounds: 240 guard bytes after binding 0.0 out_ changed (bytes 16..255)\n"
            "verdict: completed, out of bounds: wrote past 1 buffer guard\n");
}

TEST_F(RunCli, EndlessKernelTimesOutAndExitsOne) {
  write("endless.comp", runner::testing::kEndlessKernel);
  KlintRun run = klint({"endless.comp", "--timeout", "1", "--grid", "65535,65535"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.out.find("\nverdict: timed out after 1 s\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("device:"), std::string::npos) << run.out;
}

// The processes whose parent is `parent` and whose command line ends in
// `--run-worker`.
std::vector<pid_t> run_workers_of(pid_t parent) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    // pid (comm) state ppid ...
    const size_t close = text.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(text.substr(close + 1));
    std::string state;
    pid_t ppid = 0;
    rest >> state >> ppid;
    std::ifstream cmdline(entry.path() / "cmdline");
    std::string words((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
    if (ppid == parent && words.ends_with(std::string("--run-worker") + '\0')) out.push_back(std::stoi(name));
  }
  return out;
}

// Gone, or ended and waiting for its new parent to reap it.
bool ended(pid_t pid) {
  std::ifstream stat(fmt::format("/proc/{}/stat", pid));
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');
  return close == std::string::npos || text.substr(close + 2, 1) == "Z";
}

// A klint killed while a kernel runs (a CI job's or a test's timeout) takes
// the worker running the kernel with it.
TEST_F(RunCli, AKilledKlintLeavesNoWorkerRunningTheKernel) {
  write("endless.comp", runner::testing::kEndlessKernel);
  const std::string file = (dir_ / "endless.comp").string();
  const pid_t klint = fork();
  ASSERT_GE(klint, 0);
  if (klint == 0) {
    freopen("/dev/null", "w", stdout);
    execl(KLINT_BINARY, KLINT_BINARY, "run", file.c_str(), "--timeout", "60", "--grid", "65535,65535",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  std::vector<pid_t> workers;
  for (int i = 0; i < 300 && workers.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    workers = run_workers_of(klint);
  }
  // Well into the dispatch: a worker still making the pipeline would die
  // of the closed pipe at its first write.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  kill(klint, SIGKILL);
  int status = 0;
  waitpid(klint, &status, 0);
  ASSERT_EQ(workers.size(), 1u);
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gone = ended(workers[0]);
  }
  EXPECT_TRUE(gone) << "worker " << workers[0] << " outlived klint";
  if (!gone) kill(workers[0], SIGKILL);
}

// Without --specialization a constant keeps its declared default, also the
// one that sets the workgroup's width (glslang's own constant for
// local_size_x_id defaults to 1); with it, the value given.
TEST_F(RunCli, SpecializationConstantsTakeTheirDefaultsOrTheValuesGiven) {
  write("spec.comp", kSpecialized);
  KlintRun plain = klint({"spec.comp"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("spec.comp: entry point main, workgroup 4,1,1, grid 1,1,1, seed 1\n"), std::string::npos)
      << plain.out;
  EXPECT_NE(plain.out.find("16380 of 16384 words never written; first: 4 4 4 4 - - - -"), std::string::npos) << plain.out;
  KlintRun given = klint({"spec.comp", "--specialization", "WIDTH=2,0=3"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_NE(given.out.find("workgroup 3,1,1"), std::string::npos) << given.out;
  EXPECT_NE(given.out.find("16381 of 16384 words never written; first: 3 3 3 - - - - -"), std::string::npos) << given.out;
}

// --push-constants sets members by name, the others stay 0; runtime arrays
// get one past the largest index the dispatch reaches at those values.
TEST_F(RunCli, PushConstantsTakeTheValuesGiven) {
  write("sized.comp", kSized);
  KlintRun zero = klint({"sized.comp"});
  ASSERT_EQ(zero.exit_code, 0) << zero.err;
  EXPECT_NE(zero.out.find("16384 of 16384 words never written"), std::string::npos) << zero.out;
  KlintRun given = klint({"sized.comp", "--push-constants", "n=3,scale=0.5"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_NE(given.out.find("guessed: binding 0.0 (out_): 64 elements of its runtime array values, one past the "
                           "largest index the kernel reaches in this setup\n"),
            std::string::npos)
      << given.out;
  EXPECT_NE(given.out.find("61 of 64 words never written; first: 0 0.5 1 - - - - -"), std::string::npos) << given.out;
  KlintRun only_n = klint({"sized.comp", "--push-constants", "n=100000", "--grid", "2"});
  ASSERT_EQ(only_n.exit_code, 0) << only_n.err;
  EXPECT_NE(only_n.out.find("guessed: push constants: 0 for scale\n"), std::string::npos) << only_n.out;
  EXPECT_NE(only_n.out.find("guessed: binding 0.0 (out_): 128 elements of its runtime array values, one past"),
            std::string::npos)
      << only_n.out;
  EXPECT_NE(only_n.out.find("0 of 128 words never written; first: 0 0 0"), std::string::npos) << only_n.out;
}

// A buffer of row ids that index another: with the sizes given, its words
// are integers that keep the gather inside the buffer it reads (16384 floats
// guessed, rows of 256: ids below 64), not float bits.
TEST_F(RunCli, IndexBuffersHoldIndicesInsideTheArrayTheyIndex) {
  write("gather.comp", R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint cols; } p;
layout(std430, binding = 0) readonly buffer Ids { uint ids[]; };
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };
void main() {
    uint row = gl_WorkGroupID.x;
    for (uint c = gl_LocalInvocationID.x; c < p.cols; c += 64u) y[row * p.cols + c] = x[ids[row] * p.cols + c];
}
)");
  KlintRun run = klint({"gather.comp", "--push-constants", "cols=256", "--grid", "2"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("guessed: binding 0.0 (Ids): its words index 'x' at line 9, so every word an integer in "
                         "[0, 64)\n"),
            std::string::npos)
      << run.out;
  // The rows the two workgroups write, every element of them, and one step
  // of the loop past them (its counter where the test ends it).
  EXPECT_NE(run.out.find("guessed: binding 0.2 (Y): 576 elements of its runtime array y, one past the largest index"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("binding 0.2 Y (storage-buffer, 2304 bytes): 64 of 576 words never written"),
            std::string::npos)
      << run.out;
  const size_t ids = run.out.find("binding 0.0 Ids (storage-buffer");
  ASSERT_NE(ids, std::string::npos) << run.out;
  const size_t shown_from = run.out.find("first:", ids) + 6;
  std::istringstream first(run.out.substr(shown_from, run.out.find('\n', ids) - shown_from));
  int shown = 0;
  for (std::string word; first >> word && word != "...";) {
    EXPECT_LT(std::stoul(word), 64u) << run.out;
    ++shown;
  }
  EXPECT_GT(shown, 0) << run.out;
}

// --uniforms sets members of uniform blocks by their path; the rest of the
// block keeps its seeded contents.
TEST_F(RunCli, UniformsTakeTheValuesGiven) {
  write("sized.comp", kSizedUniform);
  KlintRun given = klint({"sized.comp", "--uniforms", "sizes.n=3,sizes.scale=0.5"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_NE(given.out.find("16381 of 16384 words never written; first: 0 0.5 1 - - - - -"), std::string::npos)
      << given.out;
}

TEST_F(RunCli, BadInputIsOneLineAndExitsTwo) {
  write("broken.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { nope; }\n");
  write("image.comp", "#version 450\nlayout(local_size_x = 1) in;\n"
                      "layout(binding = 0, r32f) uniform image2D picture;\n"
                      "layout(binding = 0) uniform texture2D shade;\n"
                      "void main() { imageStore(picture, ivec2(0), vec4(1)); }\n");
  write("twice.comp", kTwice);
  write("spec.comp", kSpecialized);
  write("sized.comp", kSized);
  write("uniform.comp", kSizedUniform);
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const std::vector<Case> cases{
      {{"missing.comp"}, "klint: error: missing.comp: "},
      {{"broken.comp"}, "klint: error: broken.comp: does not compile: line 3: "},
      {{"image.comp"}, "klint: error: image.comp: binding 0.0 is declared 2 times (picture storage-image, shade "
                       "sampled-image): one pipeline cannot bind them; give each its own binding (for HLSL registers, "
                       "[[vk::binding]] or the compiler's binding shifts)\n"},
      {{"twice.comp", "--grid", "1,0"}, "klint: error: twice.comp: --grid '1,0' is not X,Y,Z of positive integers\n"},
      {{"twice.comp", "--grid", "1,2,3,4"}, "klint: error: twice.comp: --grid '1,2,3,4' is not X,Y,Z of positive "
                                            "integers\n"},
      {{"twice.comp", "--timeout", "0"}, "klint: error: --timeout: '0' is not a number of seconds above 0\n"},
      {{"twice.comp", "--device", "1000"}, "klint: error: twice.comp: device 1000 is out of range: "},
      {{"twice.comp", "--seed", "x"}, "klint: error: "},
      {{"twice.comp", "--specialization", "0=1"},
       "klint: error: twice.comp: --specialization '0=1': no specialization constant with constant_id '0'; the kernel "
       "has none\n"},
      {{"spec.comp", "--specialization", "WIDHT=1"},
       "klint: error: spec.comp: --specialization 'WIDHT=1': no specialization constant 'WIDHT' (did you mean "
       "'WIDTH'?); it has 0 (WIDTH)\n"},
      {{"spec.comp", "--specialization", "WIDTH"},
       "klint: error: spec.comp: --specialization 'WIDTH': 'WIDTH' is not CONSTANT=NUMBER\n"},
      {{"spec.comp", "--specialization", "WIDTH=-2"},
       "klint: error: spec.comp: --specialization 'WIDTH=-2': specialization constant 'WIDTH' is a uint: "},
      {{"sized.comp", "--push-constants", "scael=1"},
       "klint: error: sized.comp: --push-constants 'scael=1': the push constants of main have no member 'scael' "
       "(did you mean 'scale'?); it has n, scale\n"},
      {{"sized.comp", "--push-constants", "n"}, "klint: error: sized.comp: --push-constants 'n': 'n' is not "
                                                "MEMBER=NUMBER\n"},
      {{"sized.comp", "--push-constants", "n=-1"},
       "klint: error: sized.comp: --push-constants 'n=-1': push constant 'n' is a uint: -1 is out of its range\n"},
      {{"sized.comp", "--push-constants", "n=1.5"},
       "klint: error: sized.comp: --push-constants 'n=1.5': push constant 'n' is a uint: 1.5 is not an integer\n"},
      {{"uniform.comp", "--uniforms", "sizes.m=1"},
       "klint: error: uniform.comp: --uniforms 'sizes.m=1': no uniform block of main has a member 'sizes.m'\n"},
      {{"uniform.comp", "--uniforms", "tint=1"},
       "klint: error: uniform.comp: --uniforms 'tint=1': uniform 'tint' is a vec4: only scalar members can be set\n"},
      {{"uniform.comp", "--uniforms", "sizes.n=-1"},
       "klint: error: uniform.comp: --uniforms 'sizes.n=-1': uniform 'sizes.n' is a uint: -1 is out of its range\n"},
      {{"uniform.comp", "--uniforms", "sizes.n"},
       "klint: error: uniform.comp: --uniforms 'sizes.n': 'sizes.n' is not PATH=NUMBER\n"},
      {{"twice.comp", "--push-constants", "n=1"},
       "klint: error: twice.comp: --push-constants 'n=1': main has no push constants\n"},
      {{}, "klint: error: "},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args.empty() ? "(no file)" : c.args[0] + " " + (c.args.size() > 1 ? c.args[1] : ""));
    KlintRun run = klint(c.args);
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_EQ(run.out, "");
    EXPECT_TRUE(run.err.starts_with(c.err)) << run.err;
    EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << "not one line: " << run.err;
  }
}

}  // namespace
}  // namespace klint
