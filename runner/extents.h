// Buffers sized from the indices a dispatch reaches. A setup klint makes (an
// inferred one, or `klint run` without a manifest) gives a storage buffer's
// runtime array one element past the largest index any access to it can take:
// each index's symbolic form (analyzer/symbolic.h) bounded over the dispatch,
// with the push constants it loads read from the setup, the invocation ids
// from its grid and workgroup, and each loop counter from the test that ends
// its loop. `x[row * p.cols + col]` at rows = 4, cols = 256 needs 1024
// elements, where sizes multiplied pairwise would give a large kernel's
// quantized blocks 64 MB.
//
// A runtime array that one access indexes with a value klint cannot bound (a
// load from memory, a loop that ends on data) keeps the size guessed for it.
// A buffer of 32-bit integers whose words index an array gets integers that
// stay inside it, where float bits would index a billion elements past it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/module.h"
#include "reflect/reflection.h"
#include "runner/executor.h"
#include "runner/harness.h"

namespace klint::runner {

// The extents of the runtime arrays of the storage buffers of `entry` in
// `module` (the normalized module: inlined, locals in SSA form) for a
// dispatch of `setup` (its grid, push constants and specialization; its
// buffers are not read). None where the workgroup `setup` runs is not the
// module's default, which the symbolic forms split the global id at.
std::vector<Extent> index_extents(const Module& module, const reflect::EntryPoint& entry, const Harness& setup);

// Sets `options.extents` to index_extents(), and `options.index_buffers` to
// the storage buffers whose 32-bit integer words the kernel takes whole (as
// loaded, or through arithmetic, conversions and choices, not shifts or
// masks, which unpack data) as an index into an array: each gets integers
// below what keeps every such index inside its array, that array's length
// (a runtime array's as `options` sizes it) over the largest multiple of the
// word the index takes. None where the setup's workgroup is not the module's.
void size_from_indices(const Module& module, const reflect::EntryPoint& entry, const Harness& setup,
                       HarnessOptions& options);

// The same of a module as compiled (`klint run`), normalized first as the
// lint normalizes it, so that a replay sizes and fills its buffers as the run
// it replays did; nothing where it does not normalize.
void size_from_indices(const std::vector<uint32_t>& spirv, spv_target_env env, const ModuleOrigin& origin,
                       const reflect::EntryPoint& entry, const Harness& setup, HarnessOptions& options);

}  // namespace klint::runner
