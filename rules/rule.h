// The rule interface: a rule says what it looks at in a Module and judges each
// match, reporting through a Reporter. Rules never modify the module.
#pragma once

#include <fmt/core.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/module.h"
#include "validate/target.h"
#include "validate/targets.h"

namespace klint {

// Settings rules read; each one is honoured by the rule that documents it.
struct RuleOptions {
  // --target: the devices portability rules check against.
  std::vector<const Target*> targets = default_targets();
  // --max-shared-memory BYTES: one explicit limit instead of the targets'.
  std::optional<uint64_t> max_shared_memory;
};

class Reporter;

class DiagnosticBuilder {
 public:
  DiagnosticBuilder(Reporter& reporter, size_t index) : reporter_(reporter), index_(index) {}
  DiagnosticBuilder& note(const ir::Instruction& at, std::string message);
  DiagnosticBuilder& note(Location at, std::string message);
  DiagnosticBuilder& fix_title(std::string title);
  // An instruction the finding is about that neither its location nor a note
  // names (the location was computed, e.g. the nearest line), so that a run's
  // evidence can join the finding by instruction.
  DiagnosticBuilder& about(const ir::Instruction& instruction);
  // For a finding graver (or milder) than the rule's default severity.
  DiagnosticBuilder& severity(Severity severity);

 private:
  Diagnostic& diagnostic();
  Reporter& reporter_;
  size_t index_;
};

class Reporter {
 public:
  Reporter(const Module& module, const RuleInfo& rule, std::vector<Diagnostic>& out)
      : module_(module), rule_(rule), out_(out) {}

  // A finding at an instruction (its source line, or the file and the
  // disassembled instruction when the module has no line info).
  DiagnosticBuilder at(const ir::Instruction& instruction, std::string message);
  // A finding about the module as a whole, e.g. at an entry point.
  DiagnosticBuilder at(Location location, std::string message);

  const Module& module() const { return module_; }

 private:
  friend class DiagnosticBuilder;
  const Module& module_;
  const RuleInfo& rule_;
  std::vector<Diagnostic>& out_;
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  virtual void check(const Module& module, const RuleOptions& options, Reporter& report) const = 0;
};

// Every rule klint has, sorted by id, plus the diagnostics the front-end and
// validator emit (which have no Rule object).
class RuleRegistry {
 public:
  static void add(std::unique_ptr<Rule> rule);
  static const std::vector<std::unique_ptr<Rule>>& rules();
  // Rule infos of rules and of front-end diagnostics, sorted by id.
  static std::vector<const RuleInfo*> infos();
  static const RuleInfo* find(std::string_view id);
};

// --select and --ignore. An empty select means every rule.
struct RuleSelection {
  std::vector<const RuleInfo*> select;
  std::vector<const RuleInfo*> ignore;
  bool enabled(const RuleInfo& rule) const;
};

// Runs every enabled rule. A rule that throws becomes an internal-error
// diagnostic naming it; the other rules still run.
std::vector<Diagnostic> run_rules(const Module& module, const RuleSelection& selection,
                                  const RuleOptions& options);

namespace detail {
template <class R>
struct Registrar {
  Registrar() { RuleRegistry::add(std::make_unique<R>()); }
};
}  // namespace detail

#define KLINT_REGISTER_RULE(Class) \
  static const ::klint::detail::Registrar<Class> klint_registrar_##Class {}

}  // namespace klint
