// The lists options take on the command line: `NAME=NUMBER,...` (--shape,
// --specialization) and `X[,Y[,Z]]` (--grid, --workgroup-size). `klint run`
// and linting read them with the same functions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/expression.h"
#include "runner/run.h"

namespace klint {

// An integer, else a finite float; nullopt for anything else.
std::optional<runner::Number> parse_number(std::string_view text);

// One NAME=NUMBER of a comma-separated list: the item as typed, the name
// before '=', the number after it (nullopt without '=' or when it is not a
// number).
struct Assignment {
  std::string item;
  std::string name;
  std::optional<runner::Number> value;
};
std::vector<Assignment> assignments(const std::string& text);

// --specialization CONSTANT=VALUE,...: constants by constant_id or name; a
// value is a number, `true` or `false`. "" gives none. Fails with
// "--specialization 'N': 'N' is not CONSTANT=NUMBER".
std::optional<std::vector<runner::SpecializationSetting>> parse_specialization(const std::string& text,
                                                                               std::string* error);

// X[,Y[,Z]] of integers from 1 up; the axes left out are 1.
std::optional<std::array<uint32_t, 3>> parse_dimensions(const std::string& text);

}  // namespace klint
