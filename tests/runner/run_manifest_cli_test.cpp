// `klint run` with a [[kernel]] manifest in klint.toml: one report per shape,
// --shape, the sentinel count of words never written, the exit status of the
// worst shape, and manifests that do not fit the kernel.
#include <gtest/gtest.h>

#include "runner/harness.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint {
namespace {

using testing::KlintRun;
using testing::run_klint;

// Writes the first n elements of y, whatever its size.
const char* kFirstN = R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint n; } p;
layout(set = 0, binding = 0) writeonly buffer Y { uint y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) y[i] = i * 3u;
}
)";

const char* kFirstNManifest = R"toml([[kernel]]
file = "first_n.comp"
variables = ["n", "m"]
matrix = [[5, 16], [100, 256]]
grid = ["ceildiv(m, 64)"]
push-constants = { n = "n" }
buffers = { Y = "m" }
)toml";

class RunManifestCli : public testing::ScratchDirTest {
 protected:
  KlintRun klint(std::vector<std::string> args) {
    args.insert(args.begin(), "run");
    return run_klint(args, path().string());
  }
};

// Device lines name the machine's Vulkan driver; the rest is exact.
std::string without_devices(const std::string& out) {
  std::string kept;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    end = end == std::string::npos ? out.size() : end + 1;
    if (out.compare(start, 8, "device: ") != 0) kept += out.substr(start, end - start);
    start = end;
  }
  return kept;
}

