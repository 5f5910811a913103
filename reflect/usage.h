// The part of reflection that SPIRV-Cross does not answer, computed on klint's
// IR: how each global variable is used by the code an entry point runs, its
// workgroup size, workgroup memory and barriers. Plain data only, so that
// reflection.cpp can include this next to SPIRV-Cross (see reflection.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reflect/reflection.h"

namespace klint::reflect {

struct VariableUsage {
  bool read = false;
  bool write = false;
  MemoryOps loads;
  MemoryOps stores;
  uint32_t atomics = 0;

  Access access() const;
};

struct WorkgroupUse {
  uint32_t variable_id = 0;
  std::optional<uint64_t> bytes;
  bool used = false;
  bool aliased = false;  // an explicit-layout block, which shares its memory with the others
};

struct EntryUsage {
  std::string name;
  uint32_t execution_model = 0;
  std::optional<std::array<WorkgroupDimension, 3>> workgroup_size;
  // Every module-scope variable the entry point's code touches, by id.
  std::map<uint32_t, VariableUsage> variables;
  std::vector<WorkgroupUse> workgroup_variables;  // every Workgroup variable of the module
  Barriers barriers;
};

struct ModuleUsage {
  std::vector<EntryUsage> entry_points;  // one per OpEntryPoint, in module order
  // The length of every OpTypeArray whose length klint can evaluate, by the
  // id of the length constant: specialization constants at their defaults, so
  // that `shared float tile[BM * BK]` has a size.
  std::map<uint32_t, uint64_t> array_lengths;
};

// Fails with a reason when the module does not decode.
std::optional<ModuleUsage> analyze_usage(const std::vector<uint32_t>& spirv, std::string* error);

// The SPIR-V spelling of a capability ("GroupNonUniformBallot"), as the
// SPIRV-Tools disassembler writes it.
std::string capability_name(uint32_t capability);

}  // namespace klint::reflect
