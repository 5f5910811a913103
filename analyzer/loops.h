// The structured loops of a function, for rules that ask what a loop carries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
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

// The OpPhi of a counting loop whose step is 0 where the module's constants
// say so (`i += WG / 128` at a workgroup of 64): once entered, the loop never
// ends. nullptr when every counter of `function` moves or klint cannot tell.
const ir::Instruction* loop_counter_that_never_moves(const Module& module, const ir::Function& function);

// Whether an instruction's result depends on nothing but its operands
// (arithmetic, comparisons, conversions, composites, access chains).
bool is_pure(spv::Op op);

// Whether `id` has the same value on every iteration of `loop`: defined
// outside it, or computed inside it without side effects from such values and
// from loads of memory no invocation writes (Input, PushConstant).
bool is_loop_invariant(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t id);

// Which iteration of a loop a path is in, where a branch depends on it. In
//   for (uint i = 0; i < n; ++i) { if (i > 0) barrier(); tile[l] = ...; ... }
// the barrier runs on every iteration but the first: a path that came around
// the back edge takes it, one that entered the loop from outside does not.
// The branch is decided by the loop's induction variable alone, so every
// invocation in that iteration takes the same side.
//
// Only loops with such a branch are tracked; of the others a path knows
// nothing. A path that leaves a loop forgets its iteration, and one that
// enters it again is in its first. Induction variables are taken not to wrap
// around while the loop runs, and the values compared with them not to wrap
// either: `i > 0` holds on every iteration after the first of `i = 0; ++i`.
class LoopIterations {
 public:
  enum class Iteration : uint8_t { Unknown, First, Later };
  // Two bits per tracked loop; 0 knows nothing.
  using State = uint64_t;
  using IterationOf = std::function<Iteration(uint32_t header)>;
  // The value of a phi, for callers that know more of it (a flag the loop sets).
  using PhiValue = std::function<std::optional<bool>(const ir::Instruction& phi, int depth)>;

  LoopIterations(const Module& module, const ir::Function& function);

  bool tracks_any() const { return !tracked_.empty(); }
  // The state after the edge from `block` to `next`.
  State follow(State state, uint32_t block, uint32_t next) const;
  Iteration iteration(State state, uint32_t header) const;
  // The successor that every path in `state` takes from `block`, when the
  // iterations it knows decide the branch.
  std::optional<uint32_t> decided_successor(uint32_t block, State state) const;
  // Whether a path in the given iteration of the loop at `header` can reach
  // `block` from the header without leaving that iteration.
  bool runs_in(uint32_t header, Iteration iteration, uint32_t block) const;

  // Walking back from `start`, against the edges: the state knows which loops
  // around `start` the walk is still in the iteration of. Stepping back from
  // a loop's header leaves that iteration: out of the loop when it was the
  // first, around the back edge when it was a later one. A step to where no
  // path into `start` comes from is nullopt (back out of the loop from a
  // barrier that `if (i > 0)` guards).
  State back_start(uint32_t start) const;
  std::optional<State> follow_back(State state, uint32_t start, uint32_t block, uint32_t previous) const;
  // The value of a boolean on every path whose loops are in the iterations
  // `iteration_of` names, when that decides it.
  std::optional<bool> decide(uint32_t id, const IterationOf& iteration_of, const PhiValue& phi = nullptr,
                             int depth = 0) const;

 private:
  std::optional<bool> compare(const ir::Instruction& test, const IterationOf& iteration_of) const;
  int tracked_index(uint32_t header) const;
  const Loop* loop_at(uint32_t header) const;

  const Module& module_;
  const ir::Function& function_;
  const std::vector<Loop>& loops_;
  std::vector<const Loop*> tracked_;  // at most kMaxTracked
  // runs_in(header, First / Later, block), by (tracked index, block).
  mutable std::map<std::pair<size_t, uint32_t>, std::pair<bool, bool>> runs_;
  static constexpr size_t kMaxTracked = 32;
};

}  // namespace klint
