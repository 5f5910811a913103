// The workgroup (shared) memory an entry point uses: the Workgroup variables
// listed in its interface or used by the functions it calls, at their natural
// sizes (specialization constants at their defaults).
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/module.h"

namespace klint {

struct WorkgroupVariable {
  uint32_t id = 0;
  uint64_t bytes = 0;
};

struct WorkgroupMemory {
  std::vector<WorkgroupVariable> variables;  // largest first, then by id
  uint64_t total = 0;
  // Variables whose size klint cannot compute (runtime arrays, unknown types).
  std::vector<uint32_t> unsized;
};

WorkgroupMemory workgroup_memory(const Module& module, const EntryPoint& entry);

}  // namespace klint
