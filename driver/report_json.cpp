#include "driver/report_json.h"

#include <fmt/core.h>

#include <limits>
#include <nlohmann/json.hpp>

#include "rules/rule.h"

namespace klint {
namespace {

using nlohmann::json;

json location_json(const Location& location) {
  return {{"file", location.file},       {"line", location.line},       {"column", location.column},
          {"end_column", location.end_column}, {"excerpt", location.excerpt}, {"token", location.token}};
}

json notes_json(const std::vector<Note>& notes) {
  json out = json::array();
  for (const Note& note : notes) out.push_back({{"location", location_json(note.location)}, {"message", note.message}});
  return out;
}

json edits_json(const std::vector<Replacement>& edits) {
  json out = json::array();
  for (const Replacement& edit : edits) out.push_back({{"location", location_json(edit.location)}, {"text", edit.text}});
  return out;
}

json diagnostic_json(const Finding& diagnostic) {
  json notes = notes_json(diagnostic.notes);
  return {{"rule", diagnostic.rule ? json(std::string(diagnostic.rule->id)) : json(nullptr)},
          {"severity", std::string(to_string(diagnostic.severity))},
          {"message", diagnostic.message},
          {"location", location_json(diagnostic.location)},
          {"notes", std::move(notes)},
          {"fix_title", diagnostic.fix_title},
          {"variants", diagnostic.variants},
          {"instructions", diagnostic.instructions},
          {"edits", edits_json(diagnostic.fix)}};
}

json suppression_json(const Suppression& suppression) {
  return {{"file", suppression.file},   {"line", suppression.line},     {"target_line", suppression.target_line},
          {"rules", suppression.rules}, {"reason", suppression.reason}};
}

// Reads back what the functions above write. The first mismatch is kept as the
// reason; nothing here throws, whatever the document holds.
class Reader {
 public:
  const std::string& error() const { return error_; }

  bool fail(std::string reason) {
    if (error_.empty()) error_ = std::move(reason);
    return false;
  }

  // A member that is absent reads as null (see member()).
  bool wrong(const json& value, const char* what, const char* expected) {
    return fail(value.is_null() ? fmt::format("{} is missing", what) : fmt::format("{} is not {}", what, expected));
  }

  bool string(const json& value, const char* what, std::string& out) {
    if (!value.is_string()) return wrong(value, what, "a string");
    out = value.get_ref<const std::string&>();
    return true;
  }

  bool number(const json& value, const char* what, uint32_t& out) {
    if (!value.is_number_unsigned() || value.get<uint64_t>() > std::numeric_limits<uint32_t>::max()) {
      return wrong(value, what, "a 32-bit unsigned number");
    }
    out = value.get<uint32_t>();
    return true;
  }

  // Reads each element of the array `value` with `read_one(element, item)`.
  template <class T, class ReadOne>
  bool array(const json& value, const char* what, std::vector<T>& out, ReadOne read_one) {
    if (!value.is_array()) return wrong(value, what, "an array");
    out.reserve(value.size());
    for (const json& element : value) {
      T item{};
      if (!read_one(element, item)) return false;
      out.push_back(std::move(item));
    }
    return true;
  }

  bool strings(const json& value, const char* what, std::vector<std::string>& out) {
    return array(value, what, out, [&](const json& element, std::string& item) { return string(element, what, item); });
  }

  // The member `key` of `object`; a missing member reads as null, which every
  // reader above rejects with the member's name.
  const json& member(const json& object, const char* key) {
    static const json kNull;
    if (!object.is_object()) return kNull;
    auto found = object.find(key);
    return found == object.end() ? kNull : *found;
  }

  bool location(const json& value, Location& out) {
    if (!value.is_object()) return wrong(value, "a location", "an object");
    return string(member(value, "file"), "'file'", out.file) && number(member(value, "line"), "'line'", out.line) &&
           number(member(value, "column"), "'column'", out.column) &&
           number(member(value, "end_column"), "'end_column'", out.end_column) &&
           string(member(value, "excerpt"), "'excerpt'", out.excerpt) &&
           string(member(value, "token"), "'token'", out.token);
  }

  bool rule(const json& value, const RuleInfo*& out) {
    if (value.is_null()) {
      out = nullptr;
      return true;
    }
    std::string id;
    if (!string(value, "'rule'", id)) return false;
    out = RuleRegistry::find(id);
    return out || fail(fmt::format("unknown rule '{}'", id));
  }

  bool severity(const json& value, Severity& out) {
    std::string name;
    if (!string(value, "'severity'", name)) return false;
    for (Severity severity : {Severity::Note, Severity::Warning, Severity::Error}) {
      if (to_string(severity) == name) {
        out = severity;
        return true;
      }
    }
    return fail(fmt::format("unknown severity '{}'", name));
  }

