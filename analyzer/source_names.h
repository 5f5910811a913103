// Names SPIR-V does not keep: the local variables that inlining and SSA left
// without an OpName, recovered from the source text glslang stores in OpSource.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzer/module.h"

namespace klint {

// The source files glslang keeps in OpSource (the main file and each file it
// includes), by path, each by line from 1 (lines[0] is empty).
struct SourceText {
  std::unordered_map<std::string, std::vector<std::string>> files;

  const std::vector<std::string>* lines(const std::string& file) const {
    auto found = files.find(file);
    return found == files.end() ? nullptr : &found->second;
  }
};

SourceText source_text(const Module& module);

// Whether a line of source declares `name`: a type (or a comma of a list)
// before it, and `[`, `=`, `;` or `,` after it.
bool declares(std::string_view line, std::string_view name);

// The last line up to `use`, in its file, that declares `name`: where a
// local variable is declared, which SPIR-V does not record.
std::optional<Location> declaration_line(const SourceText& source, std::string_view name, const Location& use);

// The name of a variable: its OpName, or, for a local that inlining left
// unnamed, the first identifier on the line of one of its uses (followed by
// `[` when `indexed`) that a line up to there declares. Empty when neither says.
std::string variable_name(const Module& module, const SourceText& source, uint32_t variable, bool indexed,
                          std::initializer_list<const ir::Instruction*> uses);

}  // namespace klint
