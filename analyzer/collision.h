// Whether two different invocations of a workgroup can touch the same bytes
// through two memory accesses, and a concrete pair of invocations that does.
//
// The accesses' offsets are evaluated for every invocation of the workgroup
// (at the declared size, specialization constants at their defaults), and for
// every value of the loops' induction variables when their bounds are
// constants. Subgroups are taken as 32 invocations wide, numbered in local
// index order. Conditions klint cannot evaluate (a bound read from a buffer)
// are taken to hold. Offsets it cannot evaluate (an index loaded from memory)
// give no answer: silence, never a guess.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/loops.h"
#include "analyzer/symbolic.h"

namespace klint {

struct CollidingInvocation {
  uint32_t local_index = 0;
  std::array<uint32_t, 3> local_id{};
  // Values of loop induction variables at the access, when enumerated.
  std::vector<std::pair<Symbol, int64_t>> loop_values;
  int64_t offset = 0;  // bytes
};

struct IterationLimits {
  std::vector<uint32_t> last, first;  // loop header blocks
};

struct Collision {
  CollidingInvocation first, second;
};

class CollisionFinder {
 public:
  CollisionFinder(const Module& module, const ir::Function& function);
  ~CollisionFinder();

  // Different invocations running `a` and `b` that touch a common byte.
  // Loop-variant values of `independent` loops may differ between the two.
  // The limits pin a side to the last or first iteration of loops (by header
  // block), as when the other access comes after or before a loop whose
  // every iteration passes a barrier.
  std::optional<Collision> find(const MemoryAccess& a, const MemoryAccess& b,
                                const std::vector<const Loop*>& independent,
                                const IterationLimits& a_limits = {}, const IterationLimits& b_limits = {}) const;

  // The invocations' offsets for one access (nullopt where the access does not
  // run or the offset is unknown), with the loop values given. A guard klint
  // cannot evaluate holds, or, with `unknown_guards_hold` false, fails.
  std::vector<std::optional<int64_t>> offsets(const MemoryAccess& access, const Assignment& loop_values,
                                              bool unknown_guards_hold = true) const;
  // Every combination of values of the enumerable induction variables that
  // the access's offset and guards mention; nullopt when its offset mentions
  // one that klint cannot enumerate, or there are too many.
  std::optional<std::vector<Assignment>> iterations(const MemoryAccess& access) const;
  // The values an induction variable takes, when its loop has constant bounds.
  const std::vector<int64_t>* iteration_values(uint32_t phi) const;
  // The ids of the invocation with this local index, as find() assigns them;
  // nullptr past the workgroup.
  const Assignment* invocation(uint32_t local_index) const;

  static constexpr uint32_t kSubgroupSize = 32;

 private:
  std::optional<Collision> find_uncached(const MemoryAccess& a, const MemoryAccess& b,
                                         const std::vector<const Loop*>& independent, const IterationLimits& a_limits,
                                         const IterationLimits& b_limits) const;
  std::vector<std::optional<int64_t>> evaluate_offsets(const MemoryAccess& access, const Assignment& loop_values,
                                                       bool unknown_guards_hold) const;

  struct State;
  std::unique_ptr<State> state_;
  const Module& module_;
  const ir::Function& function_;
  const SymbolicValues& values_;
  const Accesses& accesses_;
};

}  // namespace klint
