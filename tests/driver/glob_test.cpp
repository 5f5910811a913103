#include "driver/glob.h"

#include <gtest/gtest.h>

#include <string>

namespace klint {
namespace {

Glob glob(const std::string& pattern) {
  std::string error;
  std::optional<Glob> parsed = Glob::parse(pattern, &error);
  EXPECT_TRUE(parsed) << pattern << ": " << error;
  return parsed.value_or(*Glob::parse("unused", &error));
}

std::string parse_error(const std::string& pattern) {
  std::string error;
  EXPECT_FALSE(Glob::parse(pattern, &error)) << pattern;
  return error;
}

TEST(Glob, PatternWithoutSlashMatchesTheNameAtAnyDepth) {
  Glob hlsl = glob("*.hlsl");
  EXPECT_TRUE(hlsl.matches("a.hlsl"));
  EXPECT_TRUE(hlsl.matches("deep/er/a.hlsl"));
  EXPECT_FALSE(hlsl.matches("a.hlsli"));
  EXPECT_FALSE(hlsl.matches("a.hlsl/b.comp"));
  EXPECT_TRUE(glob("mul_mat*.comp").matches("shaders/mul_mat_vec.comp"));
  EXPECT_FALSE(glob("mul_mat*.comp").matches("shaders/mul_mat_vec.glsl"));
}

TEST(Glob, PatternWithSlashIsAnchoredAndStarStopsAtSlash) {
  Glob star = glob("src/*.comp");
  EXPECT_TRUE(star.matches("src/a.comp"));
  EXPECT_FALSE(star.matches("src/sub/a.comp"));
  EXPECT_FALSE(star.matches("other/src/a.comp"));
  EXPECT_TRUE(glob("./src/a.comp").matches("src/a.comp"));
  EXPECT_FALSE(glob("./a.comp").matches("src/a.comp"));  // "./" anchors a bare name
}

TEST(Glob, DoubleStarMatchesAnyNumberOfDirectories) {
  Glob vendor = glob("vendor/**");
  EXPECT_TRUE(vendor.matches("vendor/a.comp"));
  EXPECT_TRUE(vendor.matches("vendor/x/y/z.comp"));
  EXPECT_FALSE(vendor.matches("src/vendor/a.comp"));
  Glob middle = glob("src/**/tile.comp");
  EXPECT_TRUE(middle.matches("src/tile.comp"));
  EXPECT_TRUE(middle.matches("src/a/b/tile.comp"));
  EXPECT_FALSE(middle.matches("src/a/b/tile2.comp"));
  Glob leading = glob("**/gen/*.comp");
  EXPECT_TRUE(leading.matches("gen/a.comp"));
  EXPECT_TRUE(leading.matches("x/y/gen/a.comp"));
  EXPECT_FALSE(leading.matches("x/gen/y/a.comp"));
  EXPECT_TRUE(glob("third_party/").matches("third_party/deep/a.comp"));  // a trailing slash: all below
}

TEST(Glob, QuestionMarkClassesAndEscapes) {
  EXPECT_TRUE(glob("k?.comp").matches("k1.comp"));
  EXPECT_FALSE(glob("k?.comp").matches("k12.comp"));
  EXPECT_TRUE(glob("k[0-3].comp").matches("k2.comp"));
  EXPECT_FALSE(glob("k[0-3].comp").matches("k7.comp"));
  EXPECT_TRUE(glob("k[!0-3].comp").matches("k7.comp"));
  EXPECT_FALSE(glob("k[^0-3].comp").matches("k2.comp"));
  EXPECT_TRUE(glob("[]]x").matches("]x"));
  EXPECT_TRUE(glob("a\\*b").matches("a*b"));
  EXPECT_FALSE(glob("a\\*b").matches("axb"));
  // Backtracking: the first '*' must give characters back.
  EXPECT_TRUE(glob("*a*b*c").matches("xaxbxaxbc"));
  EXPECT_FALSE(glob("*a*b*c").matches("xaxbxaxb"));
}

TEST(Glob, BadPatternsAreErrors) {
  EXPECT_EQ(parse_error(""), "empty glob");
  EXPECT_EQ(parse_error("/abs/*.comp"),
            "bad glob '/abs/*.comp': it is absolute; globs are relative to the config file's directory");
  EXPECT_EQ(parse_error("k[0-3.comp"), "bad glob 'k[0-3.comp': unclosed '['");
  EXPECT_EQ(parse_error("a**/b"), "bad glob 'a**/b': '**' must be a whole path component, as in 'a/**/b'");
  EXPECT_EQ(parse_error("a\\"), "bad glob 'a\\': it ends with '\\'");
  EXPECT_EQ(parse_error("."), "bad glob '.': it names no file");
}

}  // namespace
}  // namespace klint
