// A [[kernel]] table of klint.toml, read into a runner::KernelManifest: every
// key known and of its type, every expression parsed against the declared
// variables. Whether the names it gives exist in the kernel is checked when a
// harness is made (runner/manifest.h).
#pragma once

#include <toml++/toml.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "runner/manifest.h"

namespace klint {

// `config_path` names the klint.toml in messages; `dir` (absolute) anchors
// `file`, `reference` and `expected`. On failure `error` is one line:
//   klint.toml:5:25: in 'rows * colz': unknown variable 'colz' (did you mean 'cols'?)
std::optional<runner::KernelManifest> read_kernel(const toml::table& table, const std::string& config_path,
                                                  const std::filesystem::path& dir, std::string* error);

// A `specialization` table outside [[kernel]] (linting's, at the top level,
// in [[overrides]] and [[variants]]): read as a [[kernel]]'s, with no
// variables for its expressions. Errors as read_kernel's.
std::optional<std::vector<runner::ManifestSetting>> read_specialization_table(const toml::node& value,
                                                                              const std::string& config_path,
                                                                              const std::filesystem::path& dir,
                                                                              std::string* error);

}  // namespace klint
