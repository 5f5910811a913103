// What a run lints: each file (found on the command line or read from a
// compile database) once, or once per variant, each with the options that the
// configuration, the compile command and the command line give it together.
// Precedence, lowest first: klint.toml (with its overrides), the compile
// command, the command line (docs/configuration.md).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "driver/commands.h"
#include "driver/config.h"
#include "driver/discover.h"
#include "driver/lint.h"

namespace klint {

// What the command line says; unset fields leave the configuration in charge.
struct CommandLineSettings {
  std::optional<std::vector<const RuleInfo*>> select;  // --select replaces the configuration's
  std::vector<const RuleInfo*> ignore;                 // --ignore adds to it
  std::vector<std::string> include_dirs;               // -I, after the configuration's
  std::vector<Define> defines;                         // -D, replacing a macro of the same name
  std::optional<TargetEnv> target_env;
  std::optional<std::string> entry_point;
  std::vector<std::string> targets;                    // --target; empty: the configuration's
  std::optional<uint64_t> max_shared_memory;
  bool force_compute = false;
  // --specialization adds to the configuration's; --workgroup-size and
  // --subgroup-size-constant replace its values.
  Specialization specialization;
};

// One compilation of one file: the file itself, or one of its variants.
struct Job {
  InputFile input;
  LintOptions options;
  // "" when the file is linted once; else the variant, the subgroup width
  // (subgroup_width_lints), or both: "f16, subgroup size 32".
  std::string variant;
  std::map<const RuleInfo*, Severity, RuleIdLess> severity;  // the configuration's, applied to the findings
  std::string cache_key;
};

struct Plan {
  std::vector<Job> jobs;               // in output order; a file's variants are consecutive
  std::vector<InputMessage> messages;  // bad configurations (errors), skipped commands (notes)
};

// Resolves --target style names (built-in, *.json, device[:N]).
using TargetResolver =
    std::function<bool(const std::vector<std::string>& names, std::vector<const Target*>& out, std::string* error)>;

// The jobs for `files` (discovered) and `commands` (a compile database's).
// A file whose configuration is broken is not linted: the configuration's
// error is reported once, as an input error.
Plan plan_jobs(const std::vector<InputFile>& files, const std::vector<CompileJob>& commands,
               const CommandLineSettings& command_line, ConfigResolver& configs, const TargetResolver& resolve_targets);

// Gives a finding the severity the configuration sets for its rule.
void apply_severity(Diagnostic& diagnostic, const std::map<const RuleInfo*, Severity, RuleIdLess>& severity);

}  // namespace klint
