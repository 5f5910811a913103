// Where a pointer leads: the one walk from a pointer back to the variables it
// may point into, with the indices on the way. The accesses, uniformity, the
// rules and the runner's instrumentation all ask it, so they agree on which
// variable an access touches.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analyzer/module.h"

namespace klint {

struct PointerPath {
  const ir::Instruction* variable = nullptr;  // the OpVariable
  // The indices of the access chains on the way, from the variable down, as
  // an OpAccessChain on the variable would take them.
  std::vector<uint32_t> indices;
  // An OpPtrAccessChain on the way stepped by a non-zero Element over
  // neighbours of what its base points at: the indices then do not say where
  // the pointer lands in the variable, only how it got there.
  bool element_step = false;
  // The walk chose this path at an OpSelect, an OpPhi or a function parameter:
  // the pointer leads here on some runs and elsewhere on others.
  bool chosen = false;
  friend bool operator==(const PointerPath&, const PointerPath&) = default;
};

// The path of `pointer` through access chains (OpAccessChain,
// OpInBoundsAccessChain, OpPtrAccessChain, OpInBoundsPtrAccessChain) and
// OpCopyObject to its variable; nullopt when it leads to anything else: a
// select, a phi, a function parameter, a pointer loaded from memory.
std::optional<PointerPath> pointer_path(const Module& module, uint32_t pointer);

// Every path of `pointer`, through selects and phis as well, and from a
// function parameter to the argument of each call to the function. Paths that
// lead to no variable (a loaded pointer, a parameter of an entry point) are
// left out, so a pointer may lead to more places than these; the walk stops
// after `kMaxPointerPaths` paths or 64 steps deep.
std::vector<PointerPath> pointer_paths(const Module& module, uint32_t pointer);
inline constexpr size_t kMaxPointerPaths = 64;

// The same for a pointer the walk should take as a path to one variable:
// the variable of pointer_path(), or nullptr.
const ir::Instruction* pointer_variable(const Module& module, uint32_t pointer);

}  // namespace klint
