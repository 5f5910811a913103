// Whether two different invocations of a workgroup can touch the same bytes
// through two memory accesses, and a concrete pair of invocations that does.
//
// The accesses' offsets are evaluated for every invocation of the workgroup
// (at the declared size, specialization constants at their defaults), and for
// every value of the loops' induction variables when their bounds are
// constants. Subgroups are taken as 32 invocations wide, numbered in local
// index order. Offsets it cannot evaluate (an index loaded from memory) give
// no answer: silence, never a guess.
//
// Guards (accesses.h) are evaluated on each invocation too. A guard on a
// value that is the same across the workgroup but unknown to klint (`tid <
// n`, `tid == pc.first`, n from a push constant) is tried at a few values of
// it, the same for both invocations (the workgroup size, 0, 1, half of it,
// one less), and as unknown. A guard klint still cannot evaluate for an
// invocation (`data[tid] > 0`, `atomicAdd(c, 1u) == last`) may hold for it:
// how far find() takes that is its caller's choice (UnknownGuards); what it
// took is in the Collision.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/loops.h"
#include "analyzer/symbolic.h"

namespace klint {

// A branch condition klint could not evaluate for an invocation, taken to be
// `holds` as the access needs it.
struct AssumedCondition {
  uint32_t condition = 0;  // the boolean SSA value
  bool holds = true;
  friend bool operator==(const AssumedCondition&, const AssumedCondition&) = default;
};

struct CollidingInvocation {
  uint32_t local_index = 0;
  std::array<uint32_t, 3> local_id{};
  // Values of loop induction variables at the access, when enumerated.
  std::vector<std::pair<Symbol, int64_t>> loop_values;
  int64_t offset = 0;  // bytes
  // Guards of the access klint could not evaluate for this invocation.
  std::vector<AssumedCondition> assumed;
};

struct IterationLimits {
  std::vector<uint32_t> last, first;  // loop header blocks
};

struct Collision {
  CollidingInvocation first, second;
  // Values klint chose for values the same across the workgroup that it
  // cannot see and the guards depend on (`n` in `tid < n`): the invocations
  // collide when these hold.
  std::vector<std::pair<Symbol, int64_t>> chosen;
};

// How find() takes a guard it cannot evaluate for an invocation.
enum class UnknownGuards {
  // It may hold for every invocation: a pair that may collide at all
  // (whether a barrier may have something to order).
  MayHold,
  // It may hold for the invocation found, but one guard that differs between
  // invocations (`atomicAdd(c, 1u) == last`, `data[tid] > 0`) is not taken
  // to hold for both invocations of the pair: klint cannot show that it
  // admits two. A pair that two such guards let through is still found.
  HoldForOne,
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
                                const IterationLimits& a_limits = {}, const IterationLimits& b_limits = {},
                                UnknownGuards unknown = UnknownGuards::MayHold) const;

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
  // One access evaluated on every invocation: whether it runs, where, and
  // which of its guards (by index, the first 64) were unknown.
  struct Run {
    std::optional<int64_t> offset;  // nullopt where it does not run or the offset is unknown
    bool unknown = false;           // a guard was unknown
    uint64_t assumed = 0;           // which
  };
  // What an access's guards depend on beyond the invocation ids.
  struct GuardSymbols {
    std::vector<Symbol> inductions;  // enumerable loop counters
    std::vector<Symbol> uniform;     // unknown values the same across the workgroup
  };
  std::optional<Collision> find_uncached(const MemoryAccess& a, const MemoryAccess& b,
                                         const std::vector<const Loop*>& independent, const IterationLimits& a_limits,
                                         const IterationLimits& b_limits, UnknownGuards unknown) const;
  std::shared_ptr<const std::vector<Run>> runs(const MemoryAccess& access, const Assignment& values) const;
  std::vector<Run> evaluate_runs(const MemoryAccess& access, const Assignment& values) const;
  // For each invocation: 1 where the guard lets it run, 0 where not, -1
  // where klint cannot tell.
  std::shared_ptr<const std::vector<int8_t>> guard_admits(const Constraint& guard, const Assignment& values) const;
  // A polynomial, or the boolean `condition` when there is none, at every
  // invocation, `values` giving other symbols: its values, and whether known.
  struct Column {
    std::vector<int64_t> values;
    std::vector<uint8_t> known;
  };
  Column evaluate_column(const Polynomial* polynomial, uint32_t condition, const Assignment& values) const;
  std::shared_ptr<const Column> reads_filtered(const Polynomial& polynomial, uint32_t condition,
                                               const Assignment& values) const;
  const GuardSymbols& guard_symbols(uint32_t block) const;
  bool differs(const Constraint& guard) const;
  std::vector<int64_t> candidates(Symbol symbol) const;

  struct State;
  std::unique_ptr<State> state_;
  const Module& module_;
  const ir::Function& function_;
  const SymbolicValues& values_;
  const Accesses& accesses_;
};

}  // namespace klint
