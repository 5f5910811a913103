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
  // Whether the user named the targets (--target, `targets` in klint.toml).
  // Against the default set, a capability the module declares is a
  // requirement its host checks, not a finding, and a limit above what Vulkan
  // guarantees is a warning that names the devices it fails on
  // (docs/portability.md).
  bool targets_declared = false;
  // --max-shared-memory BYTES: one explicit limit instead of the targets'.
  std::optional<uint64_t> max_shared_memory;
};

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
  // Invocations of one workgroup arriving at the finding's barrier different
  // numbers of times: some skipped it.
  BarrierArrival,
  // The finding's subgroup operation running with some lanes of its group
  // (subgroup, quad, cluster) inactive.
  PartialGroup,
  // The finding's workgroup access, run by 32 consecutive invocations, putting
  // more different words in one bank than the words it touches need.
  BankConflict,
  // The finding's buffer access, run by 32 consecutive invocations, touching
  // more 128-byte lines than the bytes it moves need.
  Coalescing,
  // Two invocations of one workgroup storing to one word of a storage buffer
  // with no barrier between, one of the stores on the finding's lines.
  WorkgroupOverlap,
  // An index at or past the length of the workgroup array it indexes, on
  // the finding's lines.
  OutOfRange,
  // Not a run: the finding's rule, run against the limits a Vulkan device at
  // hand reports, finds it again there.
  DeviceLimit,
  // Not a run: the statistics the device's compiler reports for the kernel's
  // pipeline (VK_KHR_pipeline_executable_properties) show scratch memory or
  // spilled registers.
  PipelineStatistics,
  // Not a run: the workgroup memory the device's compiler allocates for the
  // kernel's pipeline, by its statistics, keeping too few workgroups
  // resident on the finding's targets, as klint's occupancy model counts.
  Occupancy,
  // Outputs that differ, from the same inputs, between the kernel and a copy
  // of it whose accumulator (the phi or Function variable among the finding's
  // instructions) holds and sums 32-bit floats: what the fix changes.
  WidenedAccumulator,
};

// What klint says of a rule beyond the name its findings carry (RuleInfo):
// what a run can show of them, and the documentation that `klint --explain`,
// `--list-rules`, the generated docs/rules/ and SARIF's rule descriptors show.
// Found from a finding's rule with RuleRegistry::describe. `doc` is Markdown
// with the sections What it finds / Why it matters / Bad / Fix / Exceptions.
struct RuleDescription {
  RunEvidence run_evidence = RunEvidence::None;
  std::string_view summary;
  std::string_view doc;
};

// Reported by the driver, which reads the klint-ignore comments.
extern const RuleInfo kUnusedSuppression;

class Reporter;

class DiagnosticBuilder {
 public:
  DiagnosticBuilder(Reporter& reporter, size_t index) : reporter_(reporter), index_(index) {}
  DiagnosticBuilder& note(const ir::Instruction& at, std::string message);
  DiagnosticBuilder& note(Location at, std::string message);
  DiagnosticBuilder& fix_title(std::string title);
  // An edit of the fix that fix_title describes, where the fix is mechanical:
  // what `at` marks (its columns, else its token) becomes `replacement`.
  DiagnosticBuilder& fix(Location at, std::string replacement);
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
  virtual const RuleDescription& description() const = 0;
  virtual void check(const Module& module, const RuleOptions& options, Reporter& report) const = 0;
  // Whether the rule judges how the invocations of a workgroup behave
  // together, which it cannot when the kernel declares no workgroup size and
  // its host sets one (Module::workgroup_size_declared): then it does not run.
  virtual bool needs_workgroup_size() const { return true; }
};

// Every rule klint has, sorted by id, plus the diagnostics the front-end and
// validator emit (which have no Rule object).
class RuleRegistry {
 public:
  static void add(std::unique_ptr<Rule> rule);
  static const std::vector<std::unique_ptr<Rule>>& rules();
  // Rule infos of rules and of front-end diagnostics, sorted by id.
  static std::vector<const RuleInfo*> infos();
  // The rule `id` names: a rule's id, or an id a rule had before it was
  // renamed, which keeps working wherever a user names rules (--select,
  // --ignore, klint.toml, klint-ignore comments, baselines).
  static const RuleInfo* find(std::string_view id);
  // The rule's id now, when `id` is one a rule had before it was renamed.
  static std::optional<std::string_view> renamed(std::string_view id);
  // The ids `rule` had before it was renamed, oldest first.
  static std::vector<std::string_view> former_ids(const RuleInfo& rule);
  // The id a rule was first published under: fingerprints hash it, so that a
  // rename keeps baselines and code-scanning alerts matching.
  static std::string_view first_id(const RuleInfo& rule);
  // The description of a rule klint has; an empty one (no run evidence, no
  // documentation) for any other.
  static const RuleDescription& describe(const RuleInfo& rule);
};

// Orders rules as RuleRegistry::infos() lists them, by id, for output that
// lists rules (a map keyed by rule).
struct RuleIdLess {
  bool operator()(const RuleInfo* a, const RuleInfo* b) const { return a->id < b->id; }
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
// The rules no Rule object stands for (rules/builtin_descriptions.cpp).
std::vector<const RuleInfo*> builtin_rules();
const RuleDescription* builtin_description(const RuleInfo& rule);

template <class R>
struct Registrar {
  Registrar() { RuleRegistry::add(std::make_unique<R>()); }
};
}  // namespace detail

#define KLINT_REGISTER_RULE(Class) \
  static const ::klint::detail::Registrar<Class> klint_registrar_##Class {}

}  // namespace klint
