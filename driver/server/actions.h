// What the server offers on a finding besides the diagnostic: code actions
// (suppress it on its line or in its file, apply the rule's mechanical fix)
// and the rule's explanation on hover.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "driver/finding.h"

namespace klint::server {

// A finding of an open document as the client was told of it.
struct Published {
  Finding finding;
  nlohmann::json diagnostic;  // the LSP Diagnostic sent
  nlohmann::json fix;         // the fix's TextEdits in the document; empty when the rule gives none
  bool in_document = true;    // false for a finding in a file the document includes
};

// The code actions for the findings whose diagnostics overlap `range`, in
// the document `uri` whose text is `text` (quickfix WorkspaceEdits):
// "Suppress RULE on this line" (a `// klint-ignore-next-line: RULE` comment
// above it, or the rule added to one already there), "Suppress RULE in this
// file" (`// klint-ignore-file: RULE` at its top, likewise), and the rule's
// fix where it has one.
nlohmann::json code_actions(const std::string& uri, const std::string& text, const std::vector<Published>& findings,
                            const nlohmann::json& range);

// The explanation (`klint --explain`'s text, as Markdown) of the rules whose
// findings cover `position`; null when none does.
nlohmann::json hover(const std::vector<Published>& findings, const nlohmann::json& position);

}  // namespace klint::server
