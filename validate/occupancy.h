// How many workgroups of a kernel one compute unit of a target keeps resident.
//
// The estimate takes the smallest of three bounds: the vendor's cap on
// resident workgroups, the invocations a compute unit holds divided by the
// workgroup's, and the shared memory a compute unit has divided by the
// workgroup's (or, where the vendor documents tiers instead, the tier the
// workgroup's shared memory falls in). Registers, which bound residency as
// often as shared memory does, are not known before the driver compiles the
// shader, so the estimate is an upper bound.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "validate/target.h"

namespace klint {

struct Occupancy {
  enum class Limit { WorkgroupCap, Invocations, SharedMemory };
  uint32_t resident_workgroups = 0;
  Limit limited_by = Limit::WorkgroupCap;
  // What shared memory alone allows; nullopt when the kernel uses none.
  std::optional<uint32_t> by_shared_memory;
};

std::string_view to_string(Occupancy::Limit limit);

// nullopt when the target has no occupancy figures.
std::optional<Occupancy> estimate_occupancy(const Target& target, uint64_t shared_memory_bytes,
                                            uint64_t workgroup_invocations);

}  // namespace klint
