// File names that are not ASCII, as every output names them: each finding's
// file is the path klint was given (or the include it resolved), never the
// bytes glslang wrote into OpString, which it sign-extends. A name that is not
// UTF-8 is shown escaped, and a baseline still matches it by its bytes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

using nlohmann::json;

constexpr const char* kDivergent = R"(#version 450
layout(local_size_x = 64) in;
void main() {
    uint i = gl_LocalInvocationID.x;
    if (i < 16) {
        barrier();
    }
}
)";

// The names of the issue: a Latin letter in two bytes, a folder with a space
// and two of them (whose bytes glslang spread over a '/'), and three-byte CJK.
const char* const kNames[] = {"naïve.comp", "dossier été/k.comp", "着色器.comp"};

class FileNames : public ScratchDirTest {
 protected:
  KlintRun klint(std::vector<std::string> args) { return run_klint(args, path().string()); }
};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// SARIF URIs percent-encode every byte outside RFC 3986's unreserved set.
std::string percent_encoded(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      constexpr char kHex[] = "0123456789ABCDEF";
      out += {'%', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return out;
}

TEST_F(FileNames, NonAsciiNamesReachTheTextHeaderAndItsNotes) {
  for (const char* name : kNames) {
    write(name, kDivergent);
    KlintRun run = klint({name});
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_EQ(first_line(run.out), std::string(name) +
                                       ":6:9: error: barrier in control flow that depends on gl_LocalInvocationID "
                                       "[barrier-in-divergent-control-flow]");
    EXPECT_NE(run.out.find(std::string(name) + ":5: note:"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("barrier();"), std::string::npos) << "the line is shown from the file:\n" << run.out;
  }
}

TEST_F(FileNames, NonAsciiNamesReachJsonSarifAndGithub) {
  for (const char* name : kNames) {
    write(name, kDivergent);
    json report = json::parse(klint({"--format=json", name}).out);
    ASSERT_EQ(report["findings"].size(), 1u) << report.dump(2);
    EXPECT_EQ(report["findings"][0]["location"]["file"], name);
    for (const json& note : report["findings"][0]["notes"]) EXPECT_EQ(note["location"]["file"], name);

    json sarif = json::parse(klint({"--format=sarif", name}).out);
    const json& location = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    EXPECT_EQ(location["artifactLocation"]["uri"], percent_encoded(name));
    EXPECT_EQ(location["region"]["startLine"], 6);

    KlintRun github = klint({"--format=github", name});
    EXPECT_EQ(first_line(github.out).rfind("::error file=" + std::string(name) + ",line=6,col=9,", 0), 0u) << github.out;
  }
}

TEST_F(FileNames, AnIncludedFileKeepsTheNameItWasFoundBy) {
  write("inc/été.glsl", "void wait_some(uint i) {\n    if (i < 16) {\n        barrier();\n    }\n}\n");
  write("main.comp", "#version 450\nlayout(local_size_x = 64) in;\n#include \"été.glsl\"\n"
                     "void main() { wait_some(gl_LocalInvocationID.x); }\n");
  KlintRun run = klint({"-I", "inc", "main.comp"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(first_line(run.out).rfind("inc/été.glsl:3:9: error: barrier", 0), 0u) << run.out;
}

TEST_F(FileNames, HlslNamesAreRestoredToo) {
  write("ünï.hlsl", "[numthreads(64, 1, 1)]\nvoid main(uint3 t : SV_GroupThreadID) {\n    if (t.x < 16) {\n"
                    "        GroupMemoryBarrierWithGroupSync();\n    }\n}\n");
  KlintRun run = klint({"ünï.hlsl"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(first_line(run.out).rfind("ünï.hlsl:4:", 0), 0u) << run.out;
}

// 0xFF is never UTF-8: shown as \xFF, kept as the byte where names are matched.
TEST_F(FileNames, ANameThatIsNotUtf8IsShownEscapedAndMatchedByItsBytes) {
  const std::string name = "raw\xff.comp";
  write(name, kDivergent);
  KlintRun text = klint({name});
  EXPECT_EQ(first_line(text.out).rfind("raw\\xFF.comp:6:9: error:", 0), 0u) << text.out;
  json report = json::parse(klint({"--format=json", name}).out);
  EXPECT_EQ(report["findings"][0]["location"]["file"], "raw\\xFF.comp");

  ASSERT_EQ(klint({"--write-baseline", "baseline.json", name}).exit_code, 0);
  json baseline = json::parse(read("baseline.json"));
  EXPECT_EQ(baseline["findings"][0]["file"], "raw\\xFF.comp");
  EXPECT_EQ(baseline["findings"][0]["file_bytes"], "726177ff2e636f6d70");
  KlintRun checked = klint({"--baseline", "baseline.json", name});
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_EQ(checked.out, "");
  // Another name that escapes the same way is another file.
  write("raw\\xFF.comp", kDivergent);
  EXPECT_EQ(klint({"--baseline", "baseline.json", "raw\\xFF.comp"}).exit_code, 1);
}

}  // namespace
}  // namespace klint::testing
