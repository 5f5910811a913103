// What subgroup-size-assumed and subgroup-count-assumed share beyond the
// analyzer's subgroup facts (analyzer/subgroup_facts.h): where an invocation id
// is divided by a literal subgroup width. The widths a target runs are
// validate/targets.h's run_widths.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/module.h"
#include "analyzer/subgroup_facts.h"
#include "validate/target.h"
#include "validate/targets.h"

namespace klint {

// An invocation id taken modulo or divided by a literal subgroup width:
// `% 32`, `& 31`, `/ 32`, `>> 5`, and 64 likewise.
struct WidthLiteral {
  const ir::Instruction* instruction = nullptr;
  bool lane = false;  // % and &: a lane within a subgroup; / and >>: which subgroup
  uint32_t width = 0;
  uint64_t literal = 0;  // as written: 32, 31, 5
  std::string spelling;  // "% 32"
  InvocationId invocation;
};
std::vector<WidthLiteral> width_literals(const Module& module);


}  // namespace klint
