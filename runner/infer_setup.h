// Setups made from the kernel, for `klint --confirm` without a [[kernel]]
// manifest: what each push-constant member is, read from how the kernel uses
// it, and the shapes worth running from that. Real kernels keep their sizes
// in push constants (`if (col >= p.cols) return;`, `i < p.n; i += stride`,
// `x[row * p.cols + col]`); at zero, the loops that hold a bug never run.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/module.h"
#include "reflect/reflection.h"
#include "runner/manifest.h"

namespace klint::runner {

// What the kernel does with one scalar member of its push constants or of a
// uniform block.
struct MemberRole {
  enum class Kind {
    // A number of elements or rows the invocations or workgroups are laid
    // over: compared with a value made of the workgroup id.
    Count,
    // A length inside one workgroup's work: a loop's bound, a bound of the
    // local id, a multiplier of an index, a divisor or a loop's step.
    Length,
    // A float that divides or multiplies: 0 would make the kernel degenerate.
    Scale,
  };
  std::string member;  // as reflection names it; for a uniform member, its own name (the last of `path`)
  Kind kind = Kind::Length;
  // "it bounds a loop at line 11", for the guesses.
  std::string why;
  // For a Count compared with `c * gl_WorkGroupID[axis] + ...`: the axis and
  // c, so that ceildiv(value, c) workgroups cover it.
  std::optional<size_t> grid_axis;
  int64_t per_workgroup = 1;
  // A Count that bounds a loop striding over the grid's invocations (its
  // counter starts at an id made of the workgroup id): the grid covers half
  // of it, and one shape makes the loop run more than once.
  bool strided = false;
  // A member of a uniform block rather than of the push constants: its
  // binding, its names from the block down ("global_ubo", "width"), and
  // where in the block it lies.
  std::optional<std::pair<uint32_t, uint32_t>> uniform;
  std::vector<std::string> path;
  uint32_t offset = 0;
  std::string type;
};

// A scalar member of the push-constant block, or of a uniform block, that
// `load` reads whole: through an access chain of constant indices into
// structs, so that "global_ubo.width" of `uniform UBO { Globals global_ubo; }`
// counts as "width" does in `push_constant` blocks.
struct LoadedMember {
  std::optional<std::pair<uint32_t, uint32_t>> uniform;  // set, binding; nullopt: the push constants
  std::vector<std::string> path;                          // member names, outermost first
};
std::optional<LoadedMember> loaded_member(const Module& module, const ir::Instruction& load);

// The roles of the scalar members of the push constants, then of the uniform
// blocks, of `entry` in `module` (the normalized module: inlined, locals in
// SSA form), each in member order; members of other types, of no use klint
// recognizes, or whose name another member already took, have none.
std::vector<MemberRole> infer_roles(const Module& module, const reflect::EntryPoint& entry);

// The values the findings name for a member: "when cols = 63", "with s = 32"
// in a message or a note, where the name is a member of `roles` sized
// (Count or Length). In the order found, each member and value once.
std::vector<std::pair<std::string, int64_t>> named_values(std::span<const Diagnostic* const> findings,
                                                          const std::vector<MemberRole>& roles);

// The workgroup sizes the findings name: "such as local_size_x = 96" in a
// message or a note, as (axis, size), each once, in the order found.
std::vector<std::pair<size_t, uint32_t>> named_workgroup_sizes(std::span<const Diagnostic* const> findings);


// A manifest that runs the inferred setups: one variable per sized member
// (its name), the shapes to try (the findings' values first, each with the
// other sizes at the workgroup's invocations; then, for a kernel with both
// counts and lengths, the row-wise matrix of default_two_variable_matrix()
// less its widest row, else every size at wg+1, wg-1, 33 and 1), the grid
// covering the counts (at least 2 workgroups, at most kMaxInferredWorkgroups
// per axis), and Scale floats at 1. nullopt where no member has a role.
std::optional<KernelManifest> inferred_manifest(const std::vector<MemberRole>& roles,
                                                const std::vector<std::pair<std::string, int64_t>>& named,
                                                const reflect::EntryPoint& entry, const std::string& path);

constexpr uint32_t kMaxInferredWorkgroups = 64;

// The guess lines for the inferred values of a shape: "push constant cols =
// 63, from the finding (a size: it bounds the local id at line 14)".
std::vector<std::string> describe_inferred(const std::vector<MemberRole>& roles,
                                           const std::vector<std::pair<std::string, int64_t>>& named,
                                           const Shape& shape);

}  // namespace klint::runner
