#include <CLI/CLI.hpp>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>
#include <string_view>

#include <deque>
#include <filesystem>

#include "driver/baseline.h"
#include "driver/cli_values.h"
#include "driver/cache.h"
#include "driver/commands.h"
#include "driver/compile_worker.h"
#include "driver/config.h"
#include "driver/confirm.h"
#include "driver/discover.h"
#include "driver/docs.h"
#include "driver/jobs.h"
#include "driver/lint.h"
#include "driver/output/atomic_file.h"
#include "driver/output/github.h"
#include "driver/output/json.h"
#include "driver/output/markdown_terminal.h"
#include "driver/output/sarif.h"
#include "driver/output/statistics.h"
#include "driver/output/span.h"
#include "driver/output/text.h"
#include "driver/parallel.h"
#include "driver/progress.h"
#include "driver/reflect_command.h"
#include "driver/run_command.h"
#include "driver/server/server.h"
#include "driver/specialization.h"
#include "driver/stdin_input.h"
#include "driver/suggestions.h"
#include "driver/variants.h"
#include "klint_git_commit.h"  // generated at build time (driver/CMakeLists.txt)
#include "rules/rule.h"
#include "runner/isolate.h"
#include "validate/device.h"
#include "validate/targets.h"

namespace klint {
namespace {

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;

enum class FailOn { Note, Warning, Error, Never };
enum class OutputFormat { Text, Json, Github, Sarif };

struct Arguments {
  std::vector<std::string> paths;
  std::vector<std::string> defines;
  std::vector<std::string> include_dirs;
  std::string target_env;  // "" when not given: the configuration's, else CompileOptions' default
  std::string shader_stage;
  std::optional<Language> language;  // -x
  std::string entry_point;  // "" when not given: the configuration's, else main
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  std::vector<std::string> targets;
  std::vector<std::string> specialization;  // each --specialization's list, as typed
  std::string workgroup_size;
  std::string subgroup_size_constant;
  FailOn fail_on = FailOn::Warning;
  ColorMode color = ColorMode::Auto;
  OutputFormat format = OutputFormat::Text;
  std::string output;  // --output FILE; standard output when empty
  bool include_suppressed = false;
  std::optional<uint64_t> max_shared_memory;
  bool list_rules = false;
  std::string explain;
  std::string generate_docs;
  std::optional<unsigned> jobs;  // -j; every core when absent
  std::string baseline;
  std::string write_baseline;
  bool no_cache = false;
  std::string config;
  bool show_config = false;
  std::string commands;
  bool confirm = false;
  runner::ConfirmOptions confirm_options;
  uint64_t confirm_seed = 1;
  bool no_ignore = false;
  std::vector<std::string> exclude;  // --exclude; replaces klint.toml's `exclude` when given
  bool exclude_given = false;
  std::vector<std::string> extend_exclude;
  bool allow_empty = false;
  bool quiet = false;  // findings and errors only: no summary, no progress
  bool statistics = false;  // counts per rule instead of the findings
  std::string stdin_filename;  // --stdin-filename: lint standard input under this name
};

int usage_error(const std::string& message) {
  std::cerr << "klint: error: " << message << "\n";
  return kExitUsage;
}

// glslc spells one option with a single dash and a long name; CLI11 wants two.
std::vector<std::string> glslc_spellings(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = argc - 1; i > 0; --i) {  // CLI11 takes the arguments in reverse
    std::string_view arg = argv[i];
    if (arg.starts_with("-fshader-stage")) {
      args.push_back("-" + std::string(arg));
    } else {
      args.emplace_back(arg);
    }
  }
  return args;
}

// A note on standard error, as `klint: note: --ignore: rule 'a' is now 'b'; ...`;
// `about` "" when the note names its place itself.
void print_note(std::string_view about, const std::string& note, ColorMode color) {
  TextStyle style{use_color(color, STDERR_FILENO)};
  InputMessage message{std::string(about), note, false};
  message.reason_names_path = about.empty();
  print_input_message(std::cerr, message, style);
}

bool resolve_rules(const std::vector<std::string>& ids, const char* option, std::vector<const RuleInfo*>& out,
                   ColorMode color, std::string* error) {
  for (const std::string& id : ids) {
    const RuleInfo* rule = RuleRegistry::find(id);
    if (!rule) {
      const std::string suggestion = did_you_mean_rule(id);
      *error = fmt::format("{}: unknown rule '{}'{}", option, id,
                           suggestion.empty() ? " (klint --list-rules lists them)" : suggestion);
      return false;
    }
    if (std::string note = renamed_rule_note(id); !note.empty()) print_note(option, note, color);
    out.push_back(rule);
  }
  return true;
}

bool fails(Severity severity, FailOn fail_on) {
  switch (fail_on) {
    case FailOn::Note: return true;
    case FailOn::Warning: return severity != Severity::Note;
    case FailOn::Error: return severity == Severity::Error;
    case FailOn::Never: return false;
  }
  return false;
}

// --target: built-in names, a target file (*.json), or device[:INDEX] read
// live through the Vulkan loader. Loaded targets live as long as the run.
bool resolve_targets(const std::vector<std::string>& names, std::vector<const Target*>& out, std::string* error) {
  static std::deque<Target> loaded;
  for (const std::string& name : names) {
    if (const Target* target = find_target(name)) {
      out.push_back(target);
      continue;
    }
    std::optional<Target> target;
    if (name == "device" || name.starts_with("device:")) {
      uint32_t index = 0;
      if (name.size() > 7) {
        auto [end, ec] = std::from_chars(name.data() + 7, name.data() + name.size(), index);
        if (ec != std::errc() || end != name.data() + name.size()) {
          *error = fmt::format("--target {}: the device index must be a number (klint devices lists them)", name);
          return false;
        }
      }
      target = target_from_device(index, error);
      if (!target) *error = fmt::format("--target {}: {}", name, *error);
    } else if (name.ends_with(".json")) {
      target = load_target_file(name, error);
    } else {
      const std::string suggestion = did_you_mean_target(name);
      *error = fmt::format("--target: unknown target '{}'{}", name,
                           suggestion.empty() ? " (klint targets lists them)" : suggestion);
    }
    if (!target) return false;
    loaded.push_back(std::move(*target));
    out.push_back(&loaded.back());
  }
  return true;
}

CompileOptions compile_options(const Arguments& args, std::string* error) {
  CompileOptions options;
  auto env = parse_target_env(args.target_env);
  if (!env && !args.target_env.empty()) {
    *error = fmt::format("unknown --target-env '{}': use vulkan1.0 to vulkan1.3", args.target_env);
    return options;
  }
  // glslc spells it `comp`, glslangValidator's -S too.
  if (!args.shader_stage.empty() && args.shader_stage != "compute" && args.shader_stage != "comp") {
    *error = fmt::format("-fshader-stage={}: klint lints compute shaders only", args.shader_stage);
    return options;
  }
  options.target_env = env;
  options.force_compute = !args.shader_stage.empty();
  if (!args.entry_point.empty()) options.entry_point = args.entry_point;
  options.include_dirs = args.include_dirs;
  for (const std::string& define : args.defines) {
    auto equals = define.find('=');
    options.defines.emplace_back(define.substr(0, equals), equals == std::string::npos ? "" : define.substr(equals + 1));
  }
  return options;
}

void print_targets(std::ostream& out) {
  std::vector<const Target*> defaults = default_targets();
  size_t width = 0;
  for (const Target& target : builtin_targets()) width = std::max(width, target.name.size());
  out << fmt::format("  {:<{}}  {:>9}  {:>11}  {:>8}  {}\n", "target", width, "shared", "invocations", "subgroup",
                     "description");
  for (const Target& target : builtin_targets()) {
    bool is_default = std::find(defaults.begin(), defaults.end(), &target) != defaults.end();
    std::string subgroup = target.subgroup_size.min == target.subgroup_size.max
                               ? std::to_string(target.subgroup_size.min)
                               : fmt::format("{}-{}", target.subgroup_size.min, target.subgroup_size.max);
    out << fmt::format("{} {:<{}}  {:>9}  {:>11}  {:>8}  {}\n", is_default ? '*' : ' ', target.name, width,
                       target.max_compute_shared_memory_size,
                       target.max_compute_work_group_invocations ? std::to_string(target.max_compute_work_group_invocations)
                                                                 : std::string("?"),
                       subgroup,
                       target.description);
  }
  out << "\n* checked by default; choose others with --target NAME[,NAME...], a target file, or device[:INDEX]\n";
}

int print_devices(std::ostream& out) {
  std::string error;
  std::vector<DeviceInfo> devices = list_devices(&error);
  if (devices.empty()) return usage_error(error.empty() ? "no Vulkan devices found" : error);
  for (const DeviceInfo& device : devices) {
    out << fmt::format("device:{}  {} ({}, {}, Vulkan {})\n", device.index, device.name, device.type, device.driver,
                       device.api_version);
  }
  return kExitClean;
}

// What the command line says about compiling and rules, for plan_jobs.
std::optional<CommandLineSettings> command_line_settings(const Arguments& args, std::string* error) {
  CommandLineSettings settings;
  std::vector<const RuleInfo*> select;
  if (!resolve_rules(args.select, "--select", select, args.color, error) ||
      !resolve_rules(args.ignore, "--ignore", settings.ignore, args.color, error)) {
    return std::nullopt;
  }
  if (!args.select.empty()) settings.select = std::move(select);
  CompileOptions compile = compile_options(args, error);
  if (!error->empty()) return std::nullopt;
  settings.include_dirs = compile.include_dirs;
  settings.defines = compile.defines;
  if (!args.target_env.empty()) settings.target_env = compile.target_env;
  if (!args.entry_point.empty()) settings.entry_point = compile.entry_point;
  settings.force_compute = compile.force_compute;
  // Checked now, so that a bad --target is one usage error.
  std::vector<const Target*> targets;
  if (!resolve_targets(args.targets, targets, error)) return std::nullopt;
  settings.targets = args.targets;
  settings.max_shared_memory = args.max_shared_memory;
  std::optional<Specialization> specialization =
      command_line_specialization(args.specialization, args.workgroup_size, args.subgroup_size_constant, error);
  if (!specialization) return std::nullopt;
  settings.specialization = std::move(*specialization);
  return settings;
}

// The rules some job runs, in the registry's order: SARIF lists them.
std::vector<const RuleInfo*> rules_that_ran(const std::vector<Job>& jobs, const CommandLineSettings& command_line) {
  std::vector<const RuleInfo*> out = RuleRegistry::infos();
  RuleSelection when_no_job{command_line.select.value_or(std::vector<const RuleInfo*>{}), command_line.ignore};
  std::erase_if(out, [&](const RuleInfo* rule) {
    if (jobs.empty()) return !when_no_job.enabled(*rule);
    return std::none_of(jobs.begin(), jobs.end(), [&](const Job& job) { return job.options.selection.enabled(*rule); });
  });
  return out;
}

int show_config(const Arguments& args) {
  ConfigResolver configs(args.config.empty() ? std::nullopt : std::optional(args.config));
  std::set<std::string> shown_notes;
  const std::vector<std::string> paths =
      args.stdin_filename.empty() ? args.paths : std::vector<std::string>{args.stdin_filename};
  for (const std::string& path : paths) {
    std::string error;
    std::optional<FileSettings> settings = configs.settings_for(path, &error);
    if (!settings) return usage_error(error);
    for (const std::string& note : settings->notes) {
      if (shown_notes.insert(note).second) print_note("", note, args.color);
    }
    print_effective_config(std::cout, path, *settings);
  }
  return kExitClean;
}

// `klint server`: the lint's options, read as for `klint PATH`, apply to every open document.
int serve(const Arguments& args) {
  std::string error;
  std::optional<CommandLineSettings> command_line = command_line_settings(args, &error);
  if (!command_line) return usage_error(error);
  if (!args.paths.empty()) return usage_error("server: the editor names the files; give no paths");
  server::ServerOptions options{*command_line, args.config.empty() ? std::nullopt : std::optional(args.config),
                                std::nullopt, resolve_targets};
  if (!args.commands.empty() && !(options.commands = read_commands(args.commands, &error))) return usage_error(error);
  return server::run_server(options);
}

int run(const Arguments& args) {
  if (args.list_rules) {
    print_rule_list(std::cout);
    return kExitClean;
  }
  if (!args.explain.empty()) {
    const RuleInfo* rule = RuleRegistry::find(args.explain);
    if (!rule) {
      const std::string suggestion = did_you_mean_rule(args.explain);
      return usage_error(fmt::format("--explain: unknown rule '{}'{}", args.explain,
                                     suggestion.empty() ? " (klint --list-rules lists them)" : suggestion));
    }
    if (std::string note = renamed_rule_note(args.explain); !note.empty()) print_note("--explain", note, args.color);
    // docs/rules/<id>.md keeps the Markdown; a reader gets text.
    std::cout << render_markdown(rule_markdown(*rule), use_color(args.color, STDOUT_FILENO));
    return kExitClean;
  }
  if (!args.generate_docs.empty()) {
    std::string error;
    if (!write_rule_docs(args.generate_docs, &error)) return usage_error(error);
    return kExitClean;
  }
  if (args.paths.empty() && args.commands.empty() && args.stdin_filename.empty()) {
    return usage_error("no input files (klint --help shows the usage)");
  }
  if (std::optional<std::string> error = stdin_usage_error(args.paths, args.stdin_filename, !args.commands.empty())) {
    return usage_error(*error);
  }
  if (args.include_suppressed && args.format != OutputFormat::Sarif) {
    return usage_error("--include-suppressed applies to --format sarif only");
  }
  if (args.statistics && args.format != OutputFormat::Text && args.format != OutputFormat::Json) {
    return usage_error("--statistics applies to --format text and json only");
  }
  if (!args.config.empty()) {
    ReadError read_error;
    if (!read_file(args.config, &read_error)) return usage_error(fmt::format("{}: {}", args.config, read_error.reason));
  }
  if (args.show_config) return show_config(args);

  std::string error;
  std::optional<CommandLineSettings> command_line = command_line_settings(args, &error);
  if (!command_line) return usage_error(error);
  std::optional<CompileCommands> commands;
  if (!args.commands.empty()) {
    commands = read_commands(args.commands, &error);
    if (!commands) return usage_error(error);
  }
  std::optional<Baseline> baseline;
  if (!args.baseline.empty()) {
    baseline = Baseline::load(args.baseline, &error);
    if (!baseline) return usage_error(error);
  }
  std::optional<BaselineWriter> baseline_writer;
  if (!args.write_baseline.empty()) baseline_writer.emplace(args.write_baseline);

  // With --output the report is kept in memory and written whole at the end.
  std::ostringstream buffer;
  std::ostream& out = args.output.empty() ? std::cout : buffer;
  TextStyle out_style{args.format == OutputFormat::Text && args.output.empty() && use_color(args.color, STDOUT_FILENO)};
  TextStyle err_style{use_color(args.color, STDERR_FILENO)};
  ConfigResolver configs(args.config.empty() ? std::nullopt : std::optional(args.config));
  WalkOptions walk{.force_compute = command_line->force_compute,
                   .language = args.language,
                   .ignore_files = !args.no_ignore,
                   .allow_empty = args.allow_empty,
                   .exclude = std::nullopt,
                   .extend_exclude = std::nullopt,
                   .configs = &configs};
  {
    std::error_code ec;
    const std::filesystem::path here = std::filesystem::current_path(ec);
    if (args.exclude_given) walk.exclude = IgnoreList::from_patterns(args.exclude, here, &error);
    if (args.exclude_given && !walk.exclude) return usage_error("--exclude: " + error);
    walk.extend_exclude = IgnoreList::from_patterns(args.extend_exclude, here, &error);
    if (!walk.extend_exclude) return usage_error("--extend-exclude: " + error);
  }
  std::optional<StdinInput> from_stdin;
  if (!args.stdin_filename.empty()) {
    from_stdin = read_stdin_input(args.stdin_filename, args.language, command_line->force_compute, &error);
    if (!from_stdin) return usage_error(error);
  }
  Discovery discovery = from_stdin ? Discovery{{from_stdin->file}, {}} : discover_inputs(args.paths, walk);
  // A buffer an editor pipes is skipped as the same file named would be:
  // another stage, or a header.
  if (from_stdin && !command_line->force_compute && !args.language) {
    const std::string& name = from_stdin->file.path;
    if (std::optional<std::string> reason = not_a_kernel(name, from_stdin->text)) {
      discovery = Discovery{{}, {{name, *reason + "; skipped", false}}};
    }
  }
  Plan plan = plan_jobs(discovery.files, commands ? commands->jobs : std::vector<CompileJob>{}, *command_line, configs,
                        resolve_targets);
  const std::vector<Job>& jobs = plan.jobs;
  std::vector<InputMessage> messages;
  size_t input_errors = 0;
  Progress progress(args.quiet ? 0 : jobs.size());
  auto input_message = [&](const InputMessage& message) {
    // Input errors always reach the terminal; the machine formats carry them too.
    progress.clear();
    print_input_message(std::cerr, message, err_style);
    if (args.format == OutputFormat::Github) print_github(out, message);
    messages.push_back(message);
    input_errors += message.is_error;
  };
  for (const InputMessage& message : discovery.messages) input_message(message);
  if (commands) {
    for (const InputMessage& message : commands->skipped) input_message(message);
  }
  for (const InputMessage& message : plan.messages) input_message(message);

  SourceCache sources;
  // Excerpts, suppressions and fingerprints read standard input's text, never the disk's under its name.
  if (from_stdin) sources.add(from_stdin->file.path, from_stdin->text);
  std::vector<Finding> all;
  std::vector<SuppressedDiagnostic> suppressed;
  size_t linted = 0;
  size_t in_baseline = 0;
  // --confirm: the [[kernel]] manifest of each job, from the configuration
  // that applies to its file, read before the workers start.
  const bool confirming = args.confirm && !baseline_writer;
  // A file linted once is confirmed on the shader its lint loaded; variants
  // are merged first, and each is loaded again for the findings it made.
  for (Job& job : plan.jobs) job.options.keep_shader = confirming && job.variant.empty();
  std::vector<const runner::KernelManifest*> manifests(jobs.size(), nullptr);
  ConfigResolver confirm_configs(args.config.empty() ? std::nullopt : std::optional<std::string>(args.config));
  if (confirming) {
    for (size_t i = 0; i < jobs.size(); ++i) {
      std::string error;
      // A broken configuration (nullopt) was reported when the jobs were planned.
      manifests[i] = confirm_configs.kernel_for(jobs[i].input.path, &error).value_or(nullptr);
    }
  }
  // Takes out the findings the baseline holds, returning how many, and
  // confirms the rest. The workers settle the files linted once, in
  // parallel; the variants of a file are settled once merged, in order.
  auto settle = [&](FileReport& report, size_t i) {
    const size_t known = baseline ? baseline->filter(report.diagnostics, sources) : 0;
    if (confirming && jobs[i].variant.empty()) confirm_report(report, jobs[i], manifests[i], args.confirm_options, sources);
    if (confirming && !jobs[i].variant.empty()) {
      size_t first = i;
      while (first > 0 && jobs[first - 1].input.path == jobs[i].input.path && !jobs[first - 1].variant.empty()) --first;
      confirm_variants(report, std::span<const Job>(jobs).subspan(first, i + 1 - first), manifests[i],
                       args.confirm_options, sources);
    }
    return known;
  };
  // `settled`: how many findings the baseline took out in the worker, where it settled the report.
  auto emit = [&](FileReport report, size_t i, std::optional<size_t> settled) {
    const Job& job = jobs[i];
    for (const InputMessage& message : report.messages) input_message(message);
    for (Diagnostic& diagnostic : report.diagnostics) apply_severity(diagnostic, job.severity);
    for (SuppressedDiagnostic& silenced : report.suppressed) apply_severity(silenced.diagnostic, job.severity);
    linted += std::all_of(report.messages.begin(), report.messages.end(),
                          [](const InputMessage& message) { return message.linted; });
    in_baseline += settled ? *settled : settle(report, i);
    if (baseline_writer) baseline_writer->add(report.diagnostics, sources);
    // Every format names the column the text underlines.
    for (Finding& diagnostic : report.diagnostics) resolve_columns(diagnostic, sources);
    for (SuppressedDiagnostic& silenced : report.suppressed) resolve_columns(silenced.diagnostic, sources);
    if (!report.diagnostics.empty()) progress.clear();
    // Writing a baseline records the findings rather than shows them.
    for (const Finding& diagnostic : report.diagnostics) {
      if (baseline_writer || args.statistics) break;
      if (args.format == OutputFormat::Text) print_diagnostic(out, diagnostic, sources, out_style);
      if (args.format == OutputFormat::Github) print_github(out, diagnostic);
    }
    if (args.output.empty()) std::cout.flush();
    suppressed.insert(suppressed.end(), std::make_move_iterator(report.suppressed.begin()),
                      std::make_move_iterator(report.suppressed.end()));
    all.insert(all.end(), std::make_move_iterator(report.diagnostics.begin()),
               std::make_move_iterator(report.diagnostics.end()));
  };

  std::optional<ResultCache> cache;
  if (!args.no_cache && !from_stdin) {
    if (std::optional<std::string> directory = default_cache_dir()) cache.emplace(*directory);
  }
  std::atomic<size_t> done{0};
  std::vector<FileReport> variants;  // of the file being gathered
  std::vector<std::string> variant_names;
  ordered_parallel_for(
      jobs.size(), args.jobs.value_or(default_jobs()),
      [&](size_t i) {
        const Job& job = jobs[i];
        std::optional<std::string> text = cache ? read_file(job.input.path, nullptr) : std::nullopt;
        std::optional<FileReport> report;
        if (text) report = cache->load(job.input.path, *text, job.cache_key, sources);
        if (!report) {
          report = from_stdin ? lint_text(job.input, from_stdin->text, job.options, sources)
                              : lint_file(job.input, job.options, sources);
          if (text) cache->store(job.input.path, *text, job.cache_key, *report, sources);
        }
        // After the cache: a cached result is confirmed afresh.
        std::optional<size_t> settled;
        if (confirming && job.variant.empty()) settled = settle(*report, i);
        ++done;
        return std::make_pair(std::move(*report), settled);
      },
      [&](size_t i, std::pair<FileReport, std::optional<size_t>> result) {
        auto& [report, settled] = result;
        progress.update(done, jobs[i].input.path);
        if (jobs[i].variant.empty()) return emit(std::move(report), i, settled);
        variants.push_back(std::move(report));
        variant_names.push_back(jobs[i].variant);
        if (i + 1 < jobs.size() && jobs[i + 1].input.path == jobs[i].input.path) return;
        emit(merge_variants(std::move(variants), variant_names), i, std::nullopt);
        variants.clear();
        variant_names.clear();
      });
  progress.clear();
  if (cache) {
    for (const std::string& warning : cache->take_warnings()) std::cerr << "klint: warning: " << warning << "\n";
  }

  int exit_code = kExitClean;
  if (input_errors > 0) {
    exit_code = kExitUsage;
  } else if (std::any_of(all.begin(), all.end(), [&](const Diagnostic& d) { return fails(d.severity, args.fail_on); })) {
    exit_code = kExitFindings;
  }
  if (baseline_writer) {
    if (!baseline_writer->write(&error)) return usage_error(error);
    std::cerr << fmt::format("klint: wrote {} finding{} to {}\n", baseline_writer->size(),
                             baseline_writer->size() == 1 ? "" : "s", args.write_baseline);
    // Recording today's findings is the point of the run, not a failure.
    if (exit_code == kExitFindings) exit_code = kExitClean;
  }
  if (args.statistics && args.format == OutputFormat::Text) print_statistics(out, all);
  if (args.statistics && args.format == OutputFormat::Json) print_statistics_json(out, all);
  if (args.format == OutputFormat::Json && !args.statistics) print_json(out, all, messages, linted, exit_code);
  if (args.format == OutputFormat::Sarif) {
    std::error_code ec;
    SarifRun sarif{rules_that_ran(jobs, *command_line), all, suppressed, args.include_suppressed, messages, exit_code,
                   repository_root(std::filesystem::current_path(ec))};
    print_sarif(out, sarif, sources);
  }
  std::cout.flush();
  if (!args.output.empty() && !write_file_atomically(args.output, buffer.str(), &error)) return usage_error(error);
  // ruff's habit: a clean run says so where someone reads it, and stays
  // silent in pipes and logs.
  if (!args.quiet && (args.format == OutputFormat::Text || args.format == OutputFormat::Github)) {
    print_summary(std::cerr, all, linted, input_errors, err_style, ::isatty(STDERR_FILENO) == 1);
  }
  if (in_baseline > 0 && !args.quiet) {
    std::cerr << fmt::format("klint: {} finding{} in the baseline {} not shown\n", in_baseline,
                             in_baseline == 1 ? "" : "s", args.baseline);
  }
  return exit_code;
}

}  // namespace
}  // namespace klint

