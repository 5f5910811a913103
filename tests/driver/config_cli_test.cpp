// klint.toml, variants and --commands as users run them: the configuration
// changes what is reported, variants merge their findings, a compile database
// lints each command, and bad configurations are one-line errors with exit 2
// while files under other configurations are still linted.
#include <gtest/gtest.h>

#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

// A race on `tile` (an error) and, with -DSPLIT, a barrier that only some
// invocations reach (another error); with -DWIDE a second race.
constexpr const char* kShader = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64];
void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i] = data[gl_GlobalInvocationID.x];
    float right = i + 1 < 64 ? tile[i + 1] : 0.0;
#ifdef SPLIT
    if (i < 16) {
        barrier();
    }
#endif
#ifdef WIDE
    right += i > 0 ? tile[i - 1] : 0.0;
#endif
    data[gl_GlobalInvocationID.x] = right;
}
)";

class ConfigCli : public ScratchDirTest {
 protected:
  KlintRun klint(std::vector<std::string> args) {
    args.insert(args.begin(), "--color=never");
    return run_klint(args, path().string());
  }
};

TEST_F(ConfigCli, WithoutAConfigurationEveryRuleRuns) {
  write("k.comp", kShader);
  KlintRun run = klint({"k.comp"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(occurrences(run.out, "[shared-memory-race]"), 1u) << run.out;
}

TEST_F(ConfigCli, IgnoreAndSeverityAreHonoured) {
  write("k.comp", kShader);
  write("klint.toml", "ignore = [\"shared-memory-race\"]\n");
  KlintRun ignored = klint({"k.comp"});
  EXPECT_EQ(ignored.exit_code, 0) << ignored.out;
  EXPECT_EQ(ignored.out, "");

  write("klint.toml", "[severity]\nshared-memory-race = \"note\"\n");
  KlintRun noted = klint({"k.comp"});
  EXPECT_EQ(noted.exit_code, 0) << noted.out;  // notes do not fail the run
  EXPECT_NE(noted.out.find("k.comp:8: note: data race on 'tile'"), std::string::npos) << noted.out;
}

TEST_F(ConfigCli, TheNearestConfigurationApplies) {
  write("k.comp", kShader);
  write("vendor/k.comp", kShader);
  write("klint.toml", "defines = [\"SPLIT\"]\n");
  write("vendor/klint.toml", "select = [\"barrier-in-divergent-control-flow\"]\n");
  KlintRun run = klint({"."});
  EXPECT_EQ(run.exit_code, 1);
  // The root's SPLIT reaches k.comp only; vendor's select leaves nothing to find there.
  EXPECT_EQ(occurrences(run.out, "k.comp:8: error"), 1u) << run.out;
  EXPECT_EQ(occurrences(run.out, "[barrier-in-divergent-control-flow]"), 1u) << run.out;
  EXPECT_EQ(run.out.find("vendor/k.comp"), std::string::npos) << run.out;
}

TEST_F(ConfigCli, OverridesApplyByGlob) {
  write("a/k.comp", kShader);
  write("b/k.comp", kShader);
  write("klint.toml", "[[overrides]]\nfiles = [\"a/**\"]\nignore = [\"shared-memory-race\"]\n");
  KlintRun run = klint({"."});
  EXPECT_EQ(run.out.find("a/k.comp"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("b/k.comp:8:"), std::string::npos) << run.out;
}

TEST_F(ConfigCli, TheCommandLineComesLast) {
  write("k.comp", kShader);
  write("klint.toml", "select = [\"barrier-in-divergent-control-flow\"]\ndefines = [\"SPLIT\"]\n");
  KlintRun run = klint({"--select", "shared-memory-race", "k.comp"});
  EXPECT_EQ(occurrences(run.out, "[shared-memory-race]"), 1u) << run.out;
  EXPECT_EQ(run.out.find("[barrier-in-divergent-control-flow]"), std::string::npos) << run.out;
}

TEST_F(ConfigCli, VariantsShareFindingsAndNameThem) {
  write("k.comp", kShader);
  write("klint.toml",
        "[[variants]]\nfiles = [\"k.comp\"]\nname = \"plain\"\n"
        "[[variants]]\nfiles = [\"k.comp\"]\nname = \"wide\"\ndefines = [\"WIDE\"]\n");
  KlintRun run = klint({"k.comp"});
  EXPECT_EQ(run.exit_code, 1);
  // The race on tile[i + 1] is in both variants, the one on tile[i - 1] in "wide" only.
  EXPECT_EQ(occurrences(run.out, "[shared-memory-race]"), 2u) << run.out;
  EXPECT_EQ(occurrences(run.out, "variants: plain, wide\n"), 1u) << run.out;
  EXPECT_EQ(occurrences(run.out, "variant: wide\n"), 1u) << run.out;
  EXPECT_NE(run.err.find("in 1 file"), std::string::npos) << run.err;
}

// A kernel whose size the host sets (no local_size) and whose subgroup size
// a constant holds: only the given size shows the neighbour race, only
// subgroups narrower than the workgroup the race on `total`.
constexpr const char* kHostSized = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(constant_id = 0) const uint SG = 64;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64];
shared float total;
void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i] = data[gl_GlobalInvocationID.x];
    float right = tile[(i + 1) % 64];
    float s = subgroupAdd(right);
    if (i % SG == 0) total = s;
    barrier();
    data[gl_GlobalInvocationID.x] = total;
}
)";

