// Which bytes of its source line a location marks, for the formats that show
// or point into the line (the text underline, SARIF's region).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "analyzer/diagnostic.h"
#include "analyzer/source.h"
#include "driver/finding.h"

namespace klint {

// Bytes [begin, end) of a line, end > begin.
struct ByteSpan {
  size_t begin = 0;
  size_t end = 0;
};

// The location's columns when it has them (a column past the end marks the
// end of the line, a missing end column one byte), else the first whole-word
// occurrence of its token; nullopt when it names neither. `begin` may equal
// the line's length, just after its last character.
std::optional<ByteSpan> marked_span(std::string_view line, const Location& location);

// Gives a location that has a token but no columns the columns the outputs
// underline (its token's first whole-word occurrence on its line), so that
// the text header, JSON and GitHub name the column they mark. Unchanged when
// the line is not in `sources` or does not hold the token: such a location
// keeps `file:line:`, which says no column is known.
void resolve_columns(Location& location, SourceCache& sources);
// The same for a finding's location, its notes and its witness; and the
// exact columns of each edit of its mechanical fix, which is dropped whole
// when one edit's bytes cannot be found.
void resolve_columns(Finding& finding, SourceCache& sources);

}  // namespace klint
