// The default output, as clang and rustc users know it:
//   file:line:col: severity: message [rule-id]
//     <source line>
//     <caret or underline>
//   file:line:col: note: ...
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/source.h"
#include "driver/discover.h"
#include "driver/finding.h"

namespace klint {

enum class ColorMode { Auto, Always, Never };

// Text from an input (a message, a file name, an excerpt) as every output
// shows it: well-formed UTF-8 kept, tabs as spaces, control bytes and bytes
// that are not UTF-8 as \xNN, bidirectional overrides as <U+XXXX>. Only for
// showing: baselines, fingerprints and SARIF URIs keep a file name's bytes.
std::string sanitize(std::string_view text);

// Whether to colour output written to `fd` (NO_COLOR and TERM=dumb honoured for Auto).
bool use_color(ColorMode mode, int fd);

struct TextStyle {
  bool color = false;
};

void print_diagnostic(std::ostream& out, const Finding& diagnostic, SourceCache& sources,
                      const TextStyle& style);
// `klint: error: PATH: REASON` (or `note:`), one line.
void print_input_message(std::ostream& out, const InputMessage& message, const TextStyle& style);
// e.g. "2 errors, 1 warning in 3 files (1 input error)"; zero counts are
// left out. Without findings: "checked 3 files: no findings", with
// " (1 input error)" when inputs failed, or "nothing linted (1 input error)"
// when no file was; a clean run prints it only when `show_clean`.
void print_summary(std::ostream& out, const std::vector<Finding>& diagnostics, size_t files_linted,
                   size_t input_errors, const TextStyle& style, bool show_clean = false);

}  // namespace klint
