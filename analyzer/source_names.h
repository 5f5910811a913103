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

// The name the source gives a loop's counter, the phi of its header: its
// OpName, else the variable that the `for` on the loop's line declares or
// assigns first (`for (uint j = 0; ...`), when the phi is the loop's only
// induction variable (SymbolicValues::induction), so that an accumulator
// the loop also carries never takes the counter's name. Empty when neither
// says.
std::string loop_counter_name(const Module& module, const SourceText& source, uint32_t phi);

// How a message names an SSA value: its OpName; the block member it loads
// (`n` for a load of a push constant's `n`); the variable or element it
// loads at constant indices (`counts[1]`); a loop's counter as the source
// names it (loop_counter_name); else in words, at the source line it comes
// from ("the loop counter at line 12", "a value the loop at line 12
// carries", "the value loaded at line 12", "the value computed at line
// 12"). The SSA id (`%84`) only for a module without source lines, which has
// nothing else to point at.
std::string value_name(const Module& module, uint32_t id);

}  // namespace klint