  bool diagnostic(const json& value, Finding& out) {
    if (!value.is_object()) return wrong(value, "a diagnostic", "an object");
    auto note = [&](const json& element, Note& item) {
      if (!element.is_object()) return wrong(element, "a note", "an object");
      return location(member(element, "location"), item.location) &&
             string(member(element, "message"), "a note's 'message'", item.message);
    };
    return rule(member(value, "rule"), out.rule) && severity(member(value, "severity"), out.severity) &&
           string(member(value, "message"), "'message'", out.message) &&
           location(member(value, "location"), out.location) &&
           array(member(value, "notes"), "'notes'", out.notes, note) &&
           string(member(value, "fix_title"), "'fix_title'", out.fix_title) &&
           strings(member(value, "variants"), "'variants'", out.variants) &&
           array(member(value, "instructions"), "'instructions'", out.instructions,
                 [&](const json& element, size_t& item) {
                   uint32_t ordinal = 0;
                   if (!number(element, "an instruction", ordinal)) return false;
                   item = ordinal;
                   return true;
                 }) &&
           array(member(value, "edits"), "'edits'", out.fix, [&](const json& element, Replacement& item) {
             if (!element.is_object()) return wrong(element, "an edit", "an object");
             return location(member(element, "location"), item.location) &&
                    string(member(element, "text"), "an edit's 'text'", item.text);
           });
  }

  bool suppression(const json& value, Suppression& out) {
    if (!value.is_object()) return wrong(value, "a suppression", "an object");
    return string(member(value, "file"), "a suppression's 'file'", out.file) &&
           number(member(value, "line"), "a suppression's 'line'", out.line) &&
           number(member(value, "target_line"), "'target_line'", out.target_line) &&
           strings(member(value, "rules"), "a suppression's 'rules'", out.rules) &&
           string(member(value, "reason"), "'reason'", out.reason);
  }

  bool message(const json& value, InputMessage& out) {
    if (!value.is_object()) return wrong(value, "a message", "an object");
    const json& is_error = member(value, "error");
    if (!is_error.is_boolean()) return wrong(is_error, "a message's 'error'", "true or false");
    out.is_error = is_error.get<bool>();
    return string(member(value, "path"), "a message's 'path'", out.path) &&
           string(member(value, "reason"), "a message's 'reason'", out.reason);
  }

 private:
  std::string error_;
};

}  // namespace

json report_to_json(const FileReport& report) {
  json diagnostics = json::array();
  for (const Finding& diagnostic : report.diagnostics) diagnostics.push_back(diagnostic_json(diagnostic));
  json messages = json::array();
  for (const InputMessage& message : report.messages) {
    messages.push_back({{"path", message.path}, {"reason", message.reason}, {"error", message.is_error}});
  }
  json suppressed = json::array();
  for (const SuppressedDiagnostic& entry : report.suppressed) {
    suppressed.push_back(
        {{"diagnostic", diagnostic_json(entry.diagnostic)}, {"suppression", suppression_json(entry.suppression)}});
  }
  return {{"path", report.path},
          {"diagnostics", std::move(diagnostics)},
          {"messages", std::move(messages)},
          {"suppressed", std::move(suppressed)},
          {"files", report.files}};
}

std::optional<FileReport> report_from_json(const json& value, std::string* error) {
  Reader read;
  FileReport report;
  auto diagnostic = [&](const json& element, Finding& item) { return read.diagnostic(element, item); };
  auto message = [&](const json& element, InputMessage& item) { return read.message(element, item); };
  auto suppressed = [&](const json& element, SuppressedDiagnostic& item) {
    if (!element.is_object()) return read.wrong(element, "a suppressed finding", "an object");
    return read.diagnostic(read.member(element, "diagnostic"), item.diagnostic) &&
           read.suppression(read.member(element, "suppression"), item.suppression);
  };
  bool ok = (value.is_object() || read.wrong(value, "the report", "an object")) &&
            read.string(read.member(value, "path"), "'path'", report.path) &&
            read.array(read.member(value, "diagnostics"), "'diagnostics'", report.diagnostics, diagnostic) &&
            read.array(read.member(value, "messages"), "'messages'", report.messages, message) &&
            read.array(read.member(value, "suppressed"), "'suppressed'", report.suppressed, suppressed) &&
            read.strings(read.member(value, "files"), "'files'", report.files);
  if (!ok) {
    if (error) *error = read.error();
    return std::nullopt;
  }
  return report;
}

}  // namespace klint
