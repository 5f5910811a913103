// The one currency of klint: every stage (front-end, validation, rules, later
// reflection and the runner) reports through Diagnostic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace klint {

enum class Severity { Note, Warning, Error };
enum class Category { Correctness, Portability, Performance, Input };

std::string_view to_string(Severity severity);
std::string_view to_string(Category category);

// What a run of the kernel can show to confirm a finding of a rule (`klint
// --confirm`, runner/confirm.h). Lines of a finding: its own, its notes', and
// every line of the loop it sits on.
enum class RunEvidence {
  None,               // no run can show it: --confirm gives its findings no verdict
  Race,               // a race with one of its accesses on the finding's lines
  UninitializedRead,  // a read, on the finding's lines, of an element no invocation had written
  // Inside the loop, two workgroups storing to one word, or one load of the
  // loop reading one word in two workgroups: the workgroups redo each other's
  // elements.
  GridStrideRepeat,
  // A race, unwritten read or index out of range on the finding's lines, or
  // outputs that differ between two subgroup sizes beyond float rounding.
  SubgroupSizeDependence,
};

// Metadata of a rule. Diagnostics point at their RuleInfo, so rule identity is
// an address, never a compared string. `doc` is Markdown with the sections
// What it finds / Why it matters / Bad / Fix / Exceptions.
struct RuleInfo {
  std::string_view id;
  Category category;
  Severity default_severity;
  RunEvidence run_evidence = RunEvidence::None;
  std::string_view summary;
  std::string_view doc;
};

// Diagnostics that no rule object produces: the front-end and the validator
// emit them, the registry lists them with the rules.
extern const RuleInfo kCompileError;
extern const RuleInfo kInvalidSpirv;
extern const RuleInfo kInternalError;
extern const RuleInfo kUnusedSuppression;  // reported by the driver, which reads the comments

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

// What running the kernel showed about a finding (`klint --confirm`).
struct Confirmation {
  enum class Status { Confirmed, NotReproduced, NotRunnable };
  Status status = Status::NotRunnable;
  // One line: the witness, what was tried, or why the kernel could not run.
  std::string summary;
  // The accesses the witness is made of, where the source has them.
  std::vector<Note> witness;
  // How the run was set up: grid, seed, subgroup sizes, guesses made.
  std::vector<std::string> details;
};

std::string_view to_string(Confirmation::Status status);  // "confirmed", "not reproduced", "not runnable"

struct Diagnostic {
  const RuleInfo* rule = nullptr;
  Severity severity = Severity::Error;
  std::string message;
  Location location;
  std::vector<Note> notes;
  std::string fix_title;
  // Set by the driver when a configuration lints one shader as several
  // variants (define sets): the variants that found this. Empty otherwise.
  std::vector<std::string> variants;
  // Set by `--confirm` for the rules whose findings a run can show.
  std::optional<Confirmation> confirmation;
  // The instructions the finding and its notes are about, by 1-based ordinal
  // in the module the rules saw (Module::ordinal): how a run's evidence joins
  // the finding, since (file, line) means nothing in a module without line info.
  std::vector<size_t> instructions;
};

// Deterministic order for output: file, line, column, rule id, message.
bool diagnostic_less(const Diagnostic& a, const Diagnostic& b);

}  // namespace klint
