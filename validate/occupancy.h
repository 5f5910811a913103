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
#include <span>
#include <string>
#include <string_view>
#include <utility>

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

// The workgroups one compute unit of `target` keeps resident where workgroup
// memory alone keeps fewer than the target needs to hide memory latency
// (shared-memory-limits-occupancy's finding); nullopt where another bound
// decides, the target has no figures, enough stay resident, or the memory
// is over the target's limit (shared-memory-over-limit's).
std::optional<uint32_t> starved_by_shared_memory(const Target& target, uint64_t shared_memory_bytes,
                                                 uint64_t workgroup_invocations);

// "1 workgroup on apple-m1, apple-m2 and 2 on x": targets and what stays
// resident on them, grouped by the count, fewest first.
std::string residency_text(std::span<const std::pair<const Target*, uint32_t>> resident);

}  // namespace klint
