// Subgroup votes that a barrier publishes through workgroup memory, and the
// comparisons whose outcome they decide for the whole workgroup.
//
// One invocation of each subgroup stores the subgroup's vote in the
// subgroup's slot of a shared array (`flag[gl_SubgroupID] = subgroupAll(x <=
// T) ? a : b`), and after a barrier every invocation folds all the slots with
// max or min into a value that may start from its own x. That value differs
// between invocations, but a comparison of it may not. Split on the outcome of
// the votes:
// - every slot holds the value of a vote that tells something of every x
//   (subgroupAll true, subgroupAny false): then the vote's predicate, or its
//   negation, holds of x in every invocation of the workgroup;
// - some slot holds the other value, and the fold reaches it.
// When the comparison has one answer in each case, every invocation gets the
// same answer, for the outcome of the votes is the workgroup's.
//
// Assumes that each subgroup holds consecutive invocation indexes (for
// `gl_LocalInvocationIndex / gl_SubgroupSize` as a slot), that lane 0 of every
// subgroup runs (for `gl_SubgroupInvocationID == 0` as the writer), and that a
// device's max and min either ignore a NaN operand or return NaN, alike for
// every invocation (SPIR-V leaves open which operand FMax returns for a NaN).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "analyzer/loops.h"
#include "analyzer/module.h"
#include "analyzer/value_ranges.h"

namespace klint {

// What the uniformity analysis has found so far.
struct UniformSoFar {
  std::function<bool(uint32_t id)> value;     // the value may be the same in every invocation
  std::function<bool(uint32_t block)> block;  // every invocation reaches the block, or none
};

class PublishedVotes {
 public:
  PublishedVotes(const Module& module, const ir::Function& function);

  bool any() const { return !votes_.empty(); }
  // Whether `phi` is an all-reduce through the slots: the header phi of a
  // loop that starts from the invocation's own subgroup value, which one
  // invocation of each subgroup published in the subgroup's slot, and folds
  // in every other slot, `m = op(m, slots[i ^ gl_SubgroupID])` for i from 1
  // while i < gl_NumSubgroups, with op commutative and associative (|, &, ^,
  // +, min, max). After the loop every invocation holds the fold of every
  // slot; inside it the phi has no use but the fold.
  bool all_reduced(uint32_t phi, const UniformSoFar& uniform) const;
  // Whether `comparison` has the same result in every invocation of the
  // workgroup, by the split above.
  bool decides(const ir::Instruction& comparison, const UniformSoFar& uniform) const;

  // The values a value may take in one case.
  using Range = ValueRange;
  using Domain = NumberDomain;
  struct Evaluation;

 private:
  // `slots[index] = vote ? a : b` with index one slot per subgroup.
  struct Vote {
    const ir::Instruction* store = nullptr;
    uint32_t variable = 0;
    const ir::Instruction* vote = nullptr;  // OpGroupNonUniformAll or OpGroupNonUniformAny
    int guard = -1;  // the block whose election picks the writer, -1 when every invocation writes
    uint32_t voted = 0;                     // x
    spv::Op holds = spv::Op::OpNop;         // `x holds bound` wherever every slot is `informative`
    uint32_t bound = 0;
    uint32_t informative = 0, other = 0;    // constants
  };
  // A max or min over every slot of a vote's array, starting from `initial`:
  // the loop header phi that holds it after the loop.
  struct Fold {
    const Vote* vote = nullptr;
    uint32_t initial = 0;
    bool max = true;
    Domain domain;
    bool ignores_nan = false;  // NMax, NMin
  };
  // The loop whose header holds a fold's phi: its value from before the loop,
  // and the instruction that computes it on the way round.
  struct SlotLoop {
    const Loop* loop = nullptr;
    uint32_t header = 0;
    uint32_t initial = 0;
    const ir::Instruction* update = nullptr;
  };
  void find_votes();
  std::optional<SlotLoop> slot_loop(uint32_t phi) const;
  std::optional<std::pair<uint32_t, uint32_t>> incoming(const SlotLoop& loop, const ir::Instruction& header_phi) const;
  // The count of a loop that runs `counter` from `start` by 1 while counter <
  // count, its only exit, tested before `load`, with the update on every way
  // round.
  std::optional<uint32_t> loop_count(const SlotLoop& loop, const ir::Instruction& counter, uint64_t start,
                                     const ir::Instruction& load, const UniformSoFar& uniform) const;
  std::optional<Vote> vote_stored_by(const ir::Instruction& store) const;
  int election(uint32_t block) const;
  bool indexes_subgroup(uint32_t id) const;
  std::optional<Fold> fold(uint32_t phi, const UniformSoFar& uniform) const;
  // With `exactly`, the count is the number of subgroups at every width.
  bool covers_subgroups(uint32_t count, bool exactly = false) const;
  bool same_in_subgroup(uint32_t id, const UniformSoFar& uniform, int depth) const;
  bool power_of_two_workgroup() const;
  bool published(const Vote& vote, const ir::Instruction& load, const UniformSoFar& uniform) const;
  std::vector<bool> forward(uint32_t block, bool backward) const;
  bool before_barrier(const ir::Instruction& from, bool back_edges,
                      const std::function<bool(const ir::Instruction&)>& found) const;
  bool writes(const ir::Instruction& instruction, uint32_t variable) const;
  const Vote* vote_read_by(uint32_t id, const UniformSoFar& uniform, int depth) const;
  std::optional<Range> evaluate(uint32_t id, const Evaluation& evaluation, int depth) const;
  std::optional<Range> constant(uint32_t id, Domain domain) const;

  const Module& module_;
  const ir::Function& function_;
  std::vector<Vote> votes_;
};

}  // namespace klint
