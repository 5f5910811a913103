// A FileReport as JSON and back, for the result cache. Unlike the output
// formats this keeps every field, so that a report read back prints exactly
// like the one linted.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

#include "driver/lint.h"

namespace klint {

nlohmann::json report_to_json(const FileReport& report);

// The report `json` holds, or nullopt with `error` set to one line saying what
// is wrong when it is not shaped as report_to_json writes it or names a rule
// this klint does not have. Never throws.
std::optional<FileReport> report_from_json(const nlohmann::json& json, std::string* error);

}  // namespace klint
