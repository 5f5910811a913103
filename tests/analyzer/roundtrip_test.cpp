// Every fixture and example, compiled, decodes into klint's IR and re-encodes
// to the identical binary, before and after normalization.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzer/frontend.h"
#include "analyzer/ir/module.h"
#include "analyzer/normalize.h"
#include "tests/support/fixture.h"

namespace klint::testing {
namespace {

std::vector<std::string> shaders() {
  std::vector<std::string> out = fixture_files(std::string(KLINT_SOURCE_DIR) + "/tests/rules");
  for (const std::string& path : fixture_files(std::string(KLINT_SOURCE_DIR) + "/examples")) out.push_back(path);
  return out;
}

class RoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, ReencodesIdentically) {
  std::ifstream in(GetParam(), std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  Fixture fixture = parse_fixture(GetParam(), text.str());
  SourceCache sources;
  auto language = language_for_path(GetParam(), false);
  ASSERT_TRUE(language);
  CompiledShader compiled = compile(GetParam(), text.str(), *language, fixture.options.compile, sources);
  ASSERT_TRUE(compiled.ok) << GetParam();

  ir::DecodeError error;
  auto module = ir::decode(compiled.spirv, &error);
  ASSERT_TRUE(module) << error.message;
  EXPECT_EQ(ir::encode(*module), compiled.spirv);

  std::string why;
  auto normalized = normalize(compiled.spirv, to_spv_env(fixture.options.compile.target_env), &why);
  ASSERT_TRUE(normalized) << why;
  auto again = ir::decode(*normalized, &error);
  ASSERT_TRUE(again) << error.message;
  EXPECT_EQ(ir::encode(*again), *normalized);
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = std::filesystem::relative(info.param, KLINT_SOURCE_DIR).string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Shaders, RoundTrip, ::testing::ValuesIn(shaders()), test_name);

}  // namespace
}  // namespace klint::testing
