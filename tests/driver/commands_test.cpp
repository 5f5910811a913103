// --commands: glslc and glslangValidator command lines and compile_commands.json
// read into the jobs klint lints, and every malformed input reported with its line.
#include "driver/commands.h"

#include <gtest/gtest.h>

#include "analyzer/source.h"
#include "tests/support/scratch.h"

namespace klint {
namespace {

using Defines = std::vector<std::pair<std::string, std::string>>;
using Strings = std::vector<std::string>;

class CommandsTest : public testing::ScratchCwdTest {
 protected:
  CompileCommands read(const std::string& text, const std::string& path = "cmds.txt") {
    write(path, text);
    std::string error;
    std::optional<CompileCommands> commands = read_commands(path, &error);
    EXPECT_TRUE(commands) << error;
    return commands.value_or(CompileCommands{});
  }
  std::string error_for(const std::string& text, const std::string& path = "cmds.txt") {
    write(path, text);
    std::string error;
    EXPECT_FALSE(read_commands(path, &error)) << text;
    return error;
  }
};

TEST_F(CommandsTest, GlslcLineWithQuotesAndContinuation) {
  CompileCommands commands = read(
      "# shaders of the build\n"
      "\n"
      "glslc -fshader-stage=compute --target-env=vulkan1.2 '-DNAME=a b' -DTILE=16 -I inc -Iinc2 \\\n"
      "    -O -g \"shaders/mul mat.comp\" -o out/mul_mat_f16.spv   # trailing comment\n"
      "/usr/bin/glslc -c -DX k.comp -mfmt=c --target-spv=spv1.5 -MD -MF k.d\n");
  ASSERT_EQ(commands.jobs.size(), 2u);
  const CompileJob& first = commands.jobs[0];
  EXPECT_EQ(first.file, "shaders/mul mat.comp");
  EXPECT_EQ(first.language, Language::Glsl);
  EXPECT_EQ(first.options.defines, (Defines{{"NAME", "a b"}, {"TILE", "16"}}));
  EXPECT_EQ(first.options.include_dirs, (Strings{"inc", "inc2"}));
  EXPECT_EQ(first.options.target_env, TargetEnv::Vulkan1_2);
  EXPECT_TRUE(first.options.force_compute);
  EXPECT_EQ(first.variant, "mul_mat_f16");
  EXPECT_EQ(first.origin, "cmds.txt:3");
  const CompileJob& second = commands.jobs[1];
  EXPECT_EQ(second.file, "k.comp");
  EXPECT_EQ(second.options.target_env, TargetEnv::Vulkan1_0);  // glslc's default
  EXPECT_FALSE(second.options.force_compute);
  EXPECT_EQ(second.variant, "-DX");
  EXPECT_EQ(second.origin, "cmds.txt:5");
  EXPECT_TRUE(commands.skipped.empty());
}

TEST_F(CommandsTest, GlslcOptionsApplyToTheFilesAfterThem) {
  CompileCommands commands =
      read("glslc -c a.comp -x hlsl -fentry-point=CSMain -fshader-stage=comp b.txt -fshader-stage=vertex c.txt\n");
  ASSERT_EQ(commands.jobs.size(), 2u);
  EXPECT_EQ(commands.jobs[0].language, Language::Glsl);
  EXPECT_EQ(commands.jobs[0].options.entry_point, "main");
  EXPECT_EQ(commands.jobs[1].file, "b.txt");
  EXPECT_EQ(commands.jobs[1].language, Language::Hlsl);
  EXPECT_EQ(commands.jobs[1].options.entry_point, "CSMain");
  ASSERT_EQ(commands.skipped.size(), 1u);
  EXPECT_EQ(commands.skipped[0].path, "c.txt");
  EXPECT_EQ(commands.skipped[0].reason, "not a compute shader (vertex stage); skipped");
  EXPECT_FALSE(commands.skipped[0].is_error);
}

TEST_F(CommandsTest, GlslangValidatorSpellings) {
  CompileCommands commands = read(
      "glslangValidator -V --target-env vulkan1.1 -DA=1 --D B --define-macro C=3 -DGONE -UGONE -Iinc -S comp "
      "-e main k.glsl -o k.spv --quiet\n"
      "glslangValidator -V -D -e CSMain --sep Main h.comp -o h.spv\n"
      "glslangValidator -V t.vert.glsl t.comp.hlsl\n");
  ASSERT_EQ(commands.jobs.size(), 3u);
  const CompileJob& k = commands.jobs[0];
  EXPECT_EQ(k.file, "k.glsl");
  EXPECT_EQ(k.options.defines, (Defines{{"A", "1"}, {"B", ""}, {"C", "3"}}));
  EXPECT_EQ(k.options.include_dirs, Strings{"inc"});
  EXPECT_EQ(k.options.target_env, TargetEnv::Vulkan1_1);
  EXPECT_TRUE(k.options.force_compute);
  EXPECT_EQ(k.variant, "k");
  const CompileJob& h = commands.jobs[1];
  EXPECT_EQ(h.language, Language::Hlsl);  // a bare -D: the input is HLSL
  EXPECT_TRUE(h.options.defines.empty());
  EXPECT_EQ(h.options.entry_point, "Main");  // the function the source names
  const CompileJob& t = commands.jobs[2];
  EXPECT_EQ(t.file, "t.comp.hlsl");
  EXPECT_EQ(t.language, Language::Hlsl);
  ASSERT_EQ(commands.skipped.size(), 1u);
  EXPECT_EQ(commands.skipped[0].path, "t.vert.glsl");
}

TEST_F(CommandsTest, GlslangValidatorOptionsHoldWherever) {
  CompileCommands commands = read("glslangValidator a.txt -S comp -DLATE -V\n");
  ASSERT_EQ(commands.jobs.size(), 1u);
  EXPECT_TRUE(commands.jobs[0].options.force_compute);
  EXPECT_EQ(commands.jobs[0].options.defines, (Defines{{"LATE", ""}}));
}

TEST_F(CommandsTest, OneFileSeveralTimesGivesVariants) {
  CompileCommands commands = read(
      "glslc -DDATA_A_F16=1 mul_mat.comp -o build/mul_mat_f16.spv\n"
      "glslc -DDATA_A_Q4_0=1 mul_mat.comp -o build/mul_mat_q4_0.spv\n"
      "glslc -DDATA_A_Q4_0=1 mul_mat.comp -o build/mul_mat_q4_0.spv\n"  // the same compile again: kept once
      "glslc -DA=1 -DB soft.comp -o one/soft.spv\n"
      "glslc -DA=2 soft.comp -o two/soft.spv\n"
      "glslc -DA=2 soft.comp --target-env=vulkan1.3 -o three/soft.spv\n"
      "glslc other.comp\n");
  ASSERT_EQ(commands.jobs.size(), 6u);
  EXPECT_EQ(commands.jobs[0].variant, "mul_mat_f16");
  EXPECT_EQ(commands.jobs[1].variant, "mul_mat_q4_0");
  // One stem three times: the defines name them, and a number where those agree.
  EXPECT_EQ(commands.jobs[2].variant, "-DA=1 -DB");
  EXPECT_EQ(commands.jobs[3].variant, "-DA=2");
  EXPECT_EQ(commands.jobs[4].variant, "-DA=2 (2)");
  EXPECT_EQ(commands.jobs[5].variant, "no defines");
}

TEST_F(CommandsTest, PathsAreRelativeToTheCommandsFile) {
  CompileCommands commands = read("glslc -I ../include -I /opt/inc ../shaders/a.comp -o a.spv\n", "build/cmds.txt");
  ASSERT_EQ(commands.jobs.size(), 1u);
  EXPECT_EQ(commands.jobs[0].file, "shaders/a.comp");
  EXPECT_EQ(commands.jobs[0].options.include_dirs, (Strings{"include", "/opt/inc"}));
  EXPECT_EQ(commands.jobs[0].origin, "build/cmds.txt:1");
}

// The options of a job compile the shader as the build does: without the
// command's macro and include directory this shader does not compile.
TEST_F(CommandsTest, JobOptionsCompileTheShader) {
  write("shaders/inc/tile.h", "const uint kTile = TILE;\n");
  write("shaders/k.comp",
        "#version 450\n#include \"tile.h\"\n#ifndef USE_TILE\n#error needs USE_TILE\n#endif\n"
        "layout(local_size_x = kTile) in;\nvoid main() {}\n");
  CompileCommands commands = read("glslc -DUSE_TILE -DTILE=64u -Iinc --target-env=vulkan1.1 k.comp\n", "shaders/cmds.txt");
  ASSERT_EQ(commands.jobs.size(), 1u);
  const CompileJob& job = commands.jobs[0];
  SourceCache sources;
  ReadError read_error;
  std::optional<std::string> text = read_file(job.file, &read_error);
  ASSERT_TRUE(text) << read_error.reason;
  CompiledShader compiled = compile(job.file, *text, job.language, job.options, sources);
  EXPECT_TRUE(compiled.ok);
  EXPECT_TRUE(compiled.diagnostics.empty());
  EXPECT_EQ(compiled.files, (Strings{"shaders/k.comp", "shaders/inc/tile.h"}));
  CompileOptions without = job.options;
  without.defines.clear();
  EXPECT_FALSE(compile(job.file, *text, job.language, without, sources).ok);
}

TEST_F(CommandsTest, CompileCommandsJson) {
  std::string absolute = path("abs").string();
  CompileCommands commands = read(
      R"([
  {"directory": ")" +
          absolute + R"(", "command": "glslc -DF16 -I inc mul_mat.comp -o mul_mat_f16.spv", "file": "mul_mat.comp"},
  {"directory": "rel", "arguments": ["glslangValidator", "-V", "-DQ4", "q.comp", "-o", "q4.spv"], "file": "q.comp"},
  {"directory": "rel", "arguments": ["/usr/bin/c++", "-c", "main.cpp"], "file": "main.cpp"},
  {"arguments": ["glslc", "-c", "a.comp", "b.comp"], "file": "b.comp"}
])",
      "build/compile_commands.json");
  ASSERT_EQ(commands.jobs.size(), 3u);
  EXPECT_EQ(commands.jobs[0].file, "abs/mul_mat.comp");
  EXPECT_EQ(commands.jobs[0].options.include_dirs, Strings{"abs/inc"});
  EXPECT_EQ(commands.jobs[0].options.defines, (Defines{{"F16", ""}}));
  EXPECT_EQ(commands.jobs[0].variant, "mul_mat_f16");
  EXPECT_EQ(commands.jobs[0].origin, "build/compile_commands.json: entry 1");
  EXPECT_EQ(commands.jobs[1].file, "build/rel/q.comp");  // a relative directory is relative to the file
  EXPECT_EQ(commands.jobs[1].variant, "q4");
  EXPECT_EQ(commands.jobs[2].file, "build/b.comp");  // "file" picks one input of several
  EXPECT_EQ(commands.jobs[2].origin, "build/compile_commands.json: entry 4");
}

