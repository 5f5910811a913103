#include <algorithm>
#include <exception>

#include "analyzer/cancel.h"
#include "rules/rule.h"

namespace klint {
namespace {

std::vector<std::unique_ptr<Rule>>& storage() {
  static std::vector<std::unique_ptr<Rule>> rules;
  return rules;
}

// Every rule rename, old id first, in the order they happened: the one place
// that knows them. An old id is never given to another rule
// (tests/rules/catalog_test.cpp checks), and a rule renamed again gets a row
// per former id, each naming its id now.
struct Rename {
  std::string_view from;
  std::string_view to;
};
constexpr Rename kRenames[] = {
    // "shader feature" named subgroup operations as well; the rule checks the
    // 8-, 16- and 64-bit types.
    {"shader-feature-unsupported", "numeric-type-unsupported"},
};

}  // namespace

void RuleRegistry::add(std::unique_ptr<Rule> rule) {
  auto& rules = storage();
  auto at = std::lower_bound(rules.begin(), rules.end(), rule->info().id,
                             [](const auto& r, std::string_view id) { return r->info().id < id; });
  rules.insert(at, std::move(rule));
}

const std::vector<std::unique_ptr<Rule>>& RuleRegistry::rules() { return storage(); }

std::vector<const RuleInfo*> RuleRegistry::infos() {
  std::vector<const RuleInfo*> out = detail::builtin_rules();
  for (const auto& rule : storage()) out.push_back(&rule->info());
  std::sort(out.begin(), out.end(), [](const RuleInfo* a, const RuleInfo* b) { return a->id < b->id; });
  return out;
}

const RuleInfo* RuleRegistry::find(std::string_view id) {
  const std::string_view current = renamed(id).value_or(id);
  for (const RuleInfo* info : infos()) {
    if (info->id == current) return info;
  }
  return nullptr;
}

std::optional<std::string_view> RuleRegistry::renamed(std::string_view id) {
  for (const Rename& rename : kRenames) {
    if (rename.from == id) return rename.to;
  }
  return std::nullopt;
}

std::vector<std::string_view> RuleRegistry::former_ids(const RuleInfo& rule) {
  std::vector<std::string_view> out;
  for (const Rename& rename : kRenames) {
    if (rename.to == rule.id) out.push_back(rename.from);
  }
  return out;
}

std::string_view RuleRegistry::first_id(const RuleInfo& rule) {
  for (const Rename& rename : kRenames) {
    if (rename.to == rule.id) return rename.from;
  }
  return rule.id;
}

const RuleDescription& RuleRegistry::describe(const RuleInfo& rule) {
  if (const RuleDescription* builtin = detail::builtin_description(rule)) return *builtin;
  for (const auto& registered : storage()) {
    if (&registered->info() == &rule) return registered->description();
  }
  static constexpr RuleDescription kUndescribed;
  return kUndescribed;
}

bool RuleSelection::enabled(const RuleInfo& rule) const {
  auto contains = [&](const std::vector<const RuleInfo*>& list) {
    return std::find(list.begin(), list.end(), &rule) != list.end();
  };
  if (contains(ignore)) return false;
  return select.empty() || contains(select);
}

std::vector<Diagnostic> run_rules(const Module& module, const RuleSelection& selection,
                                  const RuleOptions& options) {
  std::vector<Diagnostic> out;
  for (const auto& rule : RuleRegistry::rules()) {
    if (cancel::requested()) break;  // a result no one will read
    if (!selection.enabled(rule->info())) continue;
    if (rule->needs_workgroup_size() && !module.workgroup_size_declared()) continue;
    std::vector<Diagnostic> found;
    Reporter reporter(module, rule->info(), found);
    try {
      rule->check(module, options, reporter);
    } catch (const std::exception& e) {
      // A broken invariant in one rule must not cost the user the others.
      found.clear();
      found.push_back(Diagnostic{&kInternalError, Severity::Error,
                                 fmt::format("rule {} failed: {}", rule->info().id, e.what()),
                                 Location{module.path()}, {}, "please report this as a bug in klint"});
    }
    for (Diagnostic& d : found) out.push_back(std::move(d));
  }
  return out;
}

DiagnosticBuilder Reporter::at(const ir::Instruction& instruction, std::string message) {
  return at(module_.location(instruction), std::move(message)).about(instruction);
}

DiagnosticBuilder Reporter::at(Location location, std::string message) {
  out_.push_back(Diagnostic{&rule_, rule_.default_severity, std::move(message), std::move(location), {}, {}});
  return DiagnosticBuilder(*this, out_.size() - 1);
}

Diagnostic& DiagnosticBuilder::diagnostic() { return reporter_.out_[index_]; }

DiagnosticBuilder& DiagnosticBuilder::note(const ir::Instruction& at, std::string message) {
  // An instruction the compiler gave no line (the branch that joins the two
  // halves of `a || b`) is shown at the line before it, not at none.
  return note(reporter_.module_.nearest_location(at), std::move(message)).about(at);
}

DiagnosticBuilder& DiagnosticBuilder::about(const ir::Instruction& instruction) {
  const size_t ordinal = reporter_.module_.ordinal(instruction);
  std::vector<size_t>& instructions = diagnostic().instructions;
  if (ordinal != 0 && std::find(instructions.begin(), instructions.end(), ordinal) == instructions.end()) {
    instructions.push_back(ordinal);
  }
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::note(Location at, std::string message) {
  diagnostic().notes.push_back(Note{std::move(at), std::move(message)});
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::fix_title(std::string title) {
  diagnostic().fix_title = std::move(title);
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::fix(Location at, std::string replacement) {
  diagnostic().fix.push_back(Replacement{std::move(at), std::move(replacement)});
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::severity(Severity severity) {
  diagnostic().severity = severity;
  return *this;
}

}  // namespace klint
