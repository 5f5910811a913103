// Facts about subgroups in a module: which values are invocation ids or
// subgroup built-ins, which are computed from subgroup operations, which
// memory holds such results, and which conditions decide where subgroup code
// runs. subgroup-size-assumed and subgroup-count-assumed judge with them
// (rules/support/subgroup_width.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/module.h"

namespace klint {

// A built-in a value is loaded from, and the component of a vector built-in
// when the value is one (-1 otherwise).
struct BuiltinValue {
  spv::BuiltIn builtin;
  int component = -1;
};

// The built-in `id` loads, through copies, conversions and component extracts.
std::optional<BuiltinValue> loaded_builtin(const Module& module, uint32_t id);

// The invocation id (gl_LocalInvocationID, gl_LocalInvocationIndex,
// gl_GlobalInvocationID; HLSL SV_GroupThreadID, SV_GroupIndex,
// SV_DispatchThreadID) `id` is computed from, through copies and additions,
// multiplications and shifts with uniform values. `direct` says the value is
// the built-in (or one component of it) unchanged.
struct InvocationId {
  BuiltinValue source;
  bool direct = false;
  // Multiplied or shifted left, and not then added to another invocation id
  // as in `y * 16 + x`: a multiple of the id, no invocation's position.
  bool scaled = false;
};
std::optional<InvocationId> invocation_id(const Module& module, uint32_t id);

bool is_subgroup_builtin(spv::BuiltIn builtin);

// At subgroup scope, subgroup operations whose result is the same for every
// invocation of the subgroup whatever their operands: a reduction combines
// every active invocation's value into one, a broadcast hands out one
// invocation's value, a vote or a ballot one answer for the subgroup.
bool is_subgroup_wide(const ir::Instruction& instruction);

// Values computed from the result of a subgroup operation or from a subgroup
// built-in, and the Workgroup arrays that hold such values.
class SubgroupValues {
 public:
  explicit SubgroupValues(const Module& module);

  bool any() const { return !derived_.empty(); }
  bool derived(uint32_t id) const { return derived_.count(id) != 0; }
  // A store, or an atomic, of a derived value: nullptr when `instruction` is none.
  const ir::Instruction* stored_result(const ir::Instruction& instruction) const;
  // A Workgroup variable some invocation stores a derived value to.
  bool holds_results(uint32_t variable) const { return holders_.count(variable) != 0; }

 private:
  const Module& module_;
  std::unordered_set<uint32_t> derived_;
  std::unordered_set<uint32_t> holders_;
};

// The variable an access chain (or nested chains) points into, with every
// index in order; variable 0 when the base is no variable.
struct Access {
  uint32_t variable = 0;
  std::vector<uint32_t> indices;
};
Access access_of(const Module& module, uint32_t pointer);

// The array type that index `level` of an access into `variable` selects an
// element of, or nullptr when that level is no array.
const ir::Instruction* array_at(const Module& module, uint32_t variable, size_t level);

// What shows that a value is used as a subgroup lane or subgroup index: it is
// an operand of a subgroup operation, indexes memory that holds subgroup
// results, or decides which invocations store one.
struct SubgroupUse {
  enum class Kind { Operand, Index, Guard } kind;
  const ir::Instruction* at = nullptr;      // the subgroup operation, the access chain, the branch
  // For Guard: the store or subgroup operation it decides. For Index: the
  // store through the access chain, or nullptr where the memory indexed is a
  // Workgroup variable that holds subgroup results elsewhere too.
  const ir::Instruction* result = nullptr;
  uint32_t variable = 0;  // for Index: the memory indexed
};
std::optional<SubgroupUse> subgroup_use(const Module& module, const SubgroupValues& values, uint32_t id);

// A subgroup operation, or with `values` a store of a subgroup result, in the
// code that `branch` (an OpBranchConditional) decides whether it runs.
const ir::Instruction* decided_subgroup_code(const Module& module, const SubgroupValues* values,
                                            const ir::Instruction& branch);

// Whether `instruction` runs only where a branch condition compares the
// subgroup size with `width`: code written for one width, under a check.
bool checked_for_width(const Module& module, const ir::Instruction& instruction, uint32_t width);

// Whether a condition deciding whether `instruction` (an access chain) runs,
// or which of its loaded values is used, compares `index` with anything, or
// without `with_literals`, with anything but a literal (`i < gl_NumSubgroups`).
bool compared(const Module& module, const ir::Instruction& instruction, uint32_t index, bool with_literals = true);

// The smallest constant K that a condition deciding whether `instruction`
// runs compares `index` against (index < K, index <= K - 1, index >= K with an
// early exit, index == K - 1): an upper bound of index where it runs.
std::optional<uint64_t> guard_bound(const Module& module, const ir::Instruction& instruction, uint32_t index);

// The integer value of a plain OpConstant (not a specialization constant,
// which an application may set per device).
std::optional<uint64_t> literal_value(const Module& module, uint32_t id);

}  // namespace klint
