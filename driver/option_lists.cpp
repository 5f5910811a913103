#include "driver/option_lists.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace klint {

std::optional<runner::Number> parse_number(std::string_view text) {
  int64_t integer = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), integer);
  if (ec == std::errc() && end == text.data() + text.size()) return runner::Number{integer};
  const std::string copy(text);
  char* real_end = nullptr;
  const double real = std::strtod(copy.c_str(), &real_end);
  if (!copy.empty() && real_end == copy.c_str() + copy.size() && std::isfinite(real)) return runner::Number{real};
  return std::nullopt;
}

std::vector<Assignment> assignments(const std::string& text) {
  std::vector<Assignment> out;
  for (size_t start = 0; start <= text.size();) {
    const size_t comma = std::min(text.find(',', start), text.size());
    std::string item = text.substr(start, comma - start);
    start = comma + 1;
    const size_t equals = item.find('=');
    std::string name = item.substr(0, equals);
    std::optional<runner::Number> value =
        equals == std::string::npos ? std::nullopt : parse_number(std::string_view(item).substr(equals + 1));
    out.push_back({std::move(item), std::move(name), value});
  }
  return out;
}

std::optional<std::vector<runner::SpecializationSetting>> parse_specialization(const std::string& text,
                                                                               std::string* error) {
  std::vector<runner::SpecializationSetting> settings;
  for (auto& [item, name, value] : text.empty() ? std::vector<Assignment>{} : assignments(text)) {
    // A bool constant takes true and false, as in klint.toml.
    if (item == name + "=true" || item == name + "=false") value = runner::Number{int64_t{item.ends_with("=true")}};
    if (!value || name.empty()) {
      *error = fmt::format("--specialization '{}': '{}' is not CONSTANT=NUMBER", text, item);
      return std::nullopt;
    }
    settings.push_back({name, *value});
  }
  return settings;
}

std::optional<std::array<uint32_t, 3>> parse_dimensions(const std::string& text) {
  std::array<uint32_t, 3> size{1, 1, 1};
  size_t axis = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  while (true) {
    if (axis == 3) return std::nullopt;
    auto [next, ec] = std::from_chars(p, end, size[axis++]);
    if (ec != std::errc() || next == p || size[axis - 1] == 0) return std::nullopt;
    if (next == end) return size;
    if (*next != ',') return std::nullopt;
    p = next + 1;
  }
}

}  // namespace klint
