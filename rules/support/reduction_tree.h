// Tree reductions through workgroup memory: the stores that combine an
// element with a partner element of the same array (`sh[i] = sh[i] + sh[i + s]`),
// and the shape of the tree a set of such steps makes, evaluated for every
// invocation of the workgroup.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/collision.h"
#include "analyzer/module.h"
#include "analyzer/symbolic.h"

namespace klint {

// The operations subgroup reductions offer.
enum class ReductionOperator { Add, Mul, Min, Max, And, Or, Xor };

// One step of a tree: sh[o] = op(sh[o], sh[o + d]), or sh[o ^ d] for the
// butterfly that leaves the total in every element. The element's own value
// may come from a register that holds it (`sum += sh[o + d]; sh[o] = sum`).
struct ReductionStep {
  const MemoryAccess* store = nullptr;
  ReductionOperator op = ReductionOperator::Add;
  Polynomial partner;      // the partner's byte offset
  uint32_t induction = 0;  // the phi of the loop's stride; 0 when the step is written out
  int64_t distance = 0;    // bytes per unit of the stride, or the distance in bytes itself
  bool butterfly = false;
};

// The step a store to workgroup memory makes, if it is one. `loads` maps the
// function's workgroup-memory loads to their accesses.
std::optional<ReductionStep> reduction_step(const Module& module, const SymbolicValues& values,
                                            const std::map<const ir::Instruction*, const MemoryAccess*>& loads,
                                            const MemoryAccess& store);

struct TreeShape {
  int64_t invocations = 0;  // the widest span of local indices that write one tree
  int64_t values = 0;       // the most elements one tree combines
  int64_t trees_per_subgroup = 1;  // trees with disjoint writers in one subgroup
  size_t steps = 0;
};

class TreeEvaluator {
 public:
  TreeEvaluator(const Module& module, const ir::Function& function);

  // The shape of the trees the steps make, when they are full trees
  // (distances 1, 2, 4, ... in elements) whose writers each lie within one
  // subgroup (CollisionFinder::kSubgroupSize, in local index order);
  // nullopt for scans, transforms, and indices or bounds klint cannot
  // evaluate.
  std::optional<TreeShape> shape(const std::vector<ReductionStep>& steps) const;

 private:
  bool enumerable(Symbol symbol) const;
  Polynomial uniform_part(const Polynomial& offset) const;
  std::vector<Assignment> other_loop_values(const ReductionStep& step) const;
  std::optional<std::vector<std::optional<int64_t>>> evaluate(const ReductionStep& step, const Polynomial& offset,
                                                              const Assignment& loop_values) const;

  const SymbolicValues& values_;
  const Accesses& accesses_;
  CollisionFinder finder_;
};

}  // namespace klint
