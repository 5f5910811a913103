#include "driver/cli_values.h"

#include <cmath>

namespace klint {

std::string choice_list(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view name : names) out += fmt::format("{}{}", out.empty() ? "" : ", ", name);
  return out;
}

std::string option_label(std::string_view declared) {
  return std::string(declared.substr(declared.rfind(',') + 1));
}

CLI::Option* add_seconds(CLI::App& app, const std::string& name, double& out, const std::string& description) {
  auto read = [label = option_label(name), &out](const std::string& value) {
    double seconds = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || !std::isfinite(seconds) ||
        seconds <= 0) {
      throw CLI::ValidationError(label, fmt::format("'{}' is not a number of seconds above 0", value));
    }
    out = seconds;
  };
  return app.add_option_function<std::string>(name, read, description)->type_name("SECONDS");
}

}  // namespace klint
