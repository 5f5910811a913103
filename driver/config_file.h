// One klint.toml, read and checked: every key known, every rule id, target,
// glob and define valid, or one error naming the file, line and column.
// driver/config.h applies what it says to each file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/frontend.h"
#include "driver/glob.h"
#include "driver/ignore.h"
#include "driver/specialization.h"
#include "runner/manifest.h"

namespace klint {

// A macro as CompileOptions holds it: name and value, the value "" for `-DNAME`.
using Define = std::pair<std::string, std::string>;

// The settings one table sets (the top level or an [[overrides]] entry). A key
// the table leaves out changes nothing.
struct ConfigLayer {
  std::optional<std::vector<const RuleInfo*>> select;  // replaces
  std::optional<std::vector<const RuleInfo*>> ignore;  // replaces
  std::vector<const RuleInfo*> extend_ignore;          // adds
  std::vector<std::pair<const RuleInfo*, Severity>> severity;
  std::vector<Define> defines;                      // adds
  std::vector<std::string> include_dirs;            // adds; resolved against the config's directory
  std::optional<std::vector<std::string>> targets;  // replaces; target files resolved likewise
  std::optional<TargetEnv> target_env;
  std::optional<std::string> entry_point;
  // `specialization` adds (a later value of one constant wins);
  // `workgroup-size` and `subgroup-size-constant` replace.
  Specialization specialization;
};

struct ConfigOverride {
  std::vector<Glob> files;
  ConfigLayer settings;
  uint32_t line = 0;  // of its [[overrides]] header, for --show-config
};

struct ConfigVariant {
  std::vector<Glob> files;
  std::string name;
  std::vector<Define> defines;
  Specialization specialization;  // over the file's, as `defines` is
  uint32_t line = 0;  // of its [[variants]] header, for errors found when it is applied
};

struct ConfigFile {
  std::string path;           // as display_path spells it, for messages
  std::filesystem::path dir;  // absolute; globs are relative to it
  ConfigLayer settings;
  std::vector<ConfigOverride> overrides;  // in file order: later ones win
  std::vector<ConfigVariant> variants;
  std::vector<runner::KernelManifest> kernels;  // [[kernel]] tables, each for a file of its own
  // What directory walks leave out (driver/ignore.h), relative to `dir`:
  // `exclude` replaces klint's default (none), `extend-exclude` adds to it.
  std::optional<IgnoreList> exclude;
  std::optional<IgnoreList> extend_exclude;
  // What the user should know but that does not stop klint, in the form of an
  // error: "klint.toml:3:11: rule 'a' is now 'b'; the old id still works".
  std::vector<std::string> notes;

  // The [[kernel]] whose `file` is `shader` (relative to the working
  // directory or absolute), or nullptr.
  const runner::KernelManifest* kernel_for(const std::filesystem::path& shader) const;
};

// Reads and checks `path`. On failure `error` is one line:
//   klint.toml:7:1: unknown key 'selectt' in [[overrides]] (did you mean 'select'?)
std::optional<ConfigFile> load_config(const std::filesystem::path& path, std::string* error);

// The same for a text already read; `path` names it and anchors its relative paths.
std::optional<ConfigFile> parse_config(std::string_view text, const std::filesystem::path& path, std::string* error);

}  // namespace klint
