// element_padding: the bytes of an array element its explicit layout leaves
// unused, probed at the pointer of the first load from the buffer `b` in main.
#include <gtest/gtest.h>

#include "analyzer/layout_padding.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

// The padding bytes, by offset in the block.
std::vector<int> padding(const std::string& declarations, const std::string& read, int64_t stride) {
  std::string source = "#version 450\nlayout(local_size_x = 64) in;\n" + declarations +
                       "layout(binding = 9) buffer Out { float result[]; };\n"
                       "void main() { uint i = gl_GlobalInvocationID.x; result[i] = " + read + "; }\n";
  auto module = module_from_glsl(source);
  std::vector<int> out;
  if (!module) return out;
  for (const ir::Function& function : module->functions()) {
    for (const ir::Block& block : function.blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        if (instruction.opcode() != spv::Op::OpLoad) continue;
        const ir::Instruction* chain = module->def(instruction.word(2));
        if (!chain || chain->opcode() != spv::Op::OpAccessChain || module->name(chain->word(2)) != "b") continue;
        std::vector<bool> bytes = element_padding(*module, instruction.word(2), stride);
        for (size_t at = 0; at < bytes.size(); ++at) {
          if (bytes[at]) out.push_back(static_cast<int>(at));
        }
        return out;
      }
    }
  }
  return out;
}

TEST(LayoutPadding, TheTailOfAVec3ElementIsPadding) {
  EXPECT_EQ(padding("layout(std430, binding = 0) buffer B { vec3 v[]; } b;\n", "b.v[i].x", 16),
            (std::vector<int>{12, 13, 14, 15}));
}

TEST(LayoutPadding, AStructPaddedToItsAlignment) {
  EXPECT_EQ(padding("struct S { vec4 a; vec3 c; };\nlayout(std430, binding = 0) buffer B { S s[]; } b;\n",
                    "b.s[i].a.x", 32),
            (std::vector<int>{28, 29, 30, 31}));
}

TEST(LayoutPadding, MembersThatFillTheElementLeaveNone) {
  EXPECT_EQ(padding("struct S { float a; float b; vec2 c; };\nlayout(std430, binding = 0) buffer B { S s[]; } b;\n",
                    "b.s[i].a", 16),
            (std::vector<int>{}));
}

TEST(LayoutPadding, AHeaderBeforeTheArrayShiftsTheBlock) {
  // The array starts 16 bytes in: each element's padding (bytes 12 to 15)
  // lies at 28 to 31 modulo the 16-byte stride, which is 12 to 15 again.
  EXPECT_EQ(padding("layout(std430, binding = 0) buffer B { vec4 header; vec3 v[]; } b;\n", "b.v[i].y", 16),
            (std::vector<int>{12, 13, 14, 15}));
  // A stride the array does not have: nothing known.
  EXPECT_EQ(padding("layout(std430, binding = 0) buffer B { vec3 v[]; } b;\n", "b.v[i].x", 48),
            (std::vector<int>{}));
}

}  // namespace
}  // namespace klint::testing
