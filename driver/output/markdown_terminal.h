// Rule documentation (Markdown) as `klint --explain` prints it on a terminal
// or into a pipe: readable text, never markup.
#pragma once

#include <string>
#include <string_view>

namespace klint {

// HTML comments dropped; headings, paragraphs and list items as their text;
// fenced code indented by four spaces without its fences; `code` without its
// backticks; **strong** and *emphasis* as their text; [text](target) as
// "text (target)"; tables as aligned columns without their rule line.
// `styled` adds bold to headings and strong text and underlines emphasis
// (ANSI), for a terminal that asked for colour.
std::string render_markdown(std::string_view markdown, bool styled);

}  // namespace klint
