// Text from an input (a key of a config, a name in a manifest, a compiler's
// message) made fit for a one-line message: control characters shown as
// escapes, as a C string literal writes them.
#pragma once

#include <string>
#include <string_view>

namespace klint {

// "a\nb" for a, newline, b; "\t", "\r", "\0" and "\x1b" likewise. Bytes of
// 0x80 and up pass unchanged (UTF-8).
std::string printable(std::string_view text);

}  // namespace klint
