#include "validate/occupancy.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <vector>

namespace klint {

std::string_view to_string(Occupancy::Limit limit) {
  switch (limit) {
    case Occupancy::Limit::WorkgroupCap: return "the resident workgroup cap";
    case Occupancy::Limit::Invocations: return "invocations per compute unit";
    case Occupancy::Limit::SharedMemory: return "shared memory";
  }
  return "";
}

namespace {

std::optional<uint32_t> shared_memory_bound(const TargetOccupancy& figures, uint64_t bytes) {
  if (bytes == 0) return std::nullopt;
  if (!figures.tiers.empty()) {
    for (const TargetOccupancy::Tier& tier : figures.tiers) {
      if (bytes <= tier.max_shared_memory) return tier.workgroups;
    }
    return 0u;  // over the last tier: it does not fit at all
  }
  if (figures.shared_memory_per_compute_unit == 0) return std::nullopt;
  return static_cast<uint32_t>(std::min<uint64_t>(figures.shared_memory_per_compute_unit / bytes,
                                                  std::numeric_limits<uint32_t>::max()));
}

}  // namespace

std::optional<Occupancy> estimate_occupancy(const Target& target, uint64_t shared_memory_bytes,
                                            uint64_t workgroup_invocations) {
  const TargetOccupancy& figures = target.occupancy;
  if (figures.max_workgroups_per_compute_unit == 0 && figures.tiers.empty() &&
      figures.shared_memory_per_compute_unit == 0) {
    return std::nullopt;
  }
  Occupancy result;
  uint32_t best = figures.max_workgroups_per_compute_unit ? figures.max_workgroups_per_compute_unit
                                                          : std::numeric_limits<uint32_t>::max();
  if (figures.max_invocations_per_compute_unit && workgroup_invocations) {
    auto by_invocations = static_cast<uint32_t>(
        std::min<uint64_t>(figures.max_invocations_per_compute_unit / workgroup_invocations, best));
    if (by_invocations < best) {
      best = by_invocations;
      result.limited_by = Occupancy::Limit::Invocations;
    }
  }
  result.by_shared_memory = shared_memory_bound(figures, shared_memory_bytes);
  if (result.by_shared_memory && *result.by_shared_memory < best) {
    best = *result.by_shared_memory;
    result.limited_by = Occupancy::Limit::SharedMemory;
  }
  result.resident_workgroups = best == std::numeric_limits<uint32_t>::max() ? 0 : best;
  return result;
}

std::optional<uint32_t> starved_by_shared_memory(const Target& target, uint64_t shared_memory_bytes,
                                                 uint64_t workgroup_invocations) {
  if (shared_memory_bytes == 0 || shared_memory_bytes > target.max_compute_shared_memory_size) return std::nullopt;
  std::optional<Occupancy> occupancy = estimate_occupancy(target, shared_memory_bytes, workgroup_invocations);
  if (!occupancy || !occupancy->by_shared_memory || occupancy->limited_by != Occupancy::Limit::SharedMemory ||
      occupancy->resident_workgroups >= target.occupancy.min_workgroups_to_hide_latency) {
    return std::nullopt;
  }
  return occupancy->resident_workgroups;
}

std::string residency_text(std::span<const std::pair<const Target*, uint32_t>> resident) {
  std::map<uint32_t, std::vector<std::string>> by_count;
  for (const auto& [target, count] : resident) by_count[count].push_back(target->name);
  std::string text;
  for (const auto& [count, names] : by_count) {
    if (text.empty()) {
      text = fmt::format("{} workgroup{} on {}", count, count == 1 ? "" : "s", fmt::join(names, ", "));
    } else {
      text += fmt::format(" and {} on {}", count, fmt::join(names, ", "));
    }
  }
  return text;
}

}  // namespace klint
