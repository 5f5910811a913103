#include "driver/output/json.h"

#include <nlohmann/json.hpp>

#include "driver/output/text.h"

namespace klint {
namespace {

nlohmann::json location_json(const Location& location) {
  nlohmann::json out{{"file", sanitize(location.file)}, {"line", location.line}, {"column", location.column},
                     {"end_column", location.end_column}};
  if (!location.token.empty()) out["token"] = location.token;
  if (!location.has_line() && !location.excerpt.empty()) out["excerpt"] = location.excerpt;
  return out;
}

}  // namespace

void print_json(std::ostream& out, const std::vector<Finding>& diagnostics,
                const std::vector<InputMessage>& messages, size_t files_linted, int exit_code) {
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& diagnostic : diagnostics) {
    nlohmann::json notes = nlohmann::json::array();
    for (const Note& note : diagnostic.notes) {
      notes.push_back({{"location", location_json(note.location)}, {"message", note.message}});
    }
    nlohmann::json finding{{"rule", diagnostic.rule ? std::string(diagnostic.rule->id) : std::string()},
                           {"severity", std::string(to_string(diagnostic.severity))},
                           {"message", diagnostic.message},
                           {"location", location_json(diagnostic.location)},
                           {"notes", std::move(notes)}};
    if (diagnostic.rule) finding["category"] = std::string(to_string(diagnostic.rule->category));
    if (!diagnostic.fix_title.empty()) finding["fix"] = diagnostic.fix_title;
    if (!diagnostic.fix.empty()) {
      nlohmann::json edits = nlohmann::json::array();
      for (const Replacement& edit : diagnostic.fix) {
        edits.push_back({{"location", location_json(edit.location)}, {"text", edit.text}});
      }
      finding["edits"] = std::move(edits);
    }
    if (!diagnostic.variants.empty()) finding["variants"] = diagnostic.variants;
    if (const std::optional<runner::Confirmation>& c = diagnostic.confirmation) {
      nlohmann::json witness = nlohmann::json::array();
      for (const Note& note : c->witness) {
        witness.push_back({{"location", location_json(note.location)}, {"message", note.message}});
      }
      finding["confirmation"] = {{"status", std::string(runner::to_string(c->status))},
                                 {"summary", c->summary},
                                 {"witness", std::move(witness)},
                                 {"details", c->details}};
    }
    findings.push_back(std::move(finding));
  }
  nlohmann::json inputs = nlohmann::json::array();
  for (const InputMessage& message : messages) {
    nlohmann::json input{{"path", sanitize(message.path)}, {"reason", message.reason}, {"error", message.is_error}};
    if (message.line) input["line"] = message.line;
    if (message.column) input["column"] = message.column;
    inputs.push_back(std::move(input));
  }
  nlohmann::json document{{"schema", "klint-findings-1"},  {"version", KLINT_VERSION},
                          {"files_linted", files_linted},  {"exit_code", exit_code},
                          {"findings", std::move(findings)}, {"inputs", std::move(inputs)}};
  out << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace klint
