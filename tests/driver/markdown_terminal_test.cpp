// `klint --explain` renders a rule's Markdown as text for a terminal.
#include <gtest/gtest.h>

#include "driver/output/markdown_terminal.h"

namespace klint::testing {
namespace {

constexpr const char* kDoc = R"md(<!-- Generated; do not edit. -->
# rule-id

summary

| category | default severity |
| --- | --- |
| portability | error |

## What it finds
A `barrier()` under **divergent** control flow, see [the docs](docs/x.md);
*emphasis* and _emphasis_, but gl_Local_Id and a * b stay.
<!-- a comment
over two lines --> kept after it

- one
- two

## Bad
```glsl
void main() {

    barrier();  // `not code` **in code**
}
```
)md";

TEST(MarkdownTerminal, PlainTextHasNoMarkup) {
  EXPECT_EQ(render_markdown(kDoc, false), R"(rule-id

summary

category     default severity
portability  error

What it finds
A barrier() under divergent control flow, see the docs (docs/x.md);
emphasis and emphasis, but gl_Local_Id and a * b stay.
 kept after it

- one
- two

Bad
    void main() {

        barrier();  // `not code` **in code**
    }
)");
}

TEST(MarkdownTerminal, StyledTextIsBoldAndUnderlined) {
  const std::string styled = render_markdown(kDoc, true);
  EXPECT_EQ(styled.rfind("\x1b[1;4mrule-id\x1b[0m\n", 0), 0u) << styled;
  EXPECT_NE(styled.find("\x1b[1mWhat it finds\x1b[0m\n"), std::string::npos) << styled;
  EXPECT_NE(styled.find("under \x1b[1mdivergent\x1b[0m control"), std::string::npos) << styled;
  EXPECT_NE(styled.find("\x1b[4memphasis\x1b[0m and \x1b[4memphasis\x1b[0m"), std::string::npos) << styled;
  EXPECT_NE(styled.find("    barrier();  // `not code` **in code**\n"), std::string::npos) << styled;
}

}  // namespace
}  // namespace klint::testing
