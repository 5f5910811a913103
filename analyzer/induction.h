// Induction variables of a structured loop: values the loop header carries
// that start at one value and grow by the same loop-invariant step on every
// iteration, as `for (uint i = start; i < n; i += step)` compiles.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/loops.h"
#include "analyzer/module.h"

namespace klint {

struct InductionVariable {
  const ir::Instruction* phi = nullptr;     // in the loop header
  uint32_t init = 0;                        // the value the loop is entered with
  uint32_t step = 0;                        // what each iteration adds
  const ir::Instruction* update = nullptr;  // the OpIAdd of the phi and the step
};

// The header phis whose back-edge values are all one OpIAdd of the phi (or a
// copy of it) and a loop-invariant step, and whose values from outside the
// loop are all one value. Copies through phis are looked through (see
// analyzer/ssa.h).
std::vector<InductionVariable> find_induction_variables(const Module& module, const ir::Function& function,
                                                        const Loop& loop);

// Whether `id` has the same value on every iteration of `loop`: defined
// outside it, or computed inside it without side effects from such values and
// from loads of memory no invocation writes (Input, PushConstant).
bool is_loop_invariant(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t id);

}  // namespace klint