int main(int argc, char** argv) {
  using namespace klint;
  // A confirming run moves a large kernel's buffers (tens of megabytes each)
  // through this process and its worker several times a run. glibc maps each
  // such block afresh and returns it when freed, so every run paid for
  // faulting in and zeroing them again (a third of dev-22's time): kept in
  // the heap, freed blocks are reused.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  // glslang runs in worker processes (driver/compile_worker.h): this binary,
  // started again with this one argument.
  constexpr std::string_view kWorkerFlag = "--compile-worker";
  if (argc == 2 && argv[1] == kWorkerFlag) return run_compile_worker(3);
  // Kernels run in children (runner/isolate.h): this binary again, started
  // with this one argument, the run on descriptor 3.
  constexpr std::string_view kRunWorkerFlag = "--run-worker";
  if (argc == 2 && argv[1] == kRunWorkerFlag) return runner::run_isolated_worker(3, 4, 5);
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  // KLINT_COMPILE_IN_PROCESS=1 keeps glslang in this process: for a debugger,
  // and for measuring what the workers cost.
  if (const char* in_process = std::getenv("KLINT_COMPILE_IN_PROCESS"); !in_process || std::string_view(in_process) != "1") {
    if (!ec) set_compile_isolation(CompileIsolation{{self.string(), std::string(kWorkerFlag)}});
  }
  // KLINT_RUN_FORKED=1 runs kernels in children forked from this process:
  // for measuring what the workers cost.
  if (const char* forked = std::getenv("KLINT_RUN_FORKED"); !forked || std::string_view(forked) != "1") {
    if (!ec) runner::set_run_isolation(runner::RunIsolation{{self.string(), std::string(kRunWorkerFlag)}});
  }
  Arguments args;
  CLI::App app{"klint: find the pitfalls of Vulkan compute shaders (GLSL, HLSL, SPIR-V) before they run", "klint"};
  // "klint 0.1.0", and the commit a build from a git checkout was made from:
  // "klint 0.1.0 (01ed5b6abc-dirty)".
  constexpr std::string_view commit = KLINT_GIT_COMMIT;
  app.set_version_flag("--version", fmt::format("klint {}{}", KLINT_VERSION, commit.empty() ? "" : fmt::format(" ({})", commit)));
  app.add_option("paths", args.paths, "Files and directories to lint (directories are walked); - for standard input");
  app.add_option("--stdin-filename", args.stdin_filename,
                 "Lint standard input as the file NAME: its extension gives the language, findings and klint.toml "
                 "use it")
      ->type_name("NAME");
  auto* build = "Compiling (glslc's spelling)";
  app.add_option("-D", args.defines, "Define a macro: -DNAME or -DNAME=VALUE")->type_name("NAME[=VALUE]")->group(build)->allow_extra_args(false);
  app.add_option("-I", args.include_dirs, "Add a directory to the #include search path")->type_name("DIR")->group(build)->allow_extra_args(false);
  app.add_option("--target-env", args.target_env,
                 "vulkan1.0 ... vulkan1.3 (default: vulkan1.3; for SPIR-V, the one its version was made for)")
      ->type_name("ENV")->group(build);
  app.add_option("--fshader-stage", args.shader_stage,
                 "-fshader-stage=compute: treat files of any extension as GLSL compute shaders")->group(build);
  add_choice<std::optional<Language>>(app, "-x", args.language,
                                      {{"glsl", Language::Glsl},
                                       {"hlsl", Language::Hlsl},
                                       {"spvasm", Language::SpirvAssembly}},
                                      "The language of the files named (and of standard input), whatever their "
                                      "extension: glsl, hlsl or spvasm (glslc's -x)",
                                      "LANG")
      ->group(build);
  app.add_option("--entry", args.entry_point, "HLSL entry point (default: main)")->group(build);
  auto* rules = "Rules";
  app.add_option("--select", args.select, "Run only these rules (comma-separated ids)")->delimiter(',')->allow_extra_args(false)->group(rules);
  app.add_option("--ignore", args.ignore, "Do not run these rules (comma-separated ids)")->delimiter(',')->allow_extra_args(false)->group(rules);
  app.add_option("--target", args.targets,
                 "Devices to check against: names from 'klint targets', a target file (.json), or device[:INDEX]")
      ->delimiter(',')->allow_extra_args(false)->group(rules);
  add_count<uint64_t>(app, "--max-shared-memory", args.max_shared_memory,
                      "One workgroup memory limit in bytes, instead of the targets' limits", "BYTES",
                      "a whole number of bytes, 1 or more", 1)
      ->group(rules);
  auto* pipeline = "What the host sets when it creates the pipeline (docs/configuration.md)";
  app.add_option("--specialization", args.specialization,
                 "Lint with these specialization constants, by constant_id or name, at these values (as klint run "
                 "takes them; others keep their defaults)")
      ->type_name("CONSTANT=VALUE,...")->allow_extra_args(false)->group(pipeline);
  app.add_option("--workgroup-size", args.workgroup_size,
                 "The workgroup size the host sets: a kernel that declares none is analyzed at it, and so are the "
                 "dimensions a specialization constant gives (a declared size stays)")
      ->type_name("X,Y,Z")->group(pipeline);
  app.add_option("--subgroup-size-constant", args.subgroup_size_constant,
                 "The specialization constant (name or constant_id) the host sets to the subgroup size: lint once per "
                 "width the targets run")
      ->type_name("CONSTANT")->group(pipeline);
  app.add_flag("--list-rules", args.list_rules, "List every rule and exit")->group(rules);
  app.add_option("--explain", args.explain, "Print a rule's documentation as text and exit")->group(rules);
  app.add_option("--generate-docs", args.generate_docs, "Write docs/rules/*.md into DIR and exit")->group("");
  auto* output = "Output";
  add_choice(app, "--fail-on", args.fail_on,
             {{"note", FailOn::Note}, {"warning", FailOn::Warning}, {"error", FailOn::Error}, {"never", FailOn::Never}},
             "Exit 1 when a finding is at least: note, warning (default), error, never", "LEVEL")
      ->group(output);
  add_choice(app, "--color", args.color,
             {{"auto", ColorMode::Auto}, {"always", ColorMode::Always}, {"never", ColorMode::Never}},
             "Colour: auto (default; honours NO_COLOR), always, never", "WHEN")
      ->group(output);
  add_choice(app, "--format", args.format,
             {{"text", OutputFormat::Text}, {"json", OutputFormat::Json}, {"github", OutputFormat::Github},
              {"sarif", OutputFormat::Sarif}},
             "text (default), json (schema in docs/output.md), github (workflow annotations), "
             "sarif (SARIF 2.1.0 for code scanning)",
             "FORMAT")
      ->group(output);
  app.add_flag("-q,--quiet", args.quiet, "Print findings and errors only: no summary, no progress")->group(output);
  app.add_flag("--statistics", args.statistics,
               "Print how many findings each rule made (count, rule, summary) instead of the findings (text, json)")
      ->group(output);
  app.add_option("--output", args.output, "Write the report to FILE (whole or not at all) instead of standard output")
      ->type_name("FILE")->group(output);
  app.add_flag("--include-suppressed", args.include_suppressed,
               "List findings silenced by klint-ignore comments, marked as suppressed (sarif)")->group(output);

  add_count<unsigned>(app, "-j,--jobs", args.jobs,
                      "Lint and confirm N files at once (default: every core); output order stays the same", "N",
                      "a number of jobs, 1 or more", 1)
      ->group(output);
  app.add_flag("--no-cache", args.no_cache, "Lint every file again instead of reusing results of unchanged files")
      ->group(output);
  auto* walking = "Walking directories (files named on the command line are always linted)";
  app.add_flag("--no-ignore", args.no_ignore, "Walk what .gitignore and .ignore files leave out")->group(walking);
  auto* exclude = app.add_option("--exclude", args.exclude,
                                 "Leave these out of directory walks, instead of klint.toml's 'exclude' "
                                 "(gitignore patterns, comma-separated)")
                      ->type_name("PATTERN,...")->delimiter(',')->allow_extra_args(false)->group(walking);
  app.add_option("--extend-exclude", args.extend_exclude,
                 "Leave these out of directory walks too (gitignore patterns, comma-separated)")
      ->type_name("PATTERN,...")->delimiter(',')->allow_extra_args(false)->group(walking);
  app.add_flag("--allow-empty", args.allow_empty, "Exit 0 when a directory holds no shaders to lint")->group(walking);
  auto* configuration = "Configuration";
  app.add_option("--config", args.config, "Use this klint.toml for every file instead of each file's nearest one")
      ->type_name("FILE")->group(configuration);
  app.add_flag("--show-config", args.show_config,
               "Print the settings that apply to each file given, and the [[overrides]] that matched it, and exit")
      ->group(configuration);
  app.add_option("--commands", args.commands,
                 "Lint the shaders of a build's compile commands: glslc/glslangValidator lines, or compile_commands.json")
      ->type_name("FILE")->group(configuration);
  auto* confirming = "Confirming findings on Vulkan (docs/runner.md)";
  app.add_flag("--confirm", args.confirm,
               "Run the kernel behind each finding of a rule a run can show, and report whether it did")
      ->group(confirming);
  add_count<uint32_t>(app, "--device", args.confirm_options.device_index,
                      "Vulkan device to confirm on, as `klint devices` numbers them (default: lavapipe)", "INDEX",
                      "a device index (klint devices lists them)")
      ->group(confirming);
  add_seconds(app, "--timeout", args.confirm_options.timeout_seconds, "Kill a confirming run after SECONDS (default 10)")
      ->group(confirming);
  auto* confirm_seed = add_count<uint64_t>(app, "--seed", args.confirm_seed,
                                           "Seed of a confirming run's made-up inputs (default: the manifest's, else 1)",
                                           "N", "a whole number")
                           ->group(confirming);
  app.add_option("--reproducers", args.confirm_options.reproducers,
                 "Write a reproducer (a [[kernel]] table of the smallest failing setup) per confirmed finding into DIR")
      ->type_name("DIR")->group(confirming);
  auto* adoption = "Adopting klint on existing code";
  app.add_option("--baseline", args.baseline, "Report only findings that the baseline FILE does not hold")
      ->type_name("FILE")->group(adoption);
  app.add_option("--write-baseline", args.write_baseline, "Record every finding of this run in FILE, and exit 0")
      ->type_name("FILE")->group(adoption);

  std::vector<std::string> reflect_paths;
  ReflectFormat reflect_format = ReflectFormat::Table;
  auto* reflect = app.add_subcommand("reflect", "Report each kernel's bindings, workgroup, memory and features");
  reflect->add_option("files", reflect_paths, "Shaders to reflect")->required();
  add_choice(*reflect, "--format", reflect_format, {{"table", ReflectFormat::Table}, {"json", ReflectFormat::Json}},
             "table (default) or json", "FORMAT");
  reflect->fallthrough();
  std::string translate_path;
  std::string translate_to;
  auto* translate = app.add_subcommand("translate", "Translate a kernel to MSL, GLSL or HLSL with SPIRV-Cross");
  translate->add_option("file", translate_path, "Shader to translate")->required();
  translate->add_option("--to", translate_to, "msl, glsl or hlsl")->required()->check(CLI::IsMember({"msl", "glsl", "hlsl"}));
  translate->fallthrough();
  std::string run_path;
  RunOptions run_options;
  uint32_t run_device = 0;
  uint64_t run_seed = 1;
  size_t run_probe_rows = 64;
  auto* run_command = app.add_subcommand("run", "Run a kernel on a Vulkan device, per shape of its [[kernel]] in klint.toml or with made-up inputs (docs/runner.md)");
  run_command->add_option("file", run_path, "Shader to run")->required();
  auto* device_option = add_count<uint32_t>(*run_command, "--device", run_device,
                                            "Vulkan device (default: the CPU device, lavapipe)", "INDEX",
                                            "a device index (klint devices lists them)");
  add_seconds(*run_command, "--timeout", run_options.timeout_seconds, "Kill the run after SECONDS (default 10)");
  auto* seed_option = add_count<uint64_t>(*run_command, "--seed", run_seed,
                                          "Seed of the made-up inputs (default: the manifest's, else 1)", "N",
                                          "a whole number");
  add_run_options(*run_command, run_options);
  auto* probe_rows_option = add_count<size_t>(*run_command, "--probe-rows", run_probe_rows,
                                              "Invocations a probe table shows (default 64)", "N",
                                              "a number of rows, 1 or more", 1);
  run_command->fallthrough();
  auto* server = app.add_subcommand("server", "Serve the Language Server Protocol on standard input and output, "
                                               "for editors (docs/editors.md)");
  server->fallthrough();
  auto* targets = app.add_subcommand("targets", "List the device targets klint knows");
  auto* devices = app.add_subcommand("devices", "List the Vulkan devices of this machine");
  app.require_subcommand(0, 1);

  try {
    app.parse(glslc_spellings(argc, argv));
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  args.exclude_given = exclude->count() > 0;
  if (targets->parsed()) {
    print_targets(std::cout);
    return kExitClean;
  }
  if (devices->parsed()) return print_devices(std::cout);
  if (server->parsed()) return serve(args);
  if (confirm_seed->count()) args.confirm_options.seed = args.confirm_seed;
  if (run_command->parsed() || reflect->parsed() || translate->parsed()) {
    // klint run takes its own --specialization, and --workgroup-size; the
    // lint's would be ignored.
    for (const char* option : {"--specialization", "--workgroup-size", "--subgroup-size-constant"}) {
      if (run_command->parsed() && std::string_view(option) == "--workgroup-size") continue;
      if (app.count(option)) return usage_error(fmt::format("{} applies to linting, not to a subcommand", option));
    }
  }
  if (run_command->parsed()) {
    std::string error;
    CompileOptions options = compile_options(args, &error);
    if (!error.empty()) return usage_error(error);
    if (device_option->count()) run_options.device = run_device;
    if (seed_option->count()) run_options.seed = run_seed;
    if (probe_rows_option->count()) run_options.probe_rows = run_probe_rows;
    if (!args.config.empty()) run_options.config = args.config;
    run_options.workgroup_size = args.workgroup_size;
    return run_file(run_path, options, run_options, std::cout, std::cerr);
  }
  if (reflect->parsed() || translate->parsed()) {
    std::string error;
    CompileOptions options = compile_options(args, &error);
    if (!error.empty()) return usage_error(error);
    if (reflect->parsed()) {
      std::vector<const Target*> targets = default_targets();
      if (!args.targets.empty()) {
        targets.clear();
        if (!resolve_targets(args.targets, targets, &error)) return usage_error(error);
      }
      return run_reflect(reflect_paths, options, targets, reflect_format, std::cout, std::cerr);
    }
    auto to = translate_to == "msl"    ? reflect::TranslateTo::Msl
              : translate_to == "glsl" ? reflect::TranslateTo::Glsl
                                       : reflect::TranslateTo::Hlsl;
    return run_translate(translate_path, options, to, std::cout, std::cerr);
  }
  return run(args);
}
