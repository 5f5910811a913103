// `--output FILE`: the report appears whole or not at all.
#pragma once

#include <string>
#include <string_view>

namespace klint {

// Writes `text` to PATH.tmp-<pid> in PATH's directory, flushes it to disk and
// renames it over PATH, so that neither a reader nor a crash ever sees half a
// file (a symbolic link at PATH is replaced, not followed). On failure the
// temporary file is removed, PATH is left as it was and `error` says
// "PATH: reason".
bool write_file_atomically(const std::string& path, std::string_view text, std::string* error);

}  // namespace klint
