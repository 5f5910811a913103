// The stretches of a function that invocations run between two workgroup
// barriers. Accesses in one interval may run at the same time in different
// invocations; a barrier orders everything before it against everything
// after it. Intervals follow loop back edges, so that the accesses at the end
// of one iteration meet those at the start of the next when no barrier stands
// between them; a path that comes around takes the barrier that runs on every
// iteration after the first (`if (i > 0) barrier();`, LoopIterations).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/collision.h"
#include "analyzer/loops.h"
#include "analyzer/module.h"

namespace klint {

// A barrier that ends an interval: a control barrier across the workgroup
// (barrier(), GroupMemoryBarrierWithGroupSync()), or a memory barrier of
// workgroup scope or wider (memoryBarrierShared(), GroupMemoryBarrier()). A
// memory barrier alone does not wait for the other invocations; that is the
// insufficient-barrier rule's finding, so the race rules treat it as a barrier
// rather than report the same accesses twice. A barrier whose scope or
// semantics klint cannot read ends an interval (barriers.h: Unknown never
// makes a finding).
bool is_workgroup_barrier(const Module& module, const ir::Instruction& instruction);

struct IntervalAccess {
  size_t access = 0;  // index into Accesses::all()
  // Headers (block indices) of the loops whose back edge the path from the
  // interval's start crossed before reaching the access.
  std::vector<uint32_t> crossed;
};

struct BarrierInterval {
  const ir::Instruction* start = nullptr;  // the barrier; nullptr for the start of the invocation
  std::vector<IntervalAccess> accesses;
  std::vector<uint32_t> blocks;  // blocks whose terminator the interval reaches
  std::vector<const ir::Instruction*> ends;  // the barriers that close it
  bool reaches_exit = false;                 // some path runs to the end of the invocation
};

// Two accesses that different invocations may run at the same time: one
// follows the other with no barrier between, or they lie on two sides of a
// branch that invocations take differently.
struct ConcurrentPair {
  // Indices into Accesses::all(); a == b for two invocations running one
  // access. When one follows the other, a is the one that runs first.
  size_t a = 0, b = 0;
  bool ordered = false;
  // Loops whose iteration may differ between the two invocations.
  std::vector<const Loop*> independent;
  // Those of them whose iteration differs only where the two invocations
  // take a divergent skip of the loop differently (keeps_iterations_in_step).
  std::vector<const Loop*> out_of_step;
  // Where one access lies in a loop whose every iteration passes a barrier
  // and the other after (before) it, the first runs in the loop's last
  // (first) iteration.
  IterationLimits a_limits, b_limits;
};

class BarrierIntervals {
 public:
  BarrierIntervals(const Module& module, const ir::Function& function);

  const std::vector<BarrierInterval>& intervals() const { return intervals_; }
  const std::vector<Loop>& loops() const { return loops_; }
  // Which iteration of a loop the walks are in, where a branch depends on it.
  const LoopIterations& iterations() const { return iterations_; }
  // Whether every iteration of the loop passes a workgroup barrier, so that
  // two iterations never run their accesses at the same time.
  bool separates_iterations(const Loop& loop) const;
  // Whether the invocations run the loop's iterations in step: every
  // iteration passes a barrier, or the paths that pass none hang only on
  // branches every invocation takes alike (`if (w < n) { ...; barrier(); }`).
  // Then two invocations between the same two barriers are in the same
  // iteration, unless the path from one access to the other came around the
  // back edge. A skip that differs between invocations (`if (lid >= 32)
  // continue;`) lets some of them run iterations ahead of the others.
  bool keeps_iterations_in_step(const Loop& loop) const;
  // The loops containing both blocks whose iteration may differ between two
  // accesses of the interval: loops whose iterations invocations may run out
  // of step, and loops whose back edge one path crossed and the other did not.
  std::vector<const Loop*> differing_iterations(const IntervalAccess& a, const IntervalAccess& b) const;
  // Two invocations touching a common byte through the pair's accesses, a
  // before b: as CollisionFinder::find, but iterations of loops the
  // invocations run out of step only where these two invocations can fall
  // out of step, taking one of the loop's divergent skips differently.
  std::optional<Collision> collision(const CollisionFinder& finder, const ConcurrentPair& pair,
                                     UnknownGuards guards = UnknownGuards::MayHold) const;
  // The pairs of accesses, both passing `relevant`, that may run concurrently.
  std::vector<ConcurrentPair> concurrent_pairs(const std::function<bool(const MemoryAccess&)>& relevant) const;
  // The pairs of accesses to memory of one storage class, computed once;
  // nullptr when there are more than the budget below (the module notes it).
  const std::vector<ConcurrentPair>* concurrent_pairs(spv::StorageClass storage) const;

