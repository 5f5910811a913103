// The two outputs of `klint reflect`: an aligned table for people
// (format_table.cpp) and JSON for tools (format_json.cpp, schema in
// docs/reflect.md).
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "reflect/reflection.h"

namespace klint::reflect {

struct ReflectedFile {
  std::string path;
  ModuleReflection module;
};

// The version of the JSON schema, the value of its top-level "schema" key.
inline constexpr std::string_view kJsonSchema = "klint-reflect-1";

void write_table(std::ostream& out, const std::vector<ReflectedFile>& files);
// One JSON document for all files, keys sorted, indented by 2, newline-terminated.
void write_json(std::ostream& out, const std::vector<ReflectedFile>& files);

}  // namespace klint::reflect
