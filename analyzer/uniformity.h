// Which values and blocks of a function may differ between the invocations of
// one workgroup, or of one subgroup, and why.
//
// Sources of divergence are the per-invocation built-ins (local and global
// invocation ids, subgroup ids and masks), atomic results, and memory written
// with divergent values. Divergence flows through data (an instruction with a
// divergent operand), through control (a block controlled by a divergent
// branch; a phi joining the paths of one), and out of loops that invocations
// leave at different iterations. Loads at uniform addresses from uniform
// buffers, push constants and workgroup memory are uniform: a value written by
// one invocation and read by all after a barrier is the same for all of them,
// and whether the barrier is there is the race rules' business, not this one's.
//
// Storage-buffer memory is different: invocations of other workgroups run
// alongside, and no barrier orders their writes before this workgroup's
// loads. A load at a uniform address from a storage buffer (or through a
// physical storage buffer pointer) that the shader itself writes (a store or
// an atomic, in any function the entry point calls, on the same variable at
// bytes the load may touch) is divergent: another invocation may write it
// between the loads of two invocations, as when every stage begins with
// `if (error_flag != 0) return;` and an allocator in the same shader sets the
// flag when it runs out. Accesses in bounds stay inside the struct member and
// array element they index, so a flag and an array beside it in one block are
// apart whatever the array's index. Buffers the shader never writes (those
// declared `readonly` among them) keep uniform loads. Only at workgroup scope:
// the lanes of a subgroup that run a load together read it in one
// instruction.
//
// At subgroup scope fewer values differ: the subgroup's id, and the results of
// reductions, broadcasts, votes and ballots, are the same for every invocation
// of one subgroup. So is a comparison of an invocation index against a bound
// that is a multiple of the widest subgroup the shader may run with, assuming
// (as every known driver does, though Vulkan does not promise it) that each
// subgroup holds consecutive values of gl_LocalInvocationIndex.
//
// A comparison that the workgroup's size decides is the same for every
// invocation: in a workgroup 128 wide, `gl_LocalInvocationID.x >= 128` is
// false for all of them, so `if (tid >= 128 || row >= n) return;` returns
// for the whole workgroup or none of it. Only sizes written as numbers, and
// operands that are constants or sums of multiples of local ids.
//
// Where a condition says that one subgroup is the whole workgroup
// (`gl_SubgroupSize == gl_WorkGroupSize.x`, `gl_NumSubgroups == 1`), what one
// subgroup agrees on the workgroup agrees on: inside the branch it guards,
// votes, broadcasts and reductions are uniform at workgroup scope too, and so
// is `cond ? subgroupBroadcastFirst(v) : uniform` under such a condition.
// Votes each subgroup publishes through workgroup memory decide some
// comparisons for the whole workgroup, even of values that differ
// (published_votes.h), and so for each subgroup of it. So does a fold of the
// invocation's own subgroup value with every other subgroup's published slot
// (`m |= slots[i ^ gl_SubgroupID]` for i in 1..gl_NumSubgroups-1): after the
// loop every invocation holds the fold of every slot.
#pragma once

#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/ir/module.h"
#include "analyzer/loops.h"
#include "analyzer/published_votes.h"

namespace klint {

class Module;

struct Divergence {
  enum class Kind {
    BuiltIn,      // a load of a per-invocation built-in
    Atomic,       // the result of an atomic operation
    Subgroup,     // a subgroup operation whose result depends on which lanes are active
    Operand,      // computed from a divergent value
    Memory,       // loaded from memory that divergent values were stored to, or that the shader writes
    Join,         // a phi joining the paths of a divergent branch
    LoopExit,     // defined in a loop that invocations leave at different iterations
    IndexSplit,   // subgroup scope: an invocation index compared against a bound inside a subgroup
  };
  Kind kind;
  // The instruction responsible: the load of the built-in, the atomic, the
  // divergent operand's definition, the store, the divergent branch, or for
  // Kind::IndexSplit the definition of the index. For Kind::Memory of a
  // storage buffer, the store or atomic that writes what the load reads: the
  // source, which chain() does not follow further.
  const ir::Instruction* cause = nullptr;
  std::optional<spv::BuiltIn> builtin;  // for Kind::BuiltIn
  // For Kind::IndexSplit: the lowest index on the upper side of the comparison
  // (32 for `index < 32` and for `index > 31`).
  uint64_t split = 0;
};

// Among which invocations a value must agree to count as uniform.
struct UniformityScope {
  enum class Level { Workgroup, Subgroup };
  Level level = Level::Workgroup;
  // At subgroup level, the widest subgroup the shader may run with: a range of
  // invocation indexes split at a multiple of it holds whole subgroups. 0
  // trusts no split.
  uint32_t max_subgroup_size = 0;
};

class Uniformity {
 public:
  Uniformity(const Module& module, const ir::Function& function, UniformityScope scope = {});

