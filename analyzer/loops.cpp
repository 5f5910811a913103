#include "analyzer/loops.h"

#include <algorithm>

namespace klint {

using spv::Op;

std::vector<Loop> find_loops(const Module& module, const ir::Function& function) {
  const Cfg& cfg = module.cfg(function);
  const DominatorTree& dominators = module.dominators(function);
  std::vector<Loop> loops;
  for (uint32_t header = 0; header < function.blocks.size(); ++header) {
    const ir::Instruction* merge = function.blocks[header].merge();
    if (!merge || merge->opcode() != Op::OpLoopMerge || !cfg.reachable(header)) continue;
    Loop loop{header, merge, std::vector<bool>(cfg.size(), false), 0};
    loop.body[header] = true;
    std::vector<uint32_t> work;
    for (uint32_t latch : cfg.predecessors(header)) {
      if (cfg.reachable(latch) && dominators.dominates(header, latch)) work.push_back(latch);
    }
    while (!work.empty()) {
      uint32_t block = work.back();
      work.pop_back();
      if (loop.body[block]) continue;
      loop.body[block] = true;
      for (uint32_t before : cfg.predecessors(block)) {
        if (cfg.reachable(before)) work.push_back(before);
      }
    }
    loop.size = static_cast<size_t>(std::count(loop.body.begin(), loop.body.end(), true));
    loops.push_back(std::move(loop));
  }
  // Innermost first, so that a finding names the tightest loop that carries it.
  std::stable_sort(loops.begin(), loops.end(), [](const Loop& a, const Loop& b) { return a.size < b.size; });
  return loops;
}

bool is_loop_branch(const ir::Function& function, const Cfg& cfg, uint32_t block) {
  if (const ir::Instruction* merge = function.blocks[block].merge(); merge && merge->opcode() == Op::OpLoopMerge) {
    return true;
  }
  for (const ir::Block& candidate : function.blocks) {
    const ir::Instruction* merge = candidate.merge();
    if (!merge || merge->opcode() != Op::OpLoopMerge) continue;
    int header = cfg.index_of(candidate.id());
    int exit = cfg.index_of(merge->word(0));
    for (uint32_t next : cfg.successors(block)) {
      if (static_cast<int>(next) == header || static_cast<int>(next) == exit) return true;
    }
  }
  return false;
}

int block_index(const Module& module, const Cfg& cfg, const ir::Instruction& instruction) {
  const ir::Block* block = module.block_of(instruction);
  return block ? cfg.index_of(block->id()) : -1;
}

bool in_loop(const Module& module, const Cfg& cfg, const Loop& loop, const ir::Instruction& instruction) {
  int block = block_index(module, cfg, instruction);
  return block >= 0 && loop.body[static_cast<uint32_t>(block)];
}

}  // namespace klint