TEST_F(RunManifestCli, RunsEveryShapeAndCountsWordsNeverWritten) {
  write("first_n.comp", kFirstN);
  write("klint.toml", kFirstNManifest);
  KlintRun run = klint({"first_n.comp"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(testing::occurrences(run.out, "\ndevice: "), 2u) << run.out;
  EXPECT_EQ(without_devices(run.out),
            "first_n.comp: entry point main, workgroup 64,1,1, kernel klint.toml:1, 2 shapes\n"
            "shape n=5 m=16: grid 1,1,1, seed 1\n"
            "guessed: binding 0.0 (Y): only written, every word starts as the sentinel 0x7ff57ff5\n"
            "binding 0.0 Y (storage-buffer, 64 bytes): 11 of 16 words never written; first: 0 3 6 9 12 - - - ...\n"
            "verdict: completed\n"
            "shape n=100 m=256: grid 4,1,1, seed 1\n"
            "guessed: binding 0.0 (Y): only written, every word starts as the sentinel 0x7ff57ff5\n"
            "binding 0.0 Y (storage-buffer, 1024 bytes): 156 of 256 words never written; "
            "first: 0 3 6 9 12 15 18 21 ...\n"
            "verdict: completed\n");
  EXPECT_EQ(run.err.find("error"), std::string::npos) << run.err;
}

TEST_F(RunManifestCli, ShapeOptionRunsOneShapeOfAnyValues) {
  write("first_n.comp", kFirstN);
  write("klint.toml", kFirstNManifest);
  KlintRun run = klint({"first_n.comp", "--shape", "m=8,n=7"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(without_devices(run.out),
            "first_n.comp: entry point main, workgroup 64,1,1, kernel klint.toml:1, 1 shape\n"
            "shape n=7 m=8: grid 1,1,1, seed 1\n"
            "guessed: binding 0.0 (Y): only written, every word starts as the sentinel 0x7ff57ff5\n"
            "binding 0.0 Y (storage-buffer, 32 bytes): 1 of 8 words never written; first: 0 3 6 9 12 15 18 -\n"
            "verdict: completed\n");
}

TEST_F(RunManifestCli, CommandLineSeedAndGridWinOverTheManifest) {
  write("first_n.comp", kFirstN);
  write("klint.toml", std::string(kFirstNManifest) + "seed = 3\n");
  KlintRun run = klint({"first_n.comp", "--shape", "n=200,m=256", "--grid", "2", "--seed", "9"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\nshape n=200 m=256: grid 2,1,1, seed 9\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("): 128 of 256 words never written;"), std::string::npos) << run.out;
  run = klint({"first_n.comp", "--shape", "n=1,m=1"});
  EXPECT_NE(run.out.find("\nshape n=1 m=1: grid 1,1,1, seed 3\n"), std::string::npos) << run.out;
}

TEST_F(RunManifestCli, ConfigOptionWinsOverTheNearestKlintToml) {
  write("first_n.comp", kFirstN);
  write("klint.toml", std::string(kFirstNManifest) + "seed = 3\n");
  write("other.toml", "[[kernel]]\nfile = \"first_n.comp\"\nvariables = [\"n\", \"m\"]\nmatrix = [[1, 1]]\nseed = 5\n");
  KlintRun run = klint({"first_n.comp", "--config", "other.toml"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find(", kernel other.toml:1, 1 shape\nshape n=1 m=1: grid 1,1,1, seed 5\n"), std::string::npos)
      << run.out;
}

TEST_F(RunManifestCli, TheWorstShapeDecidesTheExitStatus) {
  write("four.comp", R"(#version 450
layout(local_size_x = 8) in;
layout(push_constant) uniform P { uint n; } p;
layout(set = 0, binding = 0) buffer Z { uint z[4]; };
void main() { if (gl_GlobalInvocationID.x < p.n) z[gl_GlobalInvocationID.x] = 7u; }
)");
  write("klint.toml", "[[kernel]]\nfile = \"four.comp\"\nvariables = [\"n\"]\nmatrix = [[4], [5], [2]]\n"
                      "push-constants = { n = \"n\" }\n");
  KlintRun run = klint({"four.comp"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(without_devices(run.out),
            "four.comp: entry point main, workgroup 8,1,1, kernel klint.toml:1, 3 shapes\n"
            "shape n=4: grid 1,1,1, seed 1\n"
            "guessed: grid 1,1,1 workgroups (the manifest gives no grid)\n"
            "guessed: binding 0.0 (Z): only written, every word starts as the sentinel 0x7ff57ff5\n"
            "binding 0.0 Z (storage-buffer, 16 bytes): 0 of 4 words never written; first: 7 7 7 7\n"
            "verdict: completed\n"
            "shape n=5: grid 1,1,1, seed 1\n"
            "guessed: grid 1,1,1 workgroups (the manifest gives no grid)\n"
            "guessed: binding 0.0 (Z): only written, every word starts as the sentinel 0x7ff57ff5\n"
            "binding 0.0 Z (storage-buffer, 16 bytes): 0 of 4 words never written; first: 7 7 7 7\n"
            "  out of bounds: 4 guard bytes after binding 0.0 Z changed (bytes 16..19)\n"
            "verdict: completed, out of bounds: wrote past 1 buffer guard\n"
            "shape n=2: grid 1,1,1, seed 1\n"
            "guessed: grid 1,1,1 workgroups (the manifest gives no grid)\n"
            "guessed: binding 0.0 (Z): only written, every word starts as the sentinel 0x7ff57ff5\n"
            "binding 0.0 Z (storage-buffer, 16 bytes): 2 of 4 words never written; first: 7 7 - -\n"
            "verdict: completed\n");
}

TEST_F(RunManifestCli, BadShapesAndManifestsAreOneLineAndExitTwo) {
  write("first_n.comp", kFirstN);
  write("plain.comp", kFirstN);
  write("klint.toml", std::string(kFirstNManifest) +
                          "\n[[kernel]]\nfile = \"plain.comp\"\nbuffers = { Yy = 4 }\n");
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const std::vector<Case> cases{
      {{"first_n.comp", "--shape", "n=1"}, "klint: error: first_n.comp: --shape 'n=1' gives no value for 'm'\n"},
      {{"first_n.comp", "--shape", "n=1,m=2,n=3"}, "klint: error: first_n.comp: --shape 'n=1,m=2,n=3': 'n' is given "
                                                   "twice\n"},
      {{"first_n.comp", "--shape", "n=1,k=2"}, "klint: error: first_n.comp: --shape 'n=1,k=2': 'k=2' is not "
                                               "VARIABLE=NUMBER for a variable of klint.toml:1\n"},
      {{"first_n.comp", "--shape", "n=x,m=1"}, "klint: error: first_n.comp: --shape 'n=x,m=1': 'n=x' is not "
                                               "VARIABLE=NUMBER for a variable of klint.toml:1\n"},
      {{"first_n.comp", "--shape", "n=0,m=-1"}, "klint: error: first_n.comp: klint.toml:5:9: 'ceildiv(m, 64)' is 0 "
                                                "for shape n=0 m=-1: workgroups must be an integer from 1 to "
                                                "4294967295\n"},
      {{"plain.comp"}, "klint: error: plain.comp: klint.toml:11:13: main has no binding 'Yy' (did you mean 'Y'?); it "
                       "has Y (0.0)\n"},
      {{"plain.comp", "--shape", "n=1"}, "klint: error: plain.comp: --shape: the [[kernel]] at klint.toml:9 declares "
                                         "no variables\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args.back());
    KlintRun run = klint(c.args);
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(run.err, c.err);
  }
  // Without a manifest, --shape has nothing to pick from.
  write("klint.toml", "");
  KlintRun run = klint({"first_n.comp", "--shape", "n=1"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "klint: error: first_n.comp: --shape needs a [[kernel]] table for the file in klint.toml\n");
  // A broken klint.toml stops the run as it stops linting.
  write("klint.toml", "[[kernel]]\nfile = \"first_n.comp\"\nbufers = {}\n");
  run = klint({"first_n.comp"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "klint: error: first_n.comp: klint.toml:3:1: unknown key 'bufers' in [[kernel]] (did you mean "
                     "'buffers'?)\n");
}

// y = 2x, off by 0.001 at one element: close but wrong.
constexpr const char* kDoubled = R"(#version 450
layout(local_size_x = 16) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) y[i] = x[i] * 2.0 + (i == OFF ? 0.001 : 0.0);
}
)";

std::string doubled(const std::string& off) {
  std::string text = kDoubled;
  text.replace(text.find("OFF"), 3, off);
  return text;
}

constexpr const char* kReferenceManifest = R"([[kernel]]
file = "k.comp"
variables = ["n"]
matrix = [[16]]
push-constants = { n = "n" }
buffers = { X = "n", Y = "n" }
reference = "ref.comp"
)";

TEST_F(RunManifestCli, OutputsAreComparedWithTheReferenceShader) {
  write("k.comp", doubled("99u"));  // never off: matches
  write("ref.comp", doubled("99u"));
  write("klint.toml", kReferenceManifest);
  KlintRun same = klint({"k.comp"});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("\nreference: 'Y' matches\nverdict: completed\n"), std::string::npos) << same.out;

  write("k.comp", doubled("3u"));
  KlintRun off = klint({"k.comp"});
  EXPECT_EQ(off.exit_code, 1) << off.out << off.err;
  EXPECT_NE(off.out.find("\nreference: 'Y' differs: word 3 is "), std::string::npos) << off.out;
  EXPECT_NE(off.out.find(", the reference's "), std::string::npos) << off.out;
  EXPECT_NE(off.out.find(" (1 word differs; close but wrong (max difference 0.001, mean 0.001))\n"
                         "verdict: completed, the outputs differ from what the manifest expects\n"),
            std::string::npos)
      << off.out;
}

// The expected file is the reference's output, bytes as the buffer holds them.
TEST_F(RunManifestCli, OutputsAreComparedWithExpectedFiles) {
  write("k.comp", doubled("99u"));
  write("klint.toml", "[[kernel]]\nfile = \"k.comp\"\nvariables = [\"n\"]\nmatrix = [[4]]\ngrid = [1]\n"
                      "push-constants = { n = \"n\" }\nbuffers = { X = \"n\", Y = \"n\" }\n"
                      "expected = { Y = \"y_{n}.bin\" }\n");
  KlintRun missing = klint({"k.comp"});
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
  EXPECT_NE(missing.err.find("expected output "), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("y_4.bin"), std::string::npos) << missing.err;

  // The inputs are splitmix64's first four floats from seed 1 (runner/harness.h).
  runner::SplitMix64 random(1);
  std::string bytes;
  for (int i = 0; i < 4; ++i) {
    const float y = random.next_float() * 2.0f;
    bytes.append(reinterpret_cast<const char*>(&y), 4);
  }
  write("y_4.bin", bytes);
  KlintRun same = klint({"k.comp"});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("\nexpected y_4.bin: 'Y' matches\n"), std::string::npos) << same.out;

  write("y_4.bin", bytes.substr(0, 8));
  KlintRun short_file = klint({"k.comp"});
  EXPECT_EQ(short_file.exit_code, 2) << short_file.out;
  EXPECT_NE(short_file.err.find("holds 8 bytes, 'Y' has 16"), std::string::npos) << short_file.err;

  const float wrong = -5.0f;
  bytes.replace(4, 4, reinterpret_cast<const char*>(&wrong), 4);
  write("y_4.bin", bytes);
  KlintRun off = klint({"k.comp"});
  EXPECT_EQ(off.exit_code, 1) << off.out;
  EXPECT_NE(off.out.find("\nexpected y_4.bin: 'Y' differs: word 1 is "), std::string::npos) << off.out;
  EXPECT_NE(off.out.find(", expected -5 (1 word differs; completely wrong"), std::string::npos) << off.out;
}

}  // namespace
}  // namespace klint
