// Every load, store and atomic on workgroup and storage-buffer memory, with
// the byte offset it touches as a polynomial (symbolic.h) and the conditions
// that hold where it runs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "analyzer/module.h"
#include "analyzer/symbolic.h"

namespace klint {

// `expression >= 0`, or `expression == 0` when `equality`. With
// `same_in_subgroup`, the expression (a per-invocation value) equals a value
// that all invocations of a subgroup share, such as the lane a ballot found:
// at most one invocation of each subgroup runs under it.
//
// Each constraint comes from one branch condition: the boolean SSA value
// `condition` is `holds` where the block runs (`tid < n` gives `n - tid - 1
// >= 0`; `all(equal(id, uvec3(0)))` one equality per component). Where no
// such polynomial states it (`a != b`, `x || y` that holds, `any(...)`),
// `stated` is false and the expression is 0 (`0 >= 0`, which says nothing):
// evaluating `condition` on concrete invocations is what tells.
struct Constraint {
  Polynomial expression;
  bool equality = false;
  bool same_in_subgroup = false;
  uint32_t condition = 0;
  bool holds = true;
  bool stated = true;
  friend bool operator==(const Constraint&, const Constraint&) = default;
};

struct MemoryAccess {
  enum class Kind { Read, Write, Atomic };
  const ir::Instruction* instruction = nullptr;
  uint32_t block = 0;  // block index in the function
  size_t position = 0;  // index into the block's instructions
  // The OpVariable the pointer derives from. A pointer chosen at an OpSelect,
  // an OpPhi or a function parameter makes one access per variable it may
  // point into, each with an unknown offset.
  uint32_t variable = 0;
  uint32_t pointer = 0;  // the pointer operand
  spv::StorageClass storage = spv::StorageClass::Workgroup;
  Kind kind = Kind::Read;
  // Bytes from the start of the variable; nullopt when some index is beyond
  // klint (a pointer chosen at run time, an unknown type, a cooperative
  // matrix's rows).
  std::optional<Polynomial> offset;
  uint64_t width = 0;  // bytes touched; 0 when unknown
};

// The root variable of a pointer and the byte offset into it.
struct PointerTarget {
  uint32_t variable = 0;
  std::optional<Polynomial> offset;
  uint32_t pointee_type = 0;
};

class Accesses {
 public:
  Accesses(const Module& module, const ir::Function& function);

  const std::vector<MemoryAccess>& all() const { return accesses_; }
  // The accesses `instruction` makes (two for OpCopyMemory, one per variable
  // for a chosen pointer); empty for an instruction of another function.
  std::span<const MemoryAccess> of(const ir::Instruction& instruction) const;
  // The conditions that hold whenever `block` runs: the branch conditions
  // on the edges that dominate it, where klint can express them.
  const std::vector<Constraint>& guards(uint32_t block) const { return guards_[block]; }

 private:
  void collect(const ir::Instruction& instruction, uint32_t block, size_t position);
  // `located`: klint reads the offset from the pointer (not for cooperative
  // matrices, whose rows lie at a stride).
  void add(const ir::Instruction& instruction, uint32_t block, size_t position, uint32_t pointer,
           MemoryAccess::Kind kind, bool located = true);
  void add(const ir::Instruction& instruction, uint32_t block, size_t position, uint32_t pointer,
           MemoryAccess::Kind kind, spv::StorageClass storage, const PointerTarget& target);
  void compute_guards();
  void condition(uint32_t id, bool holds, std::vector<Constraint>& out, int depth) const;

  const Module& module_;
  const ir::Function& function_;
  const SymbolicValues& values_;
  std::vector<MemoryAccess> accesses_;
  std::unordered_map<const ir::Instruction*, std::pair<size_t, size_t>> by_instruction_;  // [first, last)
  std::vector<std::vector<Constraint>> guards_;
};

std::optional<PointerTarget> resolve_pointer(const Module& module, const SymbolicValues& values, uint32_t pointer);

}  // namespace klint
