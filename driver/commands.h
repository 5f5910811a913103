// --commands FILE: the shader compile commands a build already runs, read so
// that klint lints each shader exactly as the build compiles it. Two forms:
//   - text: one glslc or glslangValidator command a line, as a shell would
//     split it (quotes, `\` continuations; blank lines and `#` comments skipped);
//   - JSON: a compile_commands.json array of {"directory", "command" or
//     "arguments", "file"}; entries for other compilers are passed over.
// Relative paths are relative to the entry's "directory", else to the
// directory of FILE. docs/configuration.md lists the options read.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontend.h"
#include "driver/discover.h"

namespace klint {

// One shader as one command compiles it.
struct CompileJob {
  std::string file;  // spelled as display_path does
  Language language;
  CompileOptions options;  // include_dirs resolved; target_env vulkan1.0 unless the command says, as the compilers
  // Unique among the jobs of `file`, stable across runs: the stem of the -o
  // file ("matmul_f16" for -o matmul_f16.spv), else the defines
  // ("-DDATA_A_F16=1 -DB_TYPE=float16_t"), else "no defines".
  std::string variant;
  std::string origin;  // where the command is: "shaders.txt:12", "compile_commands.json: entry 3"
};

struct CompileCommands {
  std::vector<CompileJob> jobs;       // in command order; the same compile twice is kept once
  std::vector<InputMessage> skipped;  // non-compute shaders, as notes (is_error false)
};

// nullopt with `error` one line naming the file and, for the text form, the
// line: "shaders.txt:4: unknown glslc option '-fbogus'".
std::optional<CompileCommands> read_commands(const std::string& path, std::string* error);

// The same for a text already read; `path` names it and anchors relative paths.
std::optional<CompileCommands> parse_commands(std::string_view text, const std::string& path, std::string* error);

}  // namespace klint
