// Builds a klint::Module from GLSL source for analysis tests, through the
// loader the lint uses (validate/loaded_shader.h): compiled, validated, normalized.
#pragma once

#include <memory>
#include <string>

#include "analyzer/module.h"

namespace klint::testing {

// Fails the current test (and returns nullptr) when the source does not compile.
std::unique_ptr<Module> module_from_glsl(const std::string& source, bool normalized = true);
// The same from SPIR-V assembly, assembled and decoded as written: neither
// validated nor normalized.
std::unique_ptr<Module> module_from_assembly(const std::string& source);

}  // namespace klint::testing
