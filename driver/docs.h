// Rule documentation, generated from the rules' metadata: `klint --explain`,
// `klint --list-rules` and docs/rules/<id>.md all come from here.
#pragma once

#include <ostream>
#include <string>

#include "analyzer/diagnostic.h"

namespace klint {

std::string rule_markdown(const RuleInfo& rule);
void print_rule_list(std::ostream& out);
// Writes DIR/<id>.md for every rule and DIR/README.md indexing them. Returns
// false with a reason when a file cannot be written.
bool write_rule_docs(const std::string& directory, std::string* error);

}  // namespace klint