TEST_F(CommandsTest, MalformedTextIsAnErrorWithItsLine) {
  EXPECT_EQ(error_for("glslc a.comp\n\nglslc 'b.comp\n\n"), "cmds.txt:3: unterminated single quote");
  EXPECT_EQ(error_for("glslc a.comp \\\n  -fbogus\nglslc b.comp\n"), "cmds.txt:1: unknown glslc option '-fbogus'");
  EXPECT_EQ(error_for("# one\nglslc $FLAGS a.comp\n"),
            "cmds.txt:2: '$': klint does not expand variables or commands; give the command as it runs");
  EXPECT_EQ(error_for("cd x && glslc a.comp\n"),
            "cmds.txt:1: '&': shell operators are not supported; give one command per line");
  EXPECT_EQ(error_for("dxc -T cs_6_0 a.hlsl\n"), "cmds.txt:1: 'dxc' is not glslc or glslangValidator");
  EXPECT_EQ(error_for("glslc a.comp \\"), "cmds.txt:1: the text ends with a backslash");
  EXPECT_EQ(error_for("\n# nothing here\n"), "cmds.txt: no glslc or glslangValidator commands");
  EXPECT_EQ(error_for("glslc -O\n"), "cmds.txt:1: the command names no shader");
}

TEST_F(CommandsTest, OptionsKlintCannotFollowAreErrors) {
  EXPECT_EQ(error_for("glslc -D a.comp\n"), "cmds.txt:1: '-D' needs a macro attached: -DNAME or -DNAME=VALUE");
  EXPECT_EQ(error_for("glslc -std=450core a.comp\n"),
            "cmds.txt:1: klint cannot follow glslc '-std=450core': it changes how the shader compiles");
  EXPECT_EQ(error_for("glslc --target-env=opengl a.comp\n"),
            "cmds.txt:1: --target-env=opengl: klint lints Vulkan shaders");
  EXPECT_EQ(error_for("glslc --target-env vulkan1.2 a.comp\n"), "cmds.txt:1: unknown glslc option '--target-env'");
  EXPECT_EQ(error_for("glslc -fshader-stage=kernel a.comp\n"),
            "cmds.txt:1: -fshader-stage=kernel: unknown shader stage");
  EXPECT_EQ(error_for("glslc a.comp -o\n"), "cmds.txt:1: '-o' needs a value");
  EXPECT_EQ(error_for("glslc - \n"), "cmds.txt:1: the command reads the shader from standard input");
  EXPECT_EQ(error_for("glslangValidator -V -I inc a.comp\n"), "cmds.txt:1: '-I' needs the directory attached: -IDIR");
  EXPECT_EQ(error_for("glslangValidator -V -UFOO a.comp\n"),
            "cmds.txt:1: -UFOO: klint can only undefine a macro that the same command defines");
  EXPECT_EQ(error_for("glslangValidator -V --amb a.comp\n"),
            "cmds.txt:1: klint cannot follow glslangValidator '--amb': it changes how the shader compiles");
  EXPECT_EQ(error_for("glslangValidator -G a.comp\n"), "cmds.txt:1: -G: klint lints Vulkan shaders");
  EXPECT_EQ(error_for("glslangValidator -V a.comp b.comp\n"),
            "cmds.txt:1: the command links 2 compute shaders into one module; klint lints one at a time");
  EXPECT_EQ(error_for("glslangValidator --version\n"), "cmds.txt:1: '--version' does not compile a shader");
}

