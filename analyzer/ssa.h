// SSA form threads a variable through every loop and merge it crosses, as phis
// of the value and of each other. Analyses that ask what a value is look
// through such phis.
#pragma once

#include <cstdint>

#include "analyzer/module.h"

namespace klint {

// The value `id` copies: for a phi whose inputs, each resolved the same way,
// are one value (inputs that only lead back into phis being resolved, as in
// an SSA cycle, add nothing), that value; otherwise `id` itself. Gives up,
// answering `id`, past a budget of visited phis.
uint32_t copied_value(const Module& module, uint32_t id);

// The value stored into a Function variable that is written once, whole, and
// otherwise only read (directly or through access chains): what every load
// after the store reads. glslang passes HLSL entry-point parameters through
// such variables, which SSA rewriting keeps when they are read by component.
// 0 for any other variable.
uint32_t stored_once(const Module& module, uint32_t variable);

}  // namespace klint