  // nullptr when the value is the same for all invocations of a workgroup (at
  // subgroup scope: of a subgroup).
  const Divergence* value(uint32_t id) const;
  // The divergent branch (the terminator of a block with a divergent condition)
  // that decides whether invocations reach `block`, or nullptr.
  const ir::Instruction* divergent_branch(uint32_t block) const;
  // Follows the causes of a divergent value back to its source (a built-in
  // load, an atomic, ...): the last element is the source.
  std::vector<const ir::Instruction*> chain(uint32_t id) const;
  // The built-in at the source of a divergent value, if it comes from one.
  std::optional<spv::BuiltIn> source_builtin(uint32_t id) const;

 private:
  bool mark(uint32_t id, Divergence divergence);
  void find_one_subgroup_blocks();
  bool implies_one_subgroup(uint32_t condition, bool when, int depth = 0) const;
  bool at_least_workgroup(uint32_t id) const;
  bool one_subgroup_at(const ir::Instruction& instruction) const;
  UniformityScope::Level level_at(const ir::Instruction& instruction) const;
  bool uniform_in_one_subgroup(uint32_t id, int depth = 0) const;
  bool selects_one_subgroup_value(const ir::Instruction& select) const;
  bool decided_by_votes(const ir::Instruction& comparison) const;
  bool decided_by_workgroup_size(const ir::Instruction& comparison) const;
  bool all_reduced(const ir::Instruction& phi) const;
  bool joins_on_one_subgroup_edges(const ir::Instruction& phi) const;
  void seed();
  bool propagate_values();
  bool propagate_value(const ir::Instruction& instruction);
  bool follows_operands(const ir::Instruction& instruction) const;
  bool same_in_workgroup(uint32_t id) const;
  bool fixed_workgroup_size() const;
  std::optional<uint64_t> index_split(const ir::Instruction& comparison, uint32_t* index) const;
  bool is_subgroup_aligned_index(uint32_t id) const;
  static bool may_cancel(const ir::Instruction& instruction);
  void compute_bases();
  bool cancels_out(const ir::Instruction& instruction) const;
  bool propagate_memory();
  bool propagate_written_loads();
  void find_buffer_writes();
  const ir::Instruction* written_by_shader(const ir::Instruction& load) const;
  bool propagate_control();
  bool mark_loop_exits(uint32_t branch, const ir::Instruction* cause);
  void find_loops();
  bool is_divergent_branch(uint32_t block) const;
  bool copies_one_value(const ir::Instruction& phi) const;
  bool joins_one_value(const ir::Instruction& phi, uint32_t branch, const std::vector<uint32_t>& reached_from) const;
  const ir::Instruction* branch_condition(uint32_t block) const;

  const Module& module_;
  const ir::Function& function_;
  UniformityScope scope_;
  std::unordered_map<uint32_t, Divergence> values_;
  std::unordered_map<uint32_t, const ir::Instruction*> variables_;  // tainted memory -> store
  // Stores and atomics on storage buffers in the functions the entry point
  // runs: the variable, the bytes the write may touch ([low, high); no high
  // past the end of a runtime array), and the instruction.
  struct BufferWrite {
    uint32_t variable = 0;
    uint64_t low = 0;
    std::optional<uint64_t> high;
    const ir::Instruction* instruction = nullptr;
  };
  std::vector<BufferWrite> buffer_writes_;
  const ir::Instruction* physical_write_ = nullptr;  // a write through a physical storage buffer pointer
  // Loads of this function from memory the shader writes, each with such a write.
  std::vector<std::pair<const ir::Instruction*, const ir::Instruction*>> written_loads_;
  std::vector<const ir::Instruction*> blocks_;                      // divergent branch by block
  // By block: a condition guarding it says one subgroup is the workgroup.
  std::vector<bool> one_subgroup_;
  std::optional<PublishedVotes> published_votes_;  // at workgroup scope
  std::vector<Loop> loops_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> use_blocks_;  // id -> blocks that read it
  // For divergent integers of the form base + uniform offset: the base.
  std::unordered_map<uint32_t, uint32_t> bases_;
  // Phis where divergent paths meet and values that leave loops through
  // divergent exits: their offsets from any base differ between invocations.
  std::unordered_set<uint32_t> irregular_;
  mutable std::unordered_map<uint32_t, bool> copies_;  // phi -> copies_one_value
  mutable std::optional<bool> fixed_size_;
};

// Whether a built-in holds the same value for every invocation of a workgroup.
bool is_workgroup_uniform(spv::BuiltIn builtin);
// Whether a built-in holds the same value for every invocation of a subgroup.
bool is_subgroup_uniform(spv::BuiltIn builtin);

}  // namespace klint