TEST_F(CommandsTest, BindingOptionsAndTheirValuesArePassedOver) {
  CompileCommands commands = read(
      "glslc -fubo-binding-base comp 4 -fssbo-binding-base 2 -fresource-set-binding comp b0 0 1 b1 0 2 a.comp\n"
      "glslangValidator -V --shift-ssbo-binding comp 5 --sub 0 1 2 3 --rsb comp b0 0 1 -S comp b.comp\n");
  ASSERT_EQ(commands.jobs.size(), 2u);
  EXPECT_EQ(commands.jobs[0].file, "a.comp");
  EXPECT_EQ(commands.jobs[1].file, "b.comp");
}

TEST_F(CommandsTest, MalformedJsonIsAnError) {
  EXPECT_EQ(
      error_for("[\n {\"command\": \"glslc a.comp\",\n }\n]", "cc.json"),
      "cc.json:3:2: invalid JSON: syntax error while parsing object key - unexpected '}'; expected string literal");
  EXPECT_EQ(error_for("[1]", "cc.json"), "cc.json: entry 1: each entry must be an object");
  EXPECT_EQ(error_for("[{\"file\": \"a.comp\"}]", "cc.json"),
            "cc.json: entry 1: an entry needs \"arguments\" or \"command\"");
  EXPECT_EQ(error_for("[{\"arguments\": [\"glslc\", 3]}]", "cc.json"),
            "cc.json: entry 1: \"arguments\" must be an array of strings");
  EXPECT_EQ(error_for("[{\"command\": \"glslc 'a.comp\"}]", "cc.json"),
            "cc.json: entry 1: \"command\": unterminated single quote");
  EXPECT_EQ(error_for("[{\"arguments\": [\"glslc\", \"a.comp\"], \"file\": \"b.comp\"}]", "cc.json"),
            "cc.json: entry 1: \"file\" names b.comp, which the command does not compile");
  EXPECT_EQ(error_for("[{\"arguments\": [\"c++\", \"main.cpp\"]}]", "cc.json"),
            "cc.json: no glslc or glslangValidator commands");
}

TEST_F(CommandsTest, MissingFileIsAnError) {
  std::string error;
  EXPECT_FALSE(read_commands("absent.txt", &error));
  EXPECT_EQ(error, "absent.txt: no such file or directory");
}

}  // namespace
}  // namespace klint
