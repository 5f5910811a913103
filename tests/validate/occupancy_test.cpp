#include "validate/occupancy.h"

#include <gtest/gtest.h>

namespace klint {
namespace {

Target apple() {
  Target t;
  t.name = "apple";
  t.occupancy.max_workgroups_per_compute_unit = 8;
  t.occupancy.max_invocations_per_compute_unit = 2048;
  t.occupancy.tiers = {{8192, 4}, {16384, 2}, {32768, 1}};
  return t;
}

Target nvidia() {
  Target t;
  t.name = "nvidia";
  t.occupancy.shared_memory_per_compute_unit = 100 * 1024;
  t.occupancy.max_workgroups_per_compute_unit = 16;
  t.occupancy.max_invocations_per_compute_unit = 1536;
  return t;
}

TEST(Occupancy, AppleTiersFromTheSeeds) {
  EXPECT_EQ(estimate_occupancy(apple(), 8 * 1024, 256)->resident_workgroups, 4u);
  EXPECT_EQ(estimate_occupancy(apple(), 8 * 1024 + 1, 256)->resident_workgroups, 2u);
  EXPECT_EQ(estimate_occupancy(apple(), 16 * 1024, 256)->resident_workgroups, 2u);
  auto full = estimate_occupancy(apple(), 32 * 1024, 256);
  EXPECT_EQ(full->resident_workgroups, 1u);
  EXPECT_EQ(full->limited_by, Occupancy::Limit::SharedMemory);
  EXPECT_EQ(estimate_occupancy(apple(), 40000, 256)->resident_workgroups, 0u);
}

TEST(Occupancy, WithoutSharedMemoryOtherBoundsDecide) {
  auto none = estimate_occupancy(apple(), 0, 1024);
  EXPECT_EQ(none->resident_workgroups, 2u);
  EXPECT_EQ(none->limited_by, Occupancy::Limit::Invocations);
  EXPECT_FALSE(none->by_shared_memory);
  auto small = estimate_occupancy(nvidia(), 0, 32);
  EXPECT_EQ(small->resident_workgroups, 16u);
  EXPECT_EQ(small->limited_by, Occupancy::Limit::WorkgroupCap);
}

TEST(Occupancy, SharedMemoryPerComputeUnitDivides) {
  auto occupancy = estimate_occupancy(nvidia(), 48 * 1024, 128);
  EXPECT_EQ(occupancy->resident_workgroups, 2u);
  EXPECT_EQ(occupancy->by_shared_memory, 2u);
  EXPECT_EQ(occupancy->limited_by, Occupancy::Limit::SharedMemory);
  EXPECT_EQ(estimate_occupancy(nvidia(), 4096, 256)->resident_workgroups, 6u);  // 1536 / 256
}

TEST(Occupancy, TargetsWithoutFiguresGiveNothing) {
  EXPECT_FALSE(estimate_occupancy(Target{}, 1024, 64));
}

}  // namespace
}  // namespace klint
