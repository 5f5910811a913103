#include "driver/jobs.h"

#include <algorithm>
#include <regex>
#include <set>

#include "driver/cache.h"

namespace klint {
namespace {

// The resolver's "klint.toml:7:1: reason" (or "PATH: reason") as a message
// about that file and place: an error, or a note.
InputMessage config_message(const std::string& text, bool is_error) {
  static const std::regex with_place(R"(^(.+?):(\d+):(\d+): (.*)$)");
  std::smatch match;
  if (std::regex_match(text, match, with_place)) {
    return InputMessage{match[1], match[4], is_error, static_cast<uint32_t>(std::stoul(match[2])),
                        static_cast<uint32_t>(std::stoul(match[3]))};
  }
  size_t colon = text.find(": ");
  if (colon == std::string::npos) return InputMessage{"klint.toml", text, is_error};
  return InputMessage{text.substr(0, colon), text.substr(colon + 2), is_error};
}

class Planner {
 public:
  Planner(const CommandLineSettings& command_line, ConfigResolver& configs, const TargetResolver& resolve_targets,
          Plan& plan)
      : command_line_(command_line), configs_(configs), resolve_targets_(resolve_targets), plan_(plan) {}

  // The file as discovered, once per variant of its configuration.
  void add_file(const InputFile& input) {
    std::optional<FileSettings> settings = settings_for(input.path);
    if (!settings) return;
    std::optional<LintOptions> options = lint_options(*settings, nullptr);
    if (!options) return;
    if (settings->variants.empty()) return add(input, *options, {}, *settings);
    for (const Variant& variant : settings->variants) {
      LintOptions with_variant = *options;
      // The variant's macros go between the configuration's and the command line's.
      with_variant.compile.defines = settings->defines;
      add_defines(with_variant.compile.defines, variant.defines);
      add_defines(with_variant.compile.defines, command_line_.defines);
      with_variant.specialization = settings->specialization;
      add_specialization(with_variant.specialization, variant.specialization);
      add_specialization(with_variant.specialization, command_line_.specialization);
      add(input, with_variant, variant.name, *settings);
    }
  }

  // One compile command; `named` when the file has several, so the findings
  // say which commands found them. The command's variants replace the
  // configuration's.
  void add_command(const CompileJob& command, bool named) {
    std::optional<FileSettings> settings = settings_for(command.file);
    if (!settings) return;
    std::optional<LintOptions> options = lint_options(*settings, &command.options);
    if (!options) return;
    add(InputFile{command.file, command.language, true}, *options, named ? command.variant : "", *settings);
  }

 private:
  std::optional<FileSettings> settings_for(const std::string& path) {
    std::string error;
    std::optional<FileSettings> settings = configs_.settings_for(path, &error);
    // One error stands for every file below the configuration, and so does one note.
    if (!settings && reported_.insert(error).second) plan_.messages.push_back(config_message(error, true));
    if (!settings) return settings;
    for (const std::string& note : settings->notes) {
      if (reported_.insert(note).second) plan_.messages.push_back(config_message(note, false));
    }
    return settings;
  }

