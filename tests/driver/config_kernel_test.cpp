// [[kernel]] tables of klint.toml: every key read, defaults, lookup by shader
// path, and each kind of bad table reported with its line and column.
#include <gtest/gtest.h>

#include "driver/config.h"
#include "driver/config_file.h"
#include "tests/support/scratch.h"

namespace klint {
namespace {

namespace fs = std::filesystem;
using runner::Number;
using runner::Shape;

class KernelConfigTest : public testing::ScratchCwdTest {
 protected:
  void SetUp() override {
    ScratchCwdTest::SetUp();
    write("softmax.comp", "// a kernel\n");
    write("ref/softmax_ref.comp", "// its reference\n");
  }
  std::optional<ConfigFile> parse(const std::string& text, std::string* error) {
    return parse_config(text, path("klint.toml"), error);
  }
  ConfigFile good(const std::string& text) {
    std::string error;
    std::optional<ConfigFile> config = parse(text, &error);
    EXPECT_TRUE(config) << error;
    return config.value_or(ConfigFile{});
  }
  std::string error_for(const std::string& text) {
    std::string error;
    EXPECT_FALSE(parse(text, &error)) << text;
    return error;
  }
};

std::string evaluate(const runner::Expression& expression, const Shape& shape) {
  std::string error;
  std::optional<Number> value = expression.evaluate(shape, &error);
  return value ? runner::to_string(*value) : error;
}

TEST_F(KernelConfigTest, ReadsEveryKey) {
  ConfigFile config = good(R"toml(
[[kernel]]
file = "softmax.comp"
entry-point = "main"
variables = ["rows", "cols"]
matrix = [[1, 16], [4, 256]]
grid = ["rows", 1, "ceildiv(cols, 64)"]
push-constants = { n = "cols", eps = 1e-5 }
uniforms = { "frame.width" = "cols + 1", scale = 0.5 }
buffers = { x = "rows * cols", "0.1" = 8 }
specialization = { 0 = 128, BLOCK = "cols / 2", USE_FAST = true }
seed = 7
reference = "ref/softmax_ref.comp"
expected = { y = "expected/y_{rows}x{cols}.bin" }
)toml");
  ASSERT_EQ(config.kernels.size(), 1u);
  const runner::KernelManifest& k = config.kernels[0];
  EXPECT_EQ(k.config_path, "klint.toml");
  EXPECT_EQ(k.at.line, 2u);
  EXPECT_EQ(k.file, fs::absolute(path("softmax.comp")).lexically_normal());
  EXPECT_EQ(k.entry_point, "main");
  EXPECT_EQ(k.entry_point_at->line, 4u);
  EXPECT_EQ(k.entry_point_at->column, 15u);
  EXPECT_EQ(k.variables, (std::vector<std::string>{"rows", "cols"}));
  EXPECT_EQ(k.matrix, (std::vector<std::vector<Number>>{{int64_t{1}, int64_t{16}}, {int64_t{4}, int64_t{256}}}));
  const Shape shape{{"rows", int64_t{4}}, {"cols", int64_t{256}}};
  ASSERT_EQ(k.grid.size(), 3u);
  EXPECT_EQ(evaluate(k.grid[0].value, shape), "4");
  EXPECT_EQ(evaluate(k.grid[1].value, shape), "1");
  EXPECT_EQ(evaluate(k.grid[2].value, shape), "4");
  EXPECT_EQ(k.grid[2].at.line, 7u);
  EXPECT_EQ(k.grid[2].at.column, 20u);
  ASSERT_EQ(k.push_constants.size(), 2u);  // in file order
  EXPECT_EQ(k.push_constants[0].name, "n");
  EXPECT_EQ(evaluate(k.push_constants[0].value, shape), "256");
  EXPECT_EQ(k.push_constants[1].name, "eps");
  EXPECT_EQ(evaluate(k.push_constants[1].value, shape), "1e-05");
  EXPECT_EQ(k.push_constants[1].name_at.column, 32u);
  EXPECT_EQ(k.push_constants[1].value_at.column, 38u);
  ASSERT_EQ(k.uniforms.size(), 2u);
  EXPECT_EQ(k.uniforms[0].name, "frame.width");
  EXPECT_EQ(evaluate(k.uniforms[0].value, shape), "257");
  EXPECT_EQ(k.uniforms[1].name, "scale");
  EXPECT_EQ(evaluate(k.uniforms[1].value, shape), "0.5");
  ASSERT_EQ(k.buffers.size(), 2u);
  EXPECT_EQ(k.buffers[0].name, "x");
  EXPECT_EQ(evaluate(k.buffers[0].value, shape), "1024");
  EXPECT_EQ(k.buffers[1].name, "0.1");
  EXPECT_EQ(evaluate(k.buffers[1].value, shape), "8");
  ASSERT_EQ(k.specialization.size(), 3u);
  EXPECT_EQ(k.specialization[0].name, "0");
  EXPECT_EQ(evaluate(k.specialization[1].value, shape), "128");
  EXPECT_EQ(evaluate(k.specialization[2].value, shape), "1");
  EXPECT_EQ(k.seed, 7u);
  EXPECT_EQ(k.reference, fs::absolute(path("ref/softmax_ref.comp")).lexically_normal());
  ASSERT_EQ(k.expected.size(), 1u);
  EXPECT_EQ(k.expected[0].binding, "y");
  EXPECT_EQ(k.expected[0].pattern, "expected/y_{rows}x{cols}.bin");
  EXPECT_EQ(runner::expected_file(k, k.expected[0], shape), fs::absolute(path("expected/y_4x256.bin")));
}

TEST_F(KernelConfigTest, Defaults) {
  ConfigFile config = good("[[kernel]]\nfile = \"softmax.comp\"\n");
  ASSERT_EQ(config.kernels.size(), 1u);
  const runner::KernelManifest& k = config.kernels[0];
  EXPECT_FALSE(k.entry_point);
  EXPECT_TRUE(k.variables.empty());
  EXPECT_EQ(k.matrix, std::vector<std::vector<Number>>{{}});  // one shape of no variables
  EXPECT_TRUE(k.grid.empty());
  EXPECT_TRUE(k.push_constants.empty() && k.uniforms.empty() && k.buffers.empty() && k.specialization.empty() &&
              k.expected.empty());
  EXPECT_EQ(k.seed, 1u);
  EXPECT_FALSE(k.reference);
  // Two variables without a matrix: the row-wise shapes.
  config = good("[[kernel]]\nfile = \"softmax.comp\"\nvariables = [\"r\", \"c\"]\n");
  const std::vector<std::vector<Number>> rows_cols{
      {int64_t{1}, int64_t{1}},   {int64_t{1}, int64_t{16}},    {int64_t{1}, int64_t{32}},
      {int64_t{1}, int64_t{33}},  {int64_t{1}, int64_t{256}},   {int64_t{4}, int64_t{256}},
      {int64_t{64}, int64_t{1024}}, {int64_t{1}, int64_t{4096}}, {int64_t{1}, int64_t{16384}},
  };
  EXPECT_EQ(config.kernels[0].matrix, rows_cols);
  EXPECT_EQ(runner::describe_shape(runner::shape_at(config.kernels[0], 3)), "r=1 c=33");
}

TEST_F(KernelConfigTest, FindsTheKernelOfAFile) {
  write("sub/other.comp", "");
  write("klint.toml", "[[kernel]]\nfile = \"softmax.comp\"\n\n[[kernel]]\nfile = \"sub/other.comp\"\nseed = 3\n");
  ConfigResolver resolver;
  std::string error;
  std::optional<const runner::KernelManifest*> found = resolver.kernel_for("sub/other.comp", &error);
  ASSERT_TRUE(found) << error;
  ASSERT_TRUE(*found);
  EXPECT_EQ((*found)->seed, 3u);
  found = resolver.kernel_for(path("sub/../softmax.comp").string(), &error);
  ASSERT_TRUE(found && *found) << error;
  EXPECT_EQ((*found)->seed, 1u);
  found = resolver.kernel_for("sub/unlisted.comp", &error);
  ASSERT_TRUE(found) << error;
  EXPECT_EQ(*found, nullptr);
  // --config wins over the nearest klint.toml.
  write("sub/klint.toml", "[[kernel]]\nfile = \"other.comp\"\nseed = 9\n");
  EXPECT_EQ((*ConfigResolver().kernel_for("sub/other.comp", &error))->seed, 9u);
  EXPECT_EQ((*ConfigResolver("klint.toml").kernel_for("sub/other.comp", &error))->seed, 3u);
  // A broken configuration is an error, not "no manifest".
  write("sub/klint.toml", "[[kernel]]\nfile = 3\n");
  EXPECT_FALSE(ConfigResolver().kernel_for("sub/other.comp", &error));
  EXPECT_EQ(error, "sub/klint.toml:2:8: 'file' must be the path of a shader");
}

TEST_F(KernelConfigTest, ErrorsSayWhere) {
  const std::string head = "[[kernel]]\nfile = \"softmax.comp\"\n";
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases{
      {"[[kernel]]\nentry-point = \"main\"\n", "klint.toml:1:1: [[kernel]] needs 'file', the shader it describes"},
      {"[[kernel]]\nfile = \"softmx.comp\"\n", "klint.toml:2:8: 'file' names no file: softmx.comp"},
      {"[[kernel]]\nfile = \"*.comp\"\n", "klint.toml:2:8: 'file' names one file, not a glob: *.comp"},
      {head + "reference = \"nope.comp\"\n", "klint.toml:3:13: 'reference' names no file: nope.comp"},
      {"[kernel]\nfile = \"softmax.comp\"\n", "klint.toml:1:1: 'kernel' must be an array of tables: write [[kernel]]"},
      {head + "seeds = 3\n", "klint.toml:3:1: unknown key 'seeds' in [[kernel]] (did you mean 'seed'?)"},
      {head + "seed = -1\n", "klint.toml:3:8: 'seed' must be an integer, 0 or more"},
      {head + "entry-point = 1\n", "klint.toml:3:15: 'entry-point' must be a function name"},
      {head + "variables = \"rows\"\n",
       "klint.toml:3:13: 'variables' must be an array of names, such as [\"rows\", \"cols\"]"},
      {head + "variables = [\"rows\", \"2d\"]\n",
       "klint.toml:3:22: 'variables' must be an array of names (identifiers), such as [\"rows\", \"cols\"]"},
      {head + "variables = [\"n\", \"n\"]\n", "klint.toml:3:19: variable 'n' is declared twice"},
      {head + "variables = [\"min\"]\nmatrix = [[1]]\n",
       "klint.toml:3:14: 'min' is a function: name the variable otherwise"},
      {head + "variables = [\"a\", \"b\", \"c\"]\n",
       "klint.toml:1:1: [[kernel]] for softmax.comp has 3 variables and no 'matrix': only two variables (rows, "
       "columns) have a default"},
      {head + "variables = [\"a\", \"b\"]\nmatrix = [[1, 2], [3]]\n",
       "klint.toml:4:19: this row of 'matrix' has 1 values, 'variables' names 2"},
      {head + "variables = [\"a\"]\nmatrix = [[\"x\"]]\n",
       "klint.toml:4:12: each value of 'matrix' must be an integer or a float"},
      {head + "variables = [\"a\"]\nmatrix = [1]\n", "klint.toml:4:11: each row of 'matrix' must be an array of numbers"},
      {head + "variables = [\"a\"]\nmatrix = []\n",
       "klint.toml:4:10: 'matrix' is empty: leave it out or give at least one row"},
      {head + "matrix = [[1]]\n", "klint.toml:3:10: 'matrix' needs 'variables', the names of its columns"},
      {head + "grid = [1, 1, 1, 1]\n",
       "klint.toml:3:8: 'grid' must be an array of 1 to 3 workgroup counts, such as [\"rows\", 1, 1]"},
      {head + "grid = [1.5]\n",
       "klint.toml:3:9: 'grid' must be an array of 1 to 3 workgroup counts, such as [\"rows\", 1, 1]"},
      // The column of the error inside the expression's string.
      {head + "variables = [\"rows\", \"cols\"]\ngrid = [\"rows * colz\"]\n",
       "klint.toml:4:17: in 'rows * colz': unknown variable 'colz' (did you mean 'cols'?)"},
      {head + "buffers = { x = \"(1 + 2\" }\n", "klint.toml:3:24: in '(1 + 2': expected ')'"},
      // An expression written over two lines is quoted on one.
      {head + "variables = [\"rows\"]\nbuffers = { x = \"\"\"cols *\nrows\"\"\" }\n",
       "klint.toml:4:17: in 'cols *\\nrows': unknown variable 'cols' (did you mean 'rows'?)"},
      {head + "buffers = { x = 1.5 }\n",
       "klint.toml:3:17: the value of 'x' in 'buffers' must be a number of elements: an integer or an expression"},
      {head + "push-constants = { n = [1] }\n",
       "klint.toml:3:24: the value of 'n' in 'push-constants' must be a number or an expression"},
      {head + "push-constants = { n = true }\n",
       "klint.toml:3:24: the value of 'n' in 'push-constants' must be a number or an expression"},
      {head + "specialization = [1]\n",
       "klint.toml:3:18: 'specialization' must be a table: { name = a number, true, false or an expression }"},
      {head + "expected = { y = \"y_{rows}.bin\" }\n", "klint.toml:3:18: unknown variable '{rows}' in 'y_{rows}.bin'"},
      {head + "variables = [\"rows\"]\nmatrix = [[1]]\nexpected = { y = \"y_{rows.bin\" }\n",
       "klint.toml:5:18: unbalanced brace in 'y_{rows.bin': write {variable}"},
      {head + "\n[[kernel]]\nfile = \"./softmax.comp\"\n",
       "klint.toml:4:1: a second [[kernel]] for softmax.comp (the first is at line 1)"},
      {"[[kernal]]\nfile = \"softmax.comp\"\n", "klint.toml:1:3: unknown key 'kernal' (did you mean 'kernel'?)"},
  };
  for (const Case& c : cases) EXPECT_EQ(error_for(c.text), c.error) << c.text;
}

}  // namespace
}  // namespace klint
