// The one currency of klint: every stage (front-end, validation, rules, later
// reflection and the runner) reports through Diagnostic.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace klint {

enum class Severity { Note, Warning, Error };
enum class Category { Correctness, Portability, Performance, Input };

std::string_view to_string(Severity severity);
std::string_view to_string(Category category);

// The name a finding gives its rule. Diagnostics point at their RuleInfo, so
// rule identity is an address, never a compared string. What else klint says
// of a rule (its summary and documentation, what a run can show) belongs to
// the rule API (rules/rule.h), which finds it from this address.
struct RuleInfo {
  std::string_view id;
  Category category;
  Severity default_severity;
};

// Findings that no rule object produces: the front end and the validator emit
// them, the registry lists them with the rules.
extern const RuleInfo kCompileError;
extern const RuleInfo kInvalidSpirv;
extern const RuleInfo kInternalError;

// A place in a file. line and column are 1-based; 0 means unknown. When the
// file has no text to show (a .spv without line info), `excerpt` holds what to
// show instead, e.g. the disassembled instruction.
struct Location {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t end_column = 0;  // exclusive; 0 when only the start is known
  std::string excerpt;
  // The identifier the finding is about (e.g. "barrier"). Compilers give lines
  // but seldom columns; output formats that see the source underline this
  // identifier when the column is unknown.
  std::string token;

  bool has_line() const { return line != 0; }
  friend bool operator==(const Location&, const Location&) = default;
};

struct Note {
  Location location;
  std::string message;
};

// One edit of a mechanical fix: what `location` marks (its columns, else its
// token on its line) becomes `text`.
struct Replacement {
  Location location;
  std::string text;
};

struct Diagnostic {
  const RuleInfo* rule = nullptr;
  Severity severity = Severity::Error;
  std::string message;
  Location location;
  std::vector<Note> notes;
  std::string fix_title;
  // The edits that make the fix `fix_title` describes, where it is mechanical
  // (a language server offers them as a quick fix); empty otherwise.
  std::vector<Replacement> fix;
  // The instructions the finding and its notes are about, by 1-based ordinal
  // in the module the rules saw (Module::ordinal): how a run's evidence joins
  // the finding, since (file, line) means nothing in a module without line info.
  std::vector<size_t> instructions;
};

// Deterministic order for output: file, line, column, rule id, message.
bool diagnostic_less(const Diagnostic& a, const Diagnostic& b);

}  // namespace klint
