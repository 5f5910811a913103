// The kernels of tests/clean run instrumented at subgroup sizes 4, 8 and 16:
// a correct kernel shows no race, no unwritten read, no index out of range
// and no overlapping store, whatever the subgroup size.
#include <gtest/gtest.h>

#include <filesystem>

#include "analyzer/frontend.h"
#include "analyzer/source.h"
#include "reflect/reflection.h"
#include "runner/harness.h"
#include "runner/observe.h"

namespace klint::runner {
namespace {

std::vector<std::string> clean_kernels() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(KLINT_SOURCE_DIR) + "/tests/clean")) {
    files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class CleanShadow : public ::testing::TestWithParam<std::string> {};

TEST_P(CleanShadow, ShowsNothingAtAnySubgroupSize) {
  const std::string path = GetParam();
  std::optional<Language> language = language_for_path(path, false);
  ASSERT_TRUE(language);
  std::optional<std::string> text = read_file(path, nullptr);
  ASSERT_TRUE(text);
  SourceCache sources;
  CompiledShader compiled = compile(path, *text, *language, CompileOptions{}, sources);
  ASSERT_TRUE(compiled.ok);
  std::string error;
  std::optional<reflect::ModuleReflection> reflection = reflect::reflect_module(compiled.spirv, &error);
  ASSERT_TRUE(reflection) << error;
  HarnessOptions options;
  options.grid = {2, 1, 1};
  std::optional<Harness> harness = default_harness(reflection->entry_points[0], options, &error);
  ASSERT_TRUE(harness) << error;
  std::optional<Observations> o = observe(compiled.spirv, ModuleOrigin{path, compiled.assembly_lines},
                                          reflection->entry_points[0].name, *harness, {}, &error);
  ASSERT_TRUE(o) << error;
  EXPECT_TRUE(o->instrumented.skipped.empty()) << ::testing::PrintToString(o->instrumented.skipped);
  for (const Observation& run : o->runs) {
    ASSERT_EQ(run.verdict, Verdict::Completed) << run.message;
    for (const ShadowFinding& f : run.shadow.findings) {
      if (is_problem(f.kind))
        ADD_FAILURE() << "subgroup size " << run.subgroup_size << ": " << describe(o->instrumented, f);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, CleanShadow, ::testing::ValuesIn(clean_kernels()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = std::filesystem::path(info.param).filename().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace klint::runner
