// Which values agree within each aligned group of a subgroup's lanes, and
// which branches may split such a group.
//
// A quad is lanes 4k to 4k + 3 of a subgroup; a cluster of a clustered
// operation is lanes Ck to Ck + C - 1. An operation on a group reads only
// that group's lanes, so a branch that keeps whole groups together (every
// lane of a group takes the same side) never leaves one of them partly
// active, even where the lanes of the subgroup disagree. `idx < 64u` with
// `idx` the local invocation index keeps whole quads; so does an early return
// on `(tid / 8) / 4 >= n` for clusters of 8, whatever n is.
//
// Values are read in a small abstract domain: a value the group agrees on
// (and, for integers, a power of two it is known to be a multiple of), a
// lane pattern `base + lane * stride` where `lane` is the position in the
// group and `base` a multiple of `size * stride` the group agrees on (the
// subgroup invocation id; the local invocation index and the x of the
// local and global ids where rows hold whole groups), or anything else.
// Division, shifts and masks by constants turn a lane pattern into an agreed
// value where they drop the lane's bits; a comparison of a lane pattern with a
// bound that no group straddles is agreed.
//
// Like Uniformity, this assumes that each subgroup holds consecutive values
// of gl_LocalInvocationIndex starting at a multiple of its size, and that the
// subgroup size is a multiple of the group's (true of every known driver, not
// promised by Vulkan). Values that Uniformity at subgroup scope, with the
// group's size for its widest subgroup, finds uniform are agreed.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "analyzer/module.h"

namespace klint {

class Uniformity;

class LaneGroups {
 public:
  // `size` is a power of two: 4 for quads, a cluster's size, or the widest
  // subgroup the shader may run with. 0 trusts no lane pattern.
  LaneGroups(const Module& module, const ir::Function& function, uint32_t size);

  uint32_t size() const { return size_; }
  // Whether every invocation of each aligned group holds the same value.
  bool agrees(uint32_t id) const;
  // A conditional branch (the terminator) that decides, directly or through
  // the branches it decides, whether invocations reach `block`, and whose
  // condition may differ within an aligned group; nullptr when none.
  const ir::Instruction* splitting_branch(uint32_t block) const;
  // The Uniformity this reads agreed values from.
  const Uniformity& uniformity() const { return uniformity_; }

 private:
  struct Form {
    enum class Kind { Agreed, Lane, Split } kind = Kind::Split;
    uint32_t twos = 0;                // Agreed integers: a multiple of 2^twos
    std::optional<uint64_t> value;    // Agreed: a literal constant's value
    uint64_t stride = 0;              // Lane: the step between neighbouring lanes
  };
  static Form agreed(uint32_t twos = 0, std::optional<uint64_t> value = std::nullopt);
  static Form lane(uint64_t stride);
  static Form split();

  Form form(uint32_t id, int depth = 0) const;
  Form compute(uint32_t id, int depth) const;
  Form builtin_form(uint32_t id) const;
  Form arithmetic(const ir::Instruction& instruction, int depth) const;
  Form comparison(const ir::Instruction& instruction, int depth) const;
  Form clustered(const ir::Instruction& operation) const;
  // A value divided by, or taken modulo, a positive literal.
  Form divided(const Form& pattern, uint64_t divisor) const;
  Form remainder(const Form& pattern, uint64_t divisor) const;
  bool aligned(const Form& offset, uint64_t block) const;
  uint32_t width_of(uint32_t id) const;

  const Module& module_;
  const ir::Function& function_;
  uint32_t size_;
  const Uniformity& uniformity_;
  mutable std::unordered_map<uint32_t, Form> forms_;
  mutable std::unordered_map<uint32_t, const ir::Instruction*> splits_;  // by block
};

}  // namespace klint
