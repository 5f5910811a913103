// The target catalog: target JSON files (schema "klint-target-1", described in
// docs/targets.md) read and checked, the files under targets/ built into the
// binary, lookup by name and the default set.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "validate/target.h"

namespace klint {

// Reads one target. On failure returns nullopt and sets `error` to one line
// naming the file, the line and column where known, and the key:
//   targets/x.json:12:5: unknown key 'max_shared'
// Unknown keys are errors so that a misspelt key is never silently ignored.
std::optional<Target> parse_target(std::string_view json_text, const std::string& path, std::string* error);

// Reads a user's target file, e.g. for `--target ./my-gpu.json`.
std::optional<Target> load_target_file(const std::string& path, std::string* error);

// The target as a "klint-target-1" document that parse_target reads back
// unchanged; how a live device is saved for later runs, once it is given a
// file name in place of "device:N".
std::string target_to_json(const Target& target);

// The built-in targets, parsed once from the embedded files, sorted by name.
// A file that fails to parse is left out and its error listed in
// builtin_target_errors(); the tests keep that list empty.
const std::vector<Target>& builtin_targets();
const std::vector<std::string>& builtin_target_errors();

// nullptr when no built-in target has that name.
const Target* find_target(std::string_view name);

// The targets a portable compute shader is checked against when the user
// names none; docs/targets.md gives the reasons for each.
std::vector<const Target*> default_targets();
std::span<const std::string_view> default_target_names();

// The subgroup widths a pipeline may run at on a target: `preferred`, or
// min..max where the compiler picks the width per shader. nullopt when unknown.
struct WidthRange {
  uint32_t min = 0;
  uint32_t max = 0;
  friend auto operator<=>(const WidthRange&, const WidthRange&) = default;
};
std::optional<WidthRange> run_widths(const Target& target);

// The texts of targets/*.json as they were when klint was built; defined in a
// file that validate/CMakeLists.txt generates.
struct EmbeddedTargetFile {
  std::string_view path;  // "targets/<name>.json"
  std::string_view text;
};
std::span<const EmbeddedTargetFile> embedded_target_files();

}  // namespace klint
