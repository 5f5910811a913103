// Parsing klint-ignore comments; their effect is checked by the closed-world
// fixtures in tests/rules/unused-suppression/.
#include <gtest/gtest.h>

#include "driver/suppressions.h"

namespace klint::testing {
namespace {

TEST(Suppressions, ParsesTheThreeFormsWithRulesAndReasons) {
  std::string text =
      "x = 1; // klint-ignore: shared-memory-race -- neighbour read on purpose\n"
      "  //klint-ignore-next-line:redundant-barrier,manual-subgroup-reduction\n"
      "y = 2;\n"
      "// klint-ignore-file: uncoalesced-global-access -- short rows\r\n"
      "// a comment that mentions klint-ignore without a colon\n";
  std::vector<Suppression> found = parse_suppressions("a.comp", text);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].line, 1u);
  EXPECT_EQ(found[0].target_line, 1u);
  EXPECT_EQ(found[0].rules, (std::vector<std::string>{"shared-memory-race"}));
  EXPECT_EQ(found[0].reason, "neighbour read on purpose");
  EXPECT_EQ(found[1].line, 2u);
  EXPECT_EQ(found[1].target_line, 3u);
  EXPECT_EQ(found[1].rules, (std::vector<std::string>{"redundant-barrier", "manual-subgroup-reduction"}));
  EXPECT_EQ(found[1].reason, "");
  EXPECT_EQ(found[2].target_line, 0u);
  EXPECT_EQ(found[2].rules, (std::vector<std::string>{"uncoalesced-global-access"}));
  EXPECT_EQ(found[2].reason, "short rows");
}

// `/* klint-ignore: ... */` is read as the line comment of the same words: it
// ends at `*/`, and code may stand before and after it.
TEST(Suppressions, ParsesBlockComments) {
  std::string text =
      "x = 1; /* klint-ignore: shared-memory-race -- neighbour read on purpose */\n"
      "/*klint-ignore-next-line:redundant-barrier,manual-subgroup-reduction*/\n"
      "y = /* klint-ignore: insufficient-barrier */ tile[i]; // klint-ignore: redundant-barrier -- both\n"
      "/* klint-ignore-file: uncoalesced-global-access -- short rows\r\n"
      "/* a comment that mentions klint-ignore without a colon */\n";
  std::vector<Suppression> found = parse_suppressions("a.comp", text);
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].target_line, 1u);
  EXPECT_EQ(found[0].rules, (std::vector<std::string>{"shared-memory-race"}));
  EXPECT_EQ(found[0].reason, "neighbour read on purpose");
  EXPECT_EQ(found[1].line, 2u);
  EXPECT_EQ(found[1].target_line, 3u);
  EXPECT_EQ(found[1].rules, (std::vector<std::string>{"redundant-barrier", "manual-subgroup-reduction"}));
  EXPECT_EQ(found[1].reason, "");
  EXPECT_EQ(found[2].target_line, 3u);
  EXPECT_EQ(found[2].rules, (std::vector<std::string>{"insufficient-barrier"}));
  EXPECT_EQ(found[3].target_line, 3u);
  EXPECT_EQ(found[3].rules, (std::vector<std::string>{"redundant-barrier"}));
  EXPECT_EQ(found[3].reason, "both");
  // A comment left open runs to the end of its line.
  EXPECT_EQ(found[4].target_line, 0u);
  EXPECT_EQ(found[4].rules, (std::vector<std::string>{"uncoalesced-global-access"}));
  EXPECT_EQ(found[4].reason, "short rows");
}

}  // namespace
}  // namespace klint::testing
