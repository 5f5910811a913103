// Control-flow graph of one function, its dominator and post-dominator trees,
// and control dependence. Blocks are numbered by their position in
// ir::Function::blocks.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analyzer/ir/module.h"

namespace klint {

class Cfg {
 public:
  explicit Cfg(const ir::Function& function);

  size_t size() const { return successors_.size(); }
  const std::vector<uint32_t>& successors(uint32_t block) const { return successors_[block]; }
  const std::vector<uint32_t>& predecessors(uint32_t block) const { return predecessors_[block]; }
  // -1 when no block of the function has this label.
  int index_of(uint32_t label_id) const;
  // Blocks reachable from the entry, in reverse post-order.
  const std::vector<uint32_t>& reverse_post_order() const { return rpo_; }
  bool reachable(uint32_t block) const { return reachable_[block]; }
  // Ends the invocation: OpReturn, OpReturnValue, OpKill, OpTerminateInvocation, OpUnreachable.
  bool is_exit(uint32_t block) const { return exits_[block]; }
  // Whether a path leads from one block to the other (a block reaches itself).
  bool reaches(uint32_t from, uint32_t to) const;

 private:
  std::vector<std::vector<uint32_t>> successors_;
  std::vector<std::vector<uint32_t>> predecessors_;
  std::vector<uint32_t> rpo_;
  std::vector<bool> reachable_;
  std::vector<bool> exits_;
  std::unordered_map<uint32_t, uint32_t> index_;
};

// Dominators, or post-dominators over the reversed graph with one virtual exit
// node (index cfg.size()) that every exit block flows to. Blocks that cannot
// reach an exit (infinite loops) are joined to the virtual exit too, so every
// reachable block has a post-dominator.
class DominatorTree {
 public:
  static DominatorTree dominators(const Cfg& cfg);
  static DominatorTree post_dominators(const Cfg& cfg);

  // Immediate (post-)dominator, or -1 for the root and for unreachable blocks.
  int idom(uint32_t block) const { return idom_[block]; }
  // Reflexive.
  bool dominates(uint32_t a, uint32_t b) const;
  uint32_t root() const { return root_; }

 private:
  static DominatorTree build(const std::vector<std::vector<uint32_t>>& successors,
                             const std::vector<std::vector<uint32_t>>& predecessors, uint32_t root);

  std::vector<int> idom_;
  std::vector<uint32_t> depth_;
  uint32_t root_ = 0;
};

// Block B is control dependent on branch block A when A has a successor from
// which every path reaches B, but A itself is not post-dominated by B.
class ControlDependence {
 public:
  ControlDependence(const Cfg& cfg, const DominatorTree& post_dominators);
  // The branch blocks that `block` is directly control dependent on, ascending.
  const std::vector<uint32_t>& controllers(uint32_t block) const { return controllers_[block]; }

 private:
  std::vector<std::vector<uint32_t>> controllers_;
};

}  // namespace klint