TEST_F(ConfigCli, WhatTheHostSetsComesFromTheCommandLineAndTheConfiguration) {
  write("k.comp", kHostSized);
  KlintRun plain = klint({"k.comp"});
  EXPECT_EQ(plain.exit_code, 0) << plain.out;
  EXPECT_NE(plain.err.find("declares no workgroup size"), std::string::npos) << plain.err;

  KlintRun sized = klint({"--workgroup-size", "64", "k.comp"});
  EXPECT_EQ(sized.exit_code, 1);
  EXPECT_EQ(occurrences(sized.out, "k.comp:10: error: data race on 'tile'"), 1u) << sized.out;
  EXPECT_NE(sized.err.find("klint analyzed it at 64x1x1, the size --workgroup-size gives"), std::string::npos)
      << sized.err;

  // One lint per width the targets run: 32 splits the workgroup in two subgroups, 64 does not.
  KlintRun widths = klint({"--workgroup-size=64", "--subgroup-size-constant=SG", "--target",
                           "nvidia-ampere,qualcomm-adreno-6xx", "--select", "shared-memory-race", "k.comp"});
  EXPECT_EQ(occurrences(widths.out, "[shared-memory-race]"), 2u) << widths.out;
  EXPECT_EQ(occurrences(widths.out, "variants: subgroup size 32, subgroup size 64\n"), 1u) << widths.out;
  EXPECT_EQ(occurrences(widths.out, "invocations 0 and 32 both write total"), 1u) << widths.out;
  EXPECT_EQ(occurrences(widths.out, "variant: subgroup size 32\n"), 1u) << widths.out;

  write("klint.toml",
        "[[overrides]]\nfiles = [\"k.comp\"]\nworkgroup-size = [64]\nspecialization = { SG = 16 }\n");
  KlintRun configured = klint({"--select", "shared-memory-race", "k.comp"});
  EXPECT_EQ(occurrences(configured.out, "invocations 0 and 16 both write total"), 1u) << configured.out;
  // The command line's value of a constant replaces the configuration's.
  KlintRun replaced = klint({"--select", "shared-memory-race", "--specialization", "0=64", "k.comp"});
  EXPECT_EQ(replaced.out.find("both write total"), std::string::npos) << replaced.out;
}

