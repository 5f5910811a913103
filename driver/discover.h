// Finds the files to lint from the command line's paths.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontend.h"
#include "driver/ignore.h"

namespace klint {

class ConfigResolver;

struct InputFile {
  std::string path;       // as the user would write it: relative paths stay relative
  Language language;
  bool named_explicitly;  // given on the command line rather than found in a directory
};

// A one-line message about an input that is not linted: an error (missing,
// unreadable, symlink loop) or a note (a non-compute shader or an include-only
// header, skipped); or a note on a file that was linted but not all of it
// analyzed (`linted`).
struct InputMessage {
  std::string path;
  std::string reason;
  bool is_error = true;
  uint32_t line = 0;  // where in `path`, for errors inside a file (a configuration); 0 for the whole file
  uint32_t column = 0;
  bool linted = false;
  // The reason names the path itself ("no shaders found under shaders/"), so
  // the text leaves out the leading `PATH: `.
  bool reason_names_path = false;
};

struct Discovery {
  std::vector<InputFile> files;         // sorted by path, each file once
  std::vector<InputMessage> messages;   // in the order found
};

// What a directory walk leaves out, besides hidden files and folders (names
// starting with '.'), which it never enters.
struct WalkOptions {
  bool force_compute = false;  // -fshader-stage=compute
  // -x: the language of the files named on the command line, whatever their
  // extension (a directory walk still goes by extensions).
  std::optional<Language> language;
  bool ignore_files = true;    // honour .gitignore and .ignore (--no-ignore: false)
  bool allow_empty = false;    // a directory without shaders is not an error (--allow-empty)
  // --exclude (replaces the configuration's `exclude`) and --extend-exclude,
  // relative to the working directory.
  std::optional<IgnoreList> exclude;
  std::optional<IgnoreList> extend_exclude;
  // The klint.toml `exclude` and `extend-exclude` of the walked directories; none when null.
  ConfigResolver* configs = nullptr;
};

// The stage of a .glsl or .hlsl file that is not a compute shader though it
// declares a workgroup size, as mesh and task shaders do: from its name
// (non_compute_stage_for_path), or from what only those stages use (GLSL's
// GL_EXT_mesh_shader or GL_NV_mesh_shader, HLSL's [outputtopology] or
// DispatchMesh). nullopt for anything else.
std::optional<std::string> non_compute_stage_of(const std::string& path, std::string_view text);

// Why a shader named on the command line, piped on standard input or opened
// in an editor is not linted as a kernel, from its path and `text`:
// "not a compute shader (S stage)" for another stage (non_compute_stage_of);
// "no compute entry point" for an include-only header (a .glsl without
// main(), a .hlsl or .hlsli without [numthreads]), which git hooks and
// pre-commit pass along with the kernels. nullopt for a kernel.
std::optional<std::string> not_a_kernel(const std::string& path, std::string_view text);

// Directories are walked recursively in sorted order; in them only files that
// hold a compute shader are taken (.comp, .spv, .spvasm; .glsl and .hlsl when
// they contain a compute entry point, so include-only headers are passed over).
// Symbolic links are followed, a directory already being walked is reported as
// a symlink loop and not entered again. A path named explicitly is linted if
// klint knows its language (see language_for_path), except a .glsl, .hlsl or
// .hlsli file with no entry point at all (no main() in GLSL, no [numthreads]
// in HLSL): that is an include-only header, skipped with a note unless
// -fshader-stage=compute (force_compute) says it is a kernel.
// Paths found in a directory are the directory as given joined with the path
// below it, without `.` components or doubled slashes (`.` gives `a.comp`,
// `shaders/` gives `shaders/a.comp`); `..` is kept. Explicit files keep the
// exact spelling given.
//
// A walk skips hidden entries, what the .gitignore and .ignore files of the
// walked directories and of their parents up to the repository root (the
// nearest folder with a .git) leave out (a deeper file wins; .ignore wins over
// .gitignore), and what the exclude lists leave out. Paths named on the
// command line are taken whatever the lists say, as ruff takes them. A
// directory named that yields no shader is an error ("no shaders found under
// PATH") unless allow_empty.
Discovery discover_inputs(const std::vector<std::string>& paths, const WalkOptions& options);
Discovery discover_inputs(const std::vector<std::string>& paths, bool force_compute);

}  // namespace klint
