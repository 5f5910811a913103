// `klint reflect` and `klint translate`: what a kernel binds and how it reads
// in other shading languages. main.cpp wires these to the command line.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "analyzer/frontend.h"
#include "validate/target.h"
#include "reflect/translate.h"

namespace klint {

enum class ReflectFormat { Table, Json };

// Compiles every file (directories are walked as for linting), reflects its
// compute entry points and prints them to `out`: one table section per entry
// point, or one JSON document for all files (docs/reflect.md). Problems go to
// `err`, one line each. Returns 0 when every file was reflected, 1 when one
// did not compile, is no compute shader or could not be reflected, 2 when an
// input could not be read (2 wins over 1).
// `targets` give each entry point's occupancy; none leaves it out.
int run_reflect(const std::vector<std::string>& paths, const CompileOptions& options,
                const std::vector<const Target*>& targets, ReflectFormat format, std::ostream& out, std::ostream& err);

// Compiles one file and prints its first compute entry point as MSL, GLSL or
// HLSL source. Exit codes as for run_reflect.
int run_translate(const std::string& path, const CompileOptions& options, reflect::TranslateTo to,
                  std::ostream& out, std::ostream& err);

}  // namespace klint
