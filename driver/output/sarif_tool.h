// SARIF's tool.driver for a klint run: klint itself and a full description of
// each rule that ran, its documentation included, as GitHub code scanning
// shows it beside an alert.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/diagnostic.h"

namespace klint {

nlohmann::json sarif_tool_driver(const std::vector<const RuleInfo*>& rules);

// A reportingDescriptor: id, name, descriptions, help, helpUri, default
// level, and the tags, precision and problem.severity GitHub reads.
nlohmann::json sarif_rule(const RuleInfo& rule);

// Where the rule's page (docs/rules/<id>.md) is published: SARIF's helpUri,
// the language server's codeDescription.
std::string rule_doc_url(const RuleInfo& rule);

// Markdown as plain text: code blocks kept verbatim without their fences,
// heading marks and backticks dropped, the wrapped lines of a paragraph or a
// list item joined into one.
std::string markdown_to_text(std::string_view markdown);

// A message as SARIF viewers expect it, ending in a full stop. Its first
// letter stays as it is: messages may start with an identifier
// (gl_GlobalInvocationID, GroupMemoryBarrier() is another, HLSL, function
// than groupMemoryBarrier()), and klint's messages read well in lower case.
std::string sarif_sentence(std::string_view text);

// error, warning, note: a result's level and a rule's default one.
std::string_view sarif_level(Severity severity);

}  // namespace klint
