// `klint --stdin-filename NAME [-]`: one shader read from standard input, as
// ruff's --stdin-filename reads one. NAME gives the language (by its
// extension), names the file in findings, and finds its klint.toml; the
// shader's #includes resolve beside NAME. What is on disk under NAME is never
// read.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "driver/discover.h"

namespace klint {

struct StdinInput {
  InputFile file;
  std::string text;
};

// Why the command line's paths and --stdin-filename do not go together, or
// nullopt when they do: `-` needs --stdin-filename (it alone says the
// language), and standard input is linted alone, without other paths or
// --commands.
std::optional<std::string> stdin_usage_error(const std::vector<std::string>& paths, const std::string& stdin_filename,
                                             bool commands);

// Standard input, whole, as the shader `name`; nullopt with `error` for a
// name of no language klint knows (unless `language`, from -x, or
// force_compute says) or input that cannot be read.
std::optional<StdinInput> read_stdin_input(const std::string& name, std::optional<Language> language,
                                           bool force_compute, std::string* error);

}  // namespace klint
