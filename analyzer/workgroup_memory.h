// The workgroup (shared) memory an entry point uses: the Workgroup variables
// listed in its interface or used by the functions it calls, at their natural
// sizes (specialization constants at their defaults).
//
// Workgroup variables whose type is a Block-decorated struct (explicit layout,
// VK_KHR_workgroup_memory_explicit_layout; GLSL's `shared Name { ... };`) all
// alias one another: they are one memory, at offset 0 of each.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/module.h"

namespace klint {

struct WorkgroupVariable {
  uint32_t id = 0;
  uint64_t bytes = 0;
  bool aliased = false;  // an explicit-layout block: it shares its memory with the others
  // Whether a function the entry point calls names it; one only listed in
  // the interface is declared and never used, and compilers drop it.
  bool referenced = true;
};

struct WorkgroupMemory {
  std::vector<WorkgroupVariable> variables;  // largest first, then by id
  // What they take together: the aliased blocks count once, at the largest.
  uint64_t total = 0;
  // What the referenced ones take together, the same way: what a compiler
  // allocates (NVIDIA's reports 0 bytes for an array never used).
  uint64_t referenced = 0;
  // Variables whose size klint cannot compute (runtime arrays, unknown types).
  std::vector<uint32_t> unsized;
};

WorkgroupMemory workgroup_memory(const Module& module, const EntryPoint& entry);

// The memory a Workgroup variable's accesses touch, named by a variable: for
// an explicit-layout block, the first such block of the module (offsets into
// each count from the same byte); for any other variable, the variable itself.
uint32_t workgroup_memory_of(const Module& module, uint32_t variable);

// An access of the entry point's own function that would fall past the end
// of its workgroup variable for every invocation of any workgroup but the
// first along `dim`: the kernel indexes shared memory by its global id there
// (`tile[gl_GlobalInvocationID.x]`, with a tile as wide as the workgroup),
// which is in bounds only when the dispatch has one workgroup along `dim`.
// The access's offset is linear in ids and workgroup ids with no negative
// coefficient, no branch condition on the workgroup id guards it, and the
// variable's size, the offset and the workgroup's width along `dim` are
// numbers the host cannot specialize away. nullptr when no access says so.
const MemoryAccess* single_workgroup_access(const Module& module, const EntryPoint& entry, int dim);

// Whether `variable` is a Workgroup variable of a Block-decorated struct.
bool is_explicit_layout_block(const Module& module, uint32_t variable);

// Whether the module declares explicit-layout Workgroup blocks.
bool has_explicit_layout_workgroup_blocks(const Module& module);

}  // namespace klint
