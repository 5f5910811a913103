// The workgroup memory an entry point takes (analyzer/workgroup_memory.h):
// every Workgroup variable its interface lists or its functions use, and,
// apart, what the ones its functions use take, which is what a compiler
// allocates.
#include <gtest/gtest.h>

#include "analyzer/workgroup_memory.h"
#include "tests/support/compile.h"

namespace klint {
namespace {

using testing::module_from_glsl;

TEST(WorkgroupMemory, AnArrayNoFunctionUsesCountsOnlyAsDeclared) {
  std::unique_ptr<Module> m = module_from_glsl(R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared float unused[1024];
shared float used[64];
shared vec4 helper_only[16];
void store(uint i, float v) { helper_only[i % 16] = vec4(v); }
void main() {
    used[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    store(gl_LocalInvocationID.x, used[63 - gl_LocalInvocationID.x]);
}
)", false);
  ASSERT_TRUE(m);
  const WorkgroupMemory memory = workgroup_memory(*m, m->entry_points().front());
  EXPECT_EQ(memory.referenced, 64u * 4 + 16u * 16);  // used, and helper_only through the call
  ASSERT_EQ(memory.variables.size(), 3u);
  EXPECT_EQ(m->variable_name(memory.variables[0].id), "unused");
  EXPECT_FALSE(memory.variables[0].referenced);
  EXPECT_TRUE(memory.variables[1].referenced);
  EXPECT_TRUE(memory.variables[2].referenced);
  EXPECT_EQ(memory.total, 1024u * 4 + 64u * 4 + 16u * 16);
}

TEST(WorkgroupMemory, EveryArrayUsedCountsTheSameBothWays) {
  std::unique_ptr<Module> m = module_from_glsl(R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared float a[64];
shared float b[128];
void main() {
    a[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    b[gl_LocalInvocationID.x * 2u] = a[63 - gl_LocalInvocationID.x];
    data[gl_GlobalInvocationID.x] = b[gl_LocalInvocationID.x];
}
)");
  ASSERT_TRUE(m);
  const WorkgroupMemory memory = workgroup_memory(*m, m->entry_points().front());
  EXPECT_EQ(memory.total, 192u * 4);
  EXPECT_EQ(memory.referenced, memory.total);
}

}  // namespace
}  // namespace klint
