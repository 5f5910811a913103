// How the configuration and the compile database spell the paths they name.
#pragma once

#include <filesystem>
#include <string>

namespace klint {

// `path` (absolute, or relative to the working directory) with `.` and `..`
// resolved lexically, relative to the working directory when it lies below
// it and absolute otherwise: "shaders/a.comp", "/opt/sdk/include".
std::string display_path(const std::filesystem::path& path);

// `path` as written in a file whose relative paths are relative to `base`.
std::string resolve_path(const std::filesystem::path& base, const std::string& path);

}  // namespace klint
