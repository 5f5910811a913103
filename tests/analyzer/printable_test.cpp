// Input text in one-line messages: control characters become escapes.
#include "analyzer/printable.h"

#include <gtest/gtest.h>

namespace klint {
namespace {

TEST(Printable, ControlCharactersBecomeEscapesAndTheRestStays) {
  EXPECT_EQ(printable("plain 'text'"), "plain 'text'");
  EXPECT_EQ(printable("saw '\n'"), "saw '\\n'");
  EXPECT_EQ(printable(std::string_view("a\tb\rc\0d\x1b\x7f", 9)), "a\\tb\\rc\\0d\\x1b\\x7f");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 passes
}

}  // namespace
}  // namespace klint