TEST_F(ConfigCli, AConstantTheFileLacksIsAnErrorForThatFile) {
  write("k.comp", kHostSized);
  write("l.comp", kShader);
  write("klint.toml", "specialization = { SG = 32 }\n");
  KlintRun run = klint({"k.comp", "l.comp"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("klint: error: l.comp: specialization 'SG' (klint.toml:1:20): no specialization constant "
                         "'SG'; the kernel has none"),
            std::string::npos)
      << run.err;
  KlintRun bad_size = klint({"--workgroup-size", "64,0", "k.comp"});
  EXPECT_EQ(bad_size.exit_code, 2);
  EXPECT_EQ(bad_size.err, "klint: error: --workgroup-size '64,0': a workgroup is at least 1 invocation in each axis\n");
  KlintRun on_reflect = klint({"reflect", "--workgroup-size", "64", "k.comp"});
  EXPECT_EQ(on_reflect.exit_code, 2);
  EXPECT_NE(on_reflect.err.find("--workgroup-size applies to linting, not to a subcommand"), std::string::npos)
      << on_reflect.err;
  // klint run gives the kernel the size as the host does (a replay of the
  // lint's runs needs it), checked as the lint checks it.
  KlintRun on_run = klint({"run", "--workgroup-size", "64,0", "k.comp"});
  EXPECT_EQ(on_run.exit_code, 2);
  EXPECT_NE(on_run.err.find("--workgroup-size '64,0': a workgroup is at least 1 invocation in each axis"),
            std::string::npos)
      << on_run.err;
}

TEST_F(ConfigCli, ShowConfigPrintsTheSettingsOfAFile) {
  write("k.comp", kShader);
  write("klint.toml", "defines = [\"TILE=16\"]\n[severity]\nredundant-barrier = \"note\"\n");
  KlintRun run = klint({"--show-config", "k.comp"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("# settings for k.comp"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("TILE=16"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("redundant-barrier = \"note\""), std::string::npos) << run.out;
}

// Which [[overrides]] tables made a file's settings, by their line and globs.
TEST_F(ConfigCli, ShowConfigNamesTheOverridesThatApply) {
  write("f16/k.comp", kShader);
  write("other.comp", kShader);
  write("klint.toml",
        "ignore = [\"shared-memory-race\"]\n"
        "\n"
        "[[overrides]]\n"
        "files = [\"f16/**\", \"*.glsl\"]\n"
        "ignore = []\n"
        "\n"
        "[[overrides]]\n"
        "files = [\"*.hlsl\"]\n"
        "defines = [\"HLSL\"]\n"
        "\n"
        "[[overrides]]\n"
        "files = [\"k.comp\"]\n"
        "defines = [\"SPLIT\"]\n");
  KlintRun run = klint({"--show-config", "f16/k.comp", "other.comp"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("# settings for f16/k.comp\n"
                         "# from klint.toml\n"
                         "# [[overrides]] at klint.toml:3 applies (files = [\"f16/**\", \"*.glsl\"])\n"
                         "# [[overrides]] at klint.toml:11 applies (files = [\"k.comp\"])\n"
                         "# select: every rule\n"
                         "ignore = []\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("# settings for other.comp\n"
                         "# from klint.toml\n"
                         "# no [[overrides]] applies (klint.toml has 3)\n"
                         "# select: every rule\n"
                         "ignore = [\"shared-memory-race\"]\n"),
            std::string::npos)
      << run.out;
}

TEST_F(ConfigCli, AnExplicitConfigReplacesTheNearestOne) {
  write("k.comp", kShader);
  write("klint.toml", "ignore = [\"shared-memory-race\"]\n");
  write("ci/strict.toml", "defines = [\"SPLIT\"]\n");
  KlintRun run = klint({"--config", "ci/strict.toml", "k.comp"});
  EXPECT_EQ(occurrences(run.out, "[shared-memory-race]"), 1u) << run.out;
  EXPECT_EQ(occurrences(run.out, "[barrier-in-divergent-control-flow]"), 1u) << run.out;
  KlintRun missing = klint({"--config", "nope.toml", "k.comp"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "klint: error: nope.toml: no such file or directory\n");
}

TEST_F(ConfigCli, ABadConfigurationIsOneErrorWithItsLineAndOtherFilesAreLinted) {
  write("bad/k.comp", kShader);
  write("bad/other.comp", kShader);
  write("bad/klint.toml", "# comment\nselectt = [\"shared-memory-race\"]\n");
  write("good/k.comp", kShader);
  KlintRun run = klint({"bad", "good"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(occurrences(run.err, "klint: error: bad/klint.toml:2:1: unknown key 'selectt'"), 1u) << run.err;
  EXPECT_EQ(run.out.find("bad/k.comp"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("good/k.comp:8:"), std::string::npos) << run.out;
}

TEST_F(ConfigCli, BadConfigurationsOfEveryKind) {
  write("k.comp", kShader);
  const std::pair<const char*, const char*> cases[] = {
      {"select = [\"shared-memory-race\"\n", "klint.toml:1:"},                   // TOML syntax
      {"ignore = \"shared-memory-race\"\n", "klint.toml:1:"},                    // wrong type
      {"ignore = [\"no-such-rule\"]\n", "klint.toml:1:"},                       // unknown rule
      {"\n[severity]\nredundant-barrier = \"fatal\"\n", "klint.toml:3:"},        // bad severity
      {"targets = [\"no-such-gpu\"]\n", "klint.toml:1:"},                       // unknown target
      {"[[overrides]]\nfiles = [\"a**\"]\nignore = []\n", "klint.toml:2:"},     // bad glob
  };
  for (const auto& [text, place] : cases) {
    write("klint.toml", text);
    KlintRun run = klint({"k.comp"});
    EXPECT_EQ(run.exit_code, 2) << text;
    // One error line, then the summary.
    EXPECT_EQ(occurrences(run.err, "klint: error: "), 1u) << text << run.err;
    EXPECT_TRUE(run.err.starts_with(std::string("klint: error: ") + place)) << text << run.err;
    EXPECT_NE(run.err.find("\nnothing linted (1 input error)\n"), std::string::npos) << run.err;
  }
}

TEST_F(ConfigCli, CompileCommandsLintEachCommandAsAVariant) {
  write("shaders/k.comp", kShader);
  write("build.txt",
        "# what the build runs\n"
        "glslc -fshader-stage=compute --target-env=vulkan1.2 shaders/k.comp -o out/k_plain.spv\n"
        "glslangValidator -V --target-env vulkan1.2 -DWIDE \\\n    shaders/k.comp -o out/k_wide.spv\n");
  KlintRun run = klint({"--commands", "build.txt"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(occurrences(run.out, "[shared-memory-race]"), 2u) << run.out;
  EXPECT_EQ(occurrences(run.out, "variants: k_plain, k_wide\n"), 1u) << run.out;
  EXPECT_EQ(occurrences(run.out, "variant: k_wide\n"), 1u) << run.out;
}

TEST_F(ConfigCli, CompileCommandsAsJson) {
  write("shaders/k.comp", kShader);
  write("build/compile_commands.json",
        R"([{"directory": ")" + path("build").string() +
            R"(", "arguments": ["glslc", "-DSPLIT", "../shaders/k.comp", "-o", "k.spv"]},
            {"directory": "/tmp", "command": "c++ -c main.cpp", "file": "main.cpp"}])");
  KlintRun run = klint({"--commands", "build/compile_commands.json"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(occurrences(run.out, "[barrier-in-divergent-control-flow]"), 1u) << run.out;
  EXPECT_EQ(run.out.find("variant"), std::string::npos) << run.out;  // one command: no variant to name
}

TEST_F(ConfigCli, ABadCompileCommandIsAnErrorWithItsLine) {
  write("shaders/k.comp", kShader);
  write("build.txt", "glslc shaders/k.comp -o k.spv\nglslc -fbogus shaders/k.comp\n");
  KlintRun run = klint({"--commands", "build.txt"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(run.err.starts_with("klint: error: build.txt:2:")) << run.err;
  EXPECT_EQ(occurrences(run.err, "\n"), 1u) << run.err;
  KlintRun missing = klint({"--commands", "nope.txt"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nope.txt"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace klint::testing