  // Configuration, then the compile command's options (when there is one),
  // then the command line.
  std::optional<LintOptions> lint_options(const FileSettings& settings, const CompileOptions* command) {
    CompileOptions compile;
    if (command) {
      compile = *command;
    } else {
      compile.force_compute = command_line_.force_compute;
      if (settings.target_env) compile.target_env = *settings.target_env;
      if (settings.entry_point) compile.entry_point = *settings.entry_point;
    }
    LintOptions options;
    if (command_line_.select) {
      options.selection.select = *command_line_.select;
    } else if (settings.select) {
      options.selection.select = *settings.select;
    }
    options.selection.ignore = settings.ignore;
    options.selection.ignore.insert(options.selection.ignore.end(), command_line_.ignore.begin(),
                                    command_line_.ignore.end());

    options.compile = compile;
    options.compile.include_dirs = settings.include_dirs;
    options.compile.include_dirs.insert(options.compile.include_dirs.end(), compile.include_dirs.begin(),
                                        compile.include_dirs.end());
    options.compile.include_dirs.insert(options.compile.include_dirs.end(), command_line_.include_dirs.begin(),
                                        command_line_.include_dirs.end());
    options.compile.defines = settings.defines;
    add_defines(options.compile.defines, compile.defines);
    add_defines(options.compile.defines, command_line_.defines);
    // A command always names its target environment (the compilers' default
    // when it says nothing), so the configuration's applies to files only.
    if (command_line_.target_env) options.compile.target_env = *command_line_.target_env;
    if (command_line_.entry_point) options.compile.entry_point = *command_line_.entry_point;

    const std::vector<std::string>& names = command_line_.targets.empty() ? settings.targets : command_line_.targets;
    if (!names.empty()) {
      std::optional<std::vector<const Target*>> targets = targets_for(names, settings);
      if (!targets) return std::nullopt;
      options.rule_options.targets = *targets;
      options.rule_options.targets_declared = true;
    }
    options.rule_options.max_shared_memory = command_line_.max_shared_memory;
    options.specialization = settings.specialization;
    add_specialization(options.specialization, command_line_.specialization);
    return options;
  }

  // Resolved once per list: a device target asks the Vulkan loader.
  std::optional<std::vector<const Target*>> targets_for(const std::vector<std::string>& names,
                                                        const FileSettings& settings) {
    if (auto known = targets_.find(names); known != targets_.end()) return known->second;
    std::vector<const Target*> targets;
    std::string error;
    std::optional<std::vector<const Target*>> resolved;
    if (resolve_targets_(names, targets, &error)) {
      resolved = std::move(targets);
    } else if (reported_.insert(error).second) {
      plan_.messages.push_back(InputMessage{settings.config_path, error, true});
    }
    return targets_[names] = resolved;
  }

  // Once, or once per subgroup width where a constant holds the width.
  void add(const InputFile& input, const LintOptions& options, const std::string& variant,
           const FileSettings& settings) {
    for (auto& [width, at_width] : subgroup_width_lints(options)) {
      std::string name = variant.empty() || width.empty() ? variant + width : variant + ", " + width;
      // The language is keyed too: -x and --commands' -x read one file as another language.
      std::string key = settings_key(at_width) + '\n' + std::to_string(static_cast<int>(input.language));
      plan_.jobs.push_back(Job{input, at_width, std::move(name), settings.severity, std::move(key)});
    }
  }

  const CommandLineSettings& command_line_;
  ConfigResolver& configs_;
  const TargetResolver& resolve_targets_;
  Plan& plan_;
  std::set<std::string> reported_;
  std::map<std::vector<std::string>, std::optional<std::vector<const Target*>>> targets_;
};

}  // namespace

Plan plan_jobs(const std::vector<InputFile>& files, const std::vector<CompileJob>& commands,
               const CommandLineSettings& command_line, ConfigResolver& configs, const TargetResolver& resolve_targets) {
  Plan plan;
  Planner planner(command_line, configs, resolve_targets, plan);
  for (const InputFile& input : files) planner.add_file(input);
  // A file's commands are linted one after another, files in path order.
  std::vector<const CompileJob*> ordered;
  for (const CompileJob& command : commands) ordered.push_back(&command);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const CompileJob* a, const CompileJob* b) { return a->file < b->file; });
  for (size_t i = 0; i < ordered.size(); ++i) {
    bool several = (i > 0 && ordered[i - 1]->file == ordered[i]->file) ||
                   (i + 1 < ordered.size() && ordered[i + 1]->file == ordered[i]->file);
    planner.add_command(*ordered[i], several);
  }
  return plan;
}

void apply_severity(Diagnostic& diagnostic, const std::map<const RuleInfo*, Severity, RuleIdLess>& severity) {
  if (auto it = severity.find(diagnostic.rule); it != severity.end()) diagnostic.severity = it->second;
}

}  // namespace klint
