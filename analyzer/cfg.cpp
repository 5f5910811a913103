#include "analyzer/cfg.h"

#include <algorithm>
#include <utility>

namespace klint {
namespace {

using Graph = std::vector<std::vector<uint32_t>>;

bool is_exit_opcode(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpReturn:
    case spv::Op::OpReturnValue:
    case spv::Op::OpKill:
    case spv::Op::OpTerminateInvocation:
    case spv::Op::OpUnreachable:
      return true;
    default:
      return false;
  }
}

// Branch targets, in operand order.
std::vector<uint32_t> target_labels(const ir::Instruction& terminator) {
  std::vector<uint32_t> labels;
  const auto& operands = terminator.operands();
  switch (terminator.opcode()) {
    case spv::Op::OpBranch:
      if (!operands.empty()) labels.push_back(terminator.word(0));
      break;
    case spv::Op::OpBranchConditional:
      for (size_t i = 1; i < 3 && i < operands.size(); ++i) labels.push_back(terminator.word(i));
      break;
    case spv::Op::OpSwitch:
      // Selector, default, then (literal, label) pairs.
      for (size_t i = 1; i < operands.size(); ++i) {
        if (ir::is_id_type(operands[i].type)) labels.push_back(terminator.word(i));
      }
      break;
    default:
      break;
  }
  return labels;
}

// Nodes reachable from root, in reverse post-order.
std::vector<uint32_t> reverse_post_order_from(const Graph& successors, uint32_t root) {
  std::vector<uint32_t> order;
  std::vector<bool> seen(successors.size());
  std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
  seen[root] = true;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < successors[node].size()) {
      const uint32_t child = successors[node][next++];
      if (!seen[child]) {
        seen[child] = true;
        stack.push_back({child, 0});
      }
    } else {
      order.push_back(node);
      stack.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace

Cfg::Cfg(const ir::Function& function) {
  const size_t n = function.blocks.size();
  successors_.resize(n);
  predecessors_.resize(n);
  reachable_.assign(n, false);
  exits_.assign(n, false);
  for (uint32_t i = 0; i < n; ++i) index_.emplace(function.blocks[i].id(), i);

  for (uint32_t i = 0; i < n; ++i) {
    const ir::Instruction& terminator = function.blocks[i].terminator();
    exits_[i] = is_exit_opcode(terminator.opcode());
    for (uint32_t label : target_labels(terminator)) {
      const int target = index_of(label);
      if (target < 0) continue;  // invalid module; the validator says so
      auto& out = successors_[i];
      if (std::find(out.begin(), out.end(), uint32_t(target)) == out.end()) out.push_back(target);
    }
    for (uint32_t target : successors_[i]) predecessors_[target].push_back(i);
  }

  if (n == 0) return;
  rpo_ = reverse_post_order_from(successors_, 0);
  for (uint32_t block : rpo_) reachable_[block] = true;
}

int Cfg::index_of(uint32_t label_id) const {
  auto it = index_.find(label_id);
  return it == index_.end() ? -1 : static_cast<int>(it->second);
}

// Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm" (2001),
// over any graph; nodes that root does not reach get no dominator.
DominatorTree DominatorTree::build(const Graph& successors, const Graph& predecessors, uint32_t root) {
  DominatorTree tree;
  tree.root_ = root;
  const size_t n = successors.size();
  tree.idom_.assign(n, -1);
  tree.depth_.assign(n, 0);
  if (root >= n) return tree;

  const std::vector<uint32_t> order = reverse_post_order_from(successors, root);
  std::vector<size_t> post_number(n, 0);
  for (size_t i = 0; i < order.size(); ++i) post_number[order[i]] = order.size() - 1 - i;

  std::vector<int>& idom = tree.idom_;
  idom[root] = static_cast<int>(root);
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (post_number[a] < post_number[b]) a = idom[a];
      while (post_number[b] < post_number[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < order.size(); ++i) {
      const uint32_t node = order[i];
      int new_idom = -1;
      for (uint32_t pred : predecessors[node]) {
        if (idom[pred] < 0) continue;  // not processed yet, or unreachable
        new_idom = new_idom < 0 ? static_cast<int>(pred) : static_cast<int>(intersect(pred, new_idom));
      }
      if (idom[node] != new_idom) {
        idom[node] = new_idom;
        changed = true;
      }
    }
  }
  // A dominator comes before what it dominates in reverse post-order.
  for (size_t i = 1; i < order.size(); ++i) tree.depth_[order[i]] = tree.depth_[idom[order[i]]] + 1;
  idom[root] = -1;
  return tree;
}

DominatorTree DominatorTree::dominators(const Cfg& cfg) {
  Graph successors(cfg.size()), predecessors(cfg.size());
  for (uint32_t b = 0; b < cfg.size(); ++b) {
    successors[b] = cfg.successors(b);
    predecessors[b] = cfg.predecessors(b);
  }
  return build(successors, predecessors, 0);
}

DominatorTree DominatorTree::post_dominators(const Cfg& cfg) {
  // The reversed graph: edges run from each block to its CFG predecessors, and
  // from the virtual exit to every exit block. Unreachable blocks stay out.
  const uint32_t exit = static_cast<uint32_t>(cfg.size());
  Graph successors(cfg.size() + 1), predecessors(cfg.size() + 1);
  for (uint32_t b : cfg.reverse_post_order()) {
    predecessors[b] = cfg.successors(b);
    for (uint32_t pred : cfg.predecessors(b)) {
      if (cfg.reachable(pred)) successors[b].push_back(pred);
    }
    if (cfg.is_exit(b)) {
      successors[exit].push_back(b);
      predecessors[b].push_back(exit);
    }
  }

  // Join each region that cannot reach an exit through the block of it that
  // comes last in reverse post-order, usually an infinite loop's latch: then
  // the loop's other blocks keep their post-dominators inside the loop.
  std::vector<bool> reaches_exit(cfg.size() + 1, false);
  auto mark = [&](uint32_t from) {
    std::vector<uint32_t> work{from};
    reaches_exit[from] = true;
    while (!work.empty()) {
      const uint32_t node = work.back();
      work.pop_back();
      for (uint32_t next : successors[node]) {
        if (!reaches_exit[next]) {
          reaches_exit[next] = true;
          work.push_back(next);
        }
      }
    }
  };
  mark(exit);
  const auto& rpo = cfg.reverse_post_order();
  for (auto it = rpo.rbegin(); it != rpo.rend(); ++it) {
    if (reaches_exit[*it]) continue;
    successors[exit].push_back(*it);
    predecessors[*it].push_back(exit);
    mark(*it);
  }
  return build(successors, predecessors, exit);
}

bool DominatorTree::dominates(uint32_t a, uint32_t b) const {
  if (a == b) return true;
  auto in_tree = [this](uint32_t node) { return node == root_ || idom_[node] >= 0; };
  if (a >= idom_.size() || b >= idom_.size() || !in_tree(a) || !in_tree(b)) return false;
  while (depth_[b] > depth_[a]) b = static_cast<uint32_t>(idom_[b]);
  return a == b;
}

ControlDependence::ControlDependence(const Cfg& cfg, const DominatorTree& post_dominators)
    : controllers_(cfg.size()) {
  for (uint32_t a : cfg.reverse_post_order()) {
    // A block with one successor decides nothing. Without this, the virtual
    // edges that join infinite loops to the exit would make a latch look like
    // a branch.
    if (cfg.successors(a).size() < 2) continue;
    const int stop = post_dominators.idom(a);
    for (uint32_t b : cfg.successors(a)) {
      for (int node = static_cast<int>(b); node != stop && node >= 0 && node < int(cfg.size());
           node = post_dominators.idom(node)) {
        controllers_[node].push_back(a);
      }
    }
  }
  for (auto& list : controllers_) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
}

bool Cfg::reaches(uint32_t from, uint32_t to) const {
  std::vector<bool> seen(size(), false);
  std::vector<uint32_t> work{from};
  while (!work.empty()) {
    uint32_t block = work.back();
    work.pop_back();
    if (block == to) return true;
    if (seen[block]) continue;
    seen[block] = true;
    for (uint32_t next : successors(block)) work.push_back(next);
  }
  return false;
}

}  // namespace klint
