#include "driver/paths.h"

namespace klint {

namespace fs = std::filesystem;

std::string display_path(const fs::path& path) {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  fs::path absolute = (path.is_absolute() || ec ? path : cwd / path).lexically_normal();
  if (!absolute.has_filename() && absolute != absolute.root_path()) absolute = absolute.parent_path();  // "inc/"
  if (ec) return absolute.string();
  fs::path relative = absolute.lexically_relative(cwd);
  if (relative.empty() || *relative.begin() == "..") return absolute.string();
  return relative.string();
}

std::string resolve_path(const fs::path& base, const std::string& path) {
  fs::path p(path);
  return display_path(p.is_absolute() ? p : base / p);
}

}  // namespace klint
