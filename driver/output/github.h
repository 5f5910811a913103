// `--format github`: GitHub Actions workflow commands, one per finding, so
// that a workflow run annotates the lines of a pull request:
//   ::error file=shaders/a.comp,line=12,col=5,title=shared-memory-race::message
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "driver/discover.h"
#include "driver/finding.h"

namespace klint {

void print_github(std::ostream& out, const Finding& diagnostic);
void print_github(std::ostream& out, const InputMessage& message);

// Escapes for a workflow command's message, or (`property`) for a value
// inside its `key=value,...` part.
std::string github_escape(std::string_view text, bool property);

}  // namespace klint
