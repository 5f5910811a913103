#include "analyzer/loops.h"

#include <algorithm>

#include "analyzer/ssa.h"

namespace klint {

using spv::Op;

namespace {

// Deep enough for any index expression a person writes; bounds the walk of
// long chains of loop-carried arithmetic.
constexpr int kInvariantDepth = 32;

// Instructions whose result depends on nothing but their operands.
bool is_pure(Op op) {
  switch (op) {
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpUMod:
    case Op::OpSMod:
    case Op::OpSRem:
    case Op::OpSNegate:
    case Op::OpShiftLeftLogical:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpBitwiseAnd:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpNot:
    case Op::OpBitcast:
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpConvertUToF:
    case Op::OpConvertSToF:
    case Op::OpConvertFToU:
    case Op::OpConvertFToS:
    case Op::OpCopyObject:
    case Op::OpCompositeExtract:
    case Op::OpCompositeConstruct:
    case Op::OpCompositeInsert:
    case Op::OpVectorShuffle:
    case Op::OpSelect:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpULessThan:
    case Op::OpULessThanEqual:
    case Op::OpUGreaterThan:
    case Op::OpUGreaterThanEqual:
    case Op::OpSLessThan:
    case Op::OpSLessThanEqual:
    case Op::OpSGreaterThan:
    case Op::OpSGreaterThanEqual:
    case Op::OpLogicalAnd:
    case Op::OpLogicalOr:
    case Op::OpLogicalNot:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      return true;
    default:
      return false;
  }
}

bool invariant(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t id, int depth) {
  if (depth > kInvariantDepth) return false;
  uint32_t value = copied_value(module, id);
  const ir::Instruction* definition = module.def(value);
  if (!definition) return false;
  int block = block_index(module, cfg, *definition);
  if (block < 0) return true;  // constants, global variables, parameters
  if (!loop.body[static_cast<uint32_t>(block)]) return true;
  if (definition->opcode() == Op::OpLoad) {
    auto storage = module.storage_class(definition->word(2));
    bool read_only = storage == spv::StorageClass::Input || storage == spv::StorageClass::PushConstant;
    return read_only && invariant(module, cfg, loop, definition->word(2), depth + 1);
  }
  if (!is_pure(definition->opcode())) return false;
  for (uint32_t input : definition->input_ids()) {
    if (!invariant(module, cfg, loop, input, depth + 1)) return false;
  }
  return true;
}

}  // namespace

bool is_loop_invariant(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t id) {
  return invariant(module, cfg, loop, id, 0);
}

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
