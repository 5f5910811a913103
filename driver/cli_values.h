// Option values read and refused in klint's words rather than CLI11's, one
// format for every option:
//   klint: error: --fail-on: 'bogus' is not one of note, warning, error, never
//   klint: error: --max-shared-memory: '4k' is not a whole number of bytes
// CLI11 prints a ValidationError as "NAME: MESSAGE", so each reader throws one.
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace klint {

// "note, warning, error, never"
std::string choice_list(const std::vector<std::string_view>& names);

// How messages name an option declared as "-j,--jobs": "--jobs".
std::string option_label(std::string_view declared);

// An option that takes one of `choices`, by name only (never by the number
// behind it: `--fail-on=2` is refused).
template <class T>
CLI::Option* add_choice(CLI::App& app, const std::string& name, T& out,
                        std::vector<std::pair<std::string, T>> choices, const std::string& description,
                        const std::string& type_name) {
  auto read = [label = option_label(name), &out, choices](const std::string& value) {
    for (const auto& [choice, result] : choices) {
      if (choice == value) {
        out = result;
        return;
      }
    }
    std::vector<std::string_view> names;
    for (const auto& choice : choices) names.push_back(choice.first);
    throw CLI::ValidationError(label, fmt::format("'{}' is not one of {}", value, choice_list(names)));
  };
  return app.add_option_function<std::string>(name, read, description)->type_name(type_name);
}

// A decimal integer of at least `minimum` ("4k", "-1", "+2" and "0x10" are
// refused).
template <class Integer>
std::optional<Integer> read_count(std::string_view text, Integer minimum) {
  Integer value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || text[0] == '-' || text[0] == '+' || ec != std::errc() || end != text.data() + text.size() ||
      value < minimum) {
    return std::nullopt;
  }
  return value;
}

// An option whose value read_count reads; `what` completes "'x' is not ...":
// "a whole number of bytes", "a number of jobs, 1 or more".
template <class Integer, class Target>
CLI::Option* add_count(CLI::App& app, const std::string& name, Target& out, const std::string& description,
                       const std::string& type_name, std::string_view what, Integer minimum = 0) {
  auto read = [label = option_label(name), &out, what = std::string(what), minimum](const std::string& value) {
    std::optional<Integer> count = read_count<Integer>(value, minimum);
    if (!count) throw CLI::ValidationError(label, fmt::format("'{}' is not {}", value, what));
    out = *count;
  };
  return app.add_option_function<std::string>(name, read, description)->type_name(type_name);
}

// A number of seconds above 0 ("10", "0.5").
CLI::Option* add_seconds(CLI::App& app, const std::string& name, double& out, const std::string& description);

}  // namespace klint
