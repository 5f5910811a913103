// gitignore's patterns as directory walks read them: globs, `**`, anchoring by
// a leading or inner '/', directory-only patterns, '!' and comments.
#include "driver/ignore.h"

#include <gtest/gtest.h>

#include <string>

namespace klint {
namespace {

namespace fs = std::filesystem;

const fs::path kBase = "/repo";

// Whether `text` (a .gitignore) leaves out `path` (relative to /repo).
std::optional<bool> verdict(std::string_view text, const std::string& path, bool is_dir = false) {
  return IgnoreList::from_text(text, kBase).verdict((kBase / path).lexically_normal(), is_dir);
}

TEST(IgnorePattern, BlankLinesAndCommentsAreNoPatterns) {
  std::string error;
  EXPECT_FALSE(IgnorePattern::parse("", &error));
  EXPECT_FALSE(IgnorePattern::parse("   ", &error));
  EXPECT_FALSE(IgnorePattern::parse("# build output", &error));
  EXPECT_EQ(error, "");
  EXPECT_EQ(verdict("\\#notes.comp\n", "#notes.comp"), true);  // an escaped '#' is a name
}

TEST(IgnorePattern, ANameWithoutSlashMatchesAtAnyDepth) {
  EXPECT_EQ(verdict("*.spv\n", "a.spv"), true);
  EXPECT_EQ(verdict("*.spv\n", "deep/er/a.spv"), true);
  EXPECT_EQ(verdict("*.spv\n", "a.spvasm"), std::nullopt);
  EXPECT_EQ(verdict("gen\n", "src/gen", /*is_dir=*/true), true);
  EXPECT_EQ(verdict("k?.comp\n", "sub/k1.comp"), true);
  EXPECT_EQ(verdict("k[0-3].comp\n", "k4.comp"), std::nullopt);
}

TEST(IgnorePattern, ALeadingOrInnerSlashAnchorsAtTheFilesDirectory) {
  EXPECT_EQ(verdict("/build\n", "build", true), true);
  EXPECT_EQ(verdict("/build\n", "src/build", true), std::nullopt);
  EXPECT_EQ(verdict("src/gen\n", "src/gen", true), true);
  EXPECT_EQ(verdict("src/gen\n", "other/src/gen", true), std::nullopt);
  EXPECT_EQ(verdict("src/*.comp\n", "src/a.comp"), true);
  EXPECT_EQ(verdict("src/*.comp\n", "src/sub/a.comp"), std::nullopt);  // '*' stops at '/'
}

TEST(IgnorePattern, ATrailingSlashMatchesDirectoriesOnly) {
  EXPECT_EQ(verdict("out/\n", "out", /*is_dir=*/true), true);
  EXPECT_EQ(verdict("out/\n", "out", /*is_dir=*/false), std::nullopt);
  EXPECT_EQ(verdict("out/\n", "a/out", /*is_dir=*/true), true);
}

TEST(IgnorePattern, DoubleStarSpansDirectories) {
  EXPECT_EQ(verdict("**/gen\n", "gen", true), true);
  EXPECT_EQ(verdict("**/gen\n", "a/b/gen", true), true);
  EXPECT_EQ(verdict("a/**/k.comp\n", "a/k.comp"), true);
  EXPECT_EQ(verdict("a/**/k.comp\n", "a/x/y/k.comp"), true);
  EXPECT_EQ(verdict("a/**/k.comp\n", "b/x/k.comp"), std::nullopt);
  EXPECT_EQ(verdict("vendor/**\n", "vendor/x/k.comp"), true);
}

TEST(IgnorePattern, TheLastMatchingLineDecidesAndBangTakesBack) {
  EXPECT_EQ(verdict("*.comp\n!keep.comp\n", "keep.comp"), false);
  EXPECT_EQ(verdict("*.comp\n!keep.comp\n", "drop.comp"), true);
  EXPECT_EQ(verdict("!keep.comp\n*.comp\n", "keep.comp"), true);
  EXPECT_EQ(verdict("\\!bang.comp\n", "!bang.comp"), true);  // an escaped '!' is a name
}

TEST(IgnorePattern, TrailingSpacesAndCarriageReturnsAreNotPartOfTheName) {
  EXPECT_EQ(verdict("a.comp   \r\n", "a.comp"), true);
}

TEST(IgnorePattern, PathsOutsideTheBaseMeetOnlyUnanchoredPatterns) {
  IgnoreList list = IgnoreList::from_text("*.spv\n/top.comp\n", kBase);
  EXPECT_EQ(list.verdict("/elsewhere/a.spv", false), true);
  EXPECT_EQ(list.verdict("/elsewhere/top.comp", false), std::nullopt);
}

TEST(IgnoreList, PatternsFromTheCommandLineOrConfigurationMustBeValid) {
  std::string error;
  EXPECT_TRUE(IgnoreList::from_patterns({"gen/", "*.spv", ""}, kBase, &error)) << error;
  EXPECT_FALSE(IgnoreList::from_patterns({"a[b"}, kBase, &error));
  EXPECT_EQ(error, "bad glob 'a[b': unclosed '['");
  EXPECT_FALSE(IgnoreList::from_patterns({"# only a comment"}, kBase, &error));
  EXPECT_EQ(error, "'# only a comment' is not a pattern");
}

TEST(IgnoreList, AnInvalidLineOfAGitignoreIsSkipped) {
  EXPECT_EQ(verdict("a[b\nk.comp\n", "k.comp"), true);
}

}  // namespace
}  // namespace klint
