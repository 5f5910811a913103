// The structured loops of a function, for rules that ask what a loop carries.
#pragma once

#include <cstddef>
#include <vector>

#include "analyzer/module.h"

namespace klint {

// A structured loop: the block with the OpLoopMerge and the blocks that can
// reach one of its back edges without leaving through the header.
struct Loop {
  uint32_t header = 0;
  const ir::Instruction* merge = nullptr;
  std::vector<bool> body;  // by block index
  size_t size = 0;
};

// Innermost first, so that a finding names the tightest loop that carries it.
std::vector<Loop> find_loops(const Module& module, const ir::Function& function);

// The block index of an instruction of `function`, or -1.
int block_index(const Module& module, const Cfg& cfg, const ir::Instruction& instruction);

// Whether a branch decides whether a loop runs its next iteration: it is a loop
// header, or it jumps to a loop's header or merge block.
bool is_loop_branch(const ir::Function& function, const Cfg& cfg, uint32_t block);

bool in_loop(const Module& module, const Cfg& cfg, const Loop& loop, const ir::Instruction& instruction);

// Whether `id` has the same value on every iteration of `loop`: defined
// outside it, or computed inside it without side effects from such values and
// from loads of memory no invocation writes (Input, PushConstant).
bool is_loop_invariant(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t id);

}  // namespace klint