  // Accesses with no barrier between pair up quadratically, and each pair
  // costs a search over every invocation (100,000 pairs take about a second
  // and 100 MB): past this many pairs on average per access, and at least
  // kMinPairBudget, the pairs are not made. Real kernels stay far below
  // (ggml's most: 1,477 pairs of 190 accesses; vkd3d-proton's gdeflate 3,009
  // of 222).
  static constexpr size_t kPairsPerAccess = 64;
  static constexpr size_t kMinPairBudget = 100000;

 private:
  // The interval from `position` of `block`; `start` is the barrier or
  // access it starts after (nullptr: it starts at the top of the block).
  BarrierInterval walk(uint32_t block, size_t position, const ir::Instruction* start) const;
  BarrierInterval walk_blocks(uint32_t block, size_t position, const ir::Instruction* start) const;
  // Adds the accesses of `block` from `from` on, up to its first barrier;
  // true when a barrier stopped it.
  bool scan(uint32_t block, size_t from, const std::vector<uint32_t>& crossed, BarrierInterval& interval) const;
  IterationLimits limits(uint32_t block, uint32_t other, int other_follows) const;
  // The value of a branch condition on a path that crossed the back edges of
  // `crossed` and is in the iterations `state` knows, when that decides it.
  std::optional<bool> flag_value(uint32_t id, const std::vector<uint32_t>& crossed, uint32_t start_block,
                                 LoopIterations::State state, int depth = 0) const;
  std::optional<bool> phi_value(const ir::Instruction& phi, const std::vector<uint32_t>& crossed,
                                uint32_t start_block, LoopIterations::State state, int depth) const;
  // The branches that choose between a path through the loop's iteration
  // that passes no barrier and one that passes a barrier, and that differ
  // between invocations.
  std::vector<const ir::Instruction*> divergent_skips(const Loop& loop) const;
  bool has_barrier(uint32_t block) const;
  bool may_fall_out_of_step(const Loop& loop, const Assignment& x, const Assignment& y) const;
  bool same_in(uint32_t id, const Assignment& x, const Assignment& y, int depth) const;

  const Module& module_;
  const ir::Function& function_;
  const Accesses& accesses_;
  const std::vector<Loop>& loops_;
  LoopIterations iterations_;
  std::vector<bool> separated_;  // by loop index
  std::vector<bool> in_step_;    // by loop index
  std::vector<std::vector<const ir::Instruction*>> skips_;  // divergent_skips, by loop index
  std::vector<BarrierInterval> intervals_;
  // The barriers and accesses of each block, in order: an access names the
  // first of its instruction's accesses.
  struct Event {
    size_t position = 0;
    size_t access = 0;
    bool barrier = false;
  };
  std::vector<std::vector<Event>> events_;  // by block index
  std::optional<std::vector<ConcurrentPair>> concurrent_pairs(const std::function<bool(const MemoryAccess&)>& relevant,
                                                              size_t budget) const;
  mutable std::map<spv::StorageClass, std::optional<std::vector<ConcurrentPair>>> pairs_by_storage_;
  // The walk past the end of the last block walked from inside (see walk()).
  mutable std::optional<std::pair<uint32_t, BarrierInterval>> tail_;
};

}  // namespace klint
