// klint.toml: the settings of each file, from the nearest klint.toml above it
// (or one file named by --config), with its [[overrides]] and [[variants]]
// applied. docs/configuration.md describes the schema and the precedence.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/frontend.h"
#include "driver/config_file.h"
#include "rules/rule.h"

namespace klint {

// One define set a shader is linted with, besides the file's own defines.
struct Variant {
  std::string name;
  std::vector<Define> defines;
  Specialization specialization;  // over the file's, as add_specialization adds
};

// An [[overrides]] table that applies to a file, as --show-config names it.
struct AppliedOverride {
  uint32_t line = 0;                  // of its [[overrides]] header
  std::vector<std::string> patterns;  // its `files`
};

// What the configuration says about one file. Unset fields leave klint's
// defaults (and the command line) in charge.
struct FileSettings {
  std::string config_path;                             // the klint.toml applied; "" when none
  // Where the settings come from, for --show-config and notes; they change no
  // lint result, so key() leaves them out.
  std::vector<AppliedOverride> overrides;  // in the order they applied
  size_t overrides_in_config = 0;          // [[overrides]] tables the configuration has
  std::vector<std::string> notes;          // the configuration's (ConfigFile::notes)
  std::optional<std::vector<const RuleInfo*>> select;  // nullopt: every rule
  std::vector<const RuleInfo*> ignore;
  std::map<const RuleInfo*, Severity, RuleIdLess> severity;  // replaces the rule's severity
  std::vector<std::string> include_dirs;                     // in search order, spelled as display_path does
  std::vector<Define> defines;                               // each name once
  std::vector<std::string> targets;  // --target names, target files resolved; empty: the defaults
  std::optional<TargetEnv> target_env;
  std::optional<std::string> entry_point;
  Specialization specialization;  // the pipeline's inputs the lint applies (driver/specialization.h)
  // Lint the file once per variant, with add_defines(defines, variant.defines);
  // empty: once, as it is.
  std::vector<Variant> variants;

  // Every setting that changes a lint result (all but where they come from), in a
  // canonical text: equal keys mean equal results.
  std::string key() const;
};

// Appends `more`; a macro defined again replaces its earlier definition, in
// place, as glslang would reject the redefinition.
void add_defines(std::vector<Define>& defines, const std::vector<Define>& more);

// Finds and applies configurations. Each directory's lookup and each file's
// parse happen once; safe to call from several threads.
class ConfigResolver {
 public:
  // With a path (--config FILE), that file applies to every input, its globs
  // relative to its own directory; without, each file's nearest klint.toml.
  explicit ConfigResolver(std::optional<std::string> explicit_config = std::nullopt);
  ~ConfigResolver();

  // The settings for `file` (a path as discovered: relative to the working
  // directory or absolute), or nullopt with `error` one line naming the
  // config file and the line: "klint.toml:7:1: unknown key 'selectt'".
  std::optional<FileSettings> settings_for(const std::string& file, std::string* error);

  // The [[kernel]] manifest for `file` in the configuration that applies to
  // it: nullptr when there is none, nullopt with `error` (as settings_for's)
  // when that configuration cannot be read. It lives as long as the resolver.
  std::optional<const runner::KernelManifest*> kernel_for(const std::string& file, std::string* error);

  // The configuration that applies to the files in `dir` (absolute, lexically
  // normal), for what a directory walk leaves out; nullptr when none applies
  // or it cannot be read (the files' settings report why).
  const ConfigFile* config_for_directory(const std::filesystem::path& dir);

 private:
  struct Loaded;
  // nullptr when no configuration applies to files in `dir` (absolute).
  const Loaded* config_for(const std::filesystem::path& dir);
  const Loaded* load(const std::filesystem::path& path);
  // The configuration for `absolute`, a file; nullptr when none applies.
  const Loaded* loaded_for(const std::filesystem::path& absolute);

  std::optional<std::filesystem::path> explicit_config_;
  std::mutex mutex_;
  std::map<std::filesystem::path, const Loaded*> by_directory_;
  std::map<std::filesystem::path, std::unique_ptr<Loaded>> by_path_;
};

// --show-config: the settings for `file` as TOML-like text, defaults named in
// comments.
void print_effective_config(std::ostream& out, const std::string& file, const FileSettings& settings);

}  // namespace klint
