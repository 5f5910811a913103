// Every fixture and example, compiled, decodes into klint's IR and re-encodes
// to the identical binary, before and after normalization.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzer/frontend.h"
#include "analyzer/ir/module.h"
#include "analyzer/normalize.h"
#include "tests/support/fixture.h"
#include "validate/spirv_val.h"

namespace klint::testing {
namespace {

class RoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, ReencodesIdentically) {
  auto [fixture, compiled] = compile_fixture(GetParam());
  ASSERT_TRUE(compiled.ok) << GetParam();

  ir::DecodeError error;
  auto module = ir::decode(compiled.spirv, &error);
  ASSERT_TRUE(module) << error.message;
  EXPECT_EQ(ir::encode(*module), compiled.spirv);

  std::string why;
  const spv_target_env env = to_spv_env(fixture.options.compile.target_env.value_or(kDefaultTargetEnv));
  auto normalized = normalize(compiled.spirv, env, &why);
  ASSERT_TRUE(normalized) << why;
  auto again = ir::decode(*normalized, &error);
  ASSERT_TRUE(again) << error.message;
  EXPECT_EQ(ir::encode(*again), *normalized);
}

// What the runner will do to every shader: add a storage buffer for debug
// output (set 7, binding 0, uint values[]) and store into it at the end of the
// entry point's first block.
void add_debug_store(ir::Module& module) {
  using spv::Op;
  using ir::id;
  using ir::literal;
  using ir::make_instruction;
  uint32_t entry = 0;
  for (const ir::Instruction& i : module.globals) {
    if (i.opcode() == Op::OpEntryPoint) entry = i.word(1);
  }
  ASSERT_NE(entry, 0u);
  uint32_t uint_type = module.find_or_add_global(Op::OpTypeInt, 0, {literal(32), literal(0)});
  uint32_t zero = module.find_or_add_global(Op::OpConstant, uint_type, {literal(0)});
  uint32_t seven = module.find_or_add_global(Op::OpConstant, uint_type, {literal(7)});
  uint32_t array = module.allocate_id();
  uint32_t block = module.allocate_id();
  uint32_t block_pointer = module.allocate_id();
  uint32_t variable = module.allocate_id();
  module.add_global(make_instruction(Op::OpTypeRuntimeArray, 0, array, {id(uint_type)}));
  module.add_global(make_instruction(Op::OpTypeStruct, 0, block, {id(array)}));
  module.add_global(make_instruction(Op::OpTypePointer, 0, block_pointer,
                                     {literal(static_cast<uint32_t>(spv::StorageClass::StorageBuffer)), id(block)}));
  module.add_global(make_instruction(Op::OpVariable, block_pointer, variable,
                                     {literal(static_cast<uint32_t>(spv::StorageClass::StorageBuffer))}));
  uint32_t element_pointer = module.find_or_add_global(
      Op::OpTypePointer, 0, {literal(static_cast<uint32_t>(spv::StorageClass::StorageBuffer)), id(uint_type)});
  auto decoration = [](spv::Decoration d) { return literal(static_cast<uint32_t>(d)); };
  module.add_global(make_instruction(Op::OpDecorate, 0, 0, {id(array), decoration(spv::Decoration::ArrayStride), literal(4)}));
  module.add_global(make_instruction(Op::OpDecorate, 0, 0, {id(block), decoration(spv::Decoration::Block)}));
  module.add_global(make_instruction(Op::OpDecorate, 0, 0, {id(variable), decoration(spv::Decoration::DescriptorSet), literal(7)}));
  module.add_global(make_instruction(Op::OpDecorate, 0, 0, {id(variable), decoration(spv::Decoration::Binding), literal(0)}));
  module.add_global(make_instruction(Op::OpMemberDecorate, 0, 0,
                                     {id(block), literal(0), decoration(spv::Decoration::Offset), literal(0)}));
  // Before SPIR-V 1.3 the StorageBuffer class needs its extension, as the
  // runner's instrumentation adds it (runner/instrument.cpp).
  if (module.header.version < 0x00010300) {
    module.add_global(make_instruction(Op::OpExtension, 0, 0, {ir::string("SPV_KHR_storage_buffer_storage_class")}));
  }
  if (module.header.version >= 0x00010400) {
    ASSERT_TRUE(module.add_entry_point_interface(entry, variable));
  }

  for (ir::Function& function : module.functions) {
    if (function.id() != entry) continue;
    ir::Block& first = function.blocks.front();
    uint32_t pointer = module.allocate_id();
    auto at = first.instructions.begin() + static_cast<std::ptrdiff_t>(first.body_end());
    at = first.instructions.insert(at, make_instruction(Op::OpAccessChain, element_pointer, pointer,
                                                        {id(variable), id(zero), id(zero)}));
    first.instructions.insert(at + 1, make_instruction(Op::OpStore, 0, 0, {id(pointer), id(seven)}));
  }
}

TEST_P(RoundTrip, StaysValidWithADebugBufferAdded) {
  auto [fixture, compiled] = compile_fixture(GetParam());
  ASSERT_TRUE(compiled.ok) << GetParam();
  ir::DecodeError error;
  auto module = ir::decode(compiled.spirv, &error);
  ASSERT_TRUE(module) << error.message;
  add_debug_store(*module);
  std::vector<uint32_t> changed = ir::encode(*module);
  EXPECT_NE(changed, compiled.spirv);
  const spv_target_env env = to_spv_env(fixture.options.compile.target_env.value_or(kDefaultTargetEnv));
  for (const ValidationMessage& m : validate_spirv(changed, env)) {
    ADD_FAILURE() << "instruction " << m.instruction << ": " << m.message;
  }
}

INSTANTIATE_TEST_SUITE_P(Shaders, RoundTrip, ::testing::ValuesIn(corpus_shaders()),
                         [](const auto& info) { return shader_test_name(info.param); });

}  // namespace
}  // namespace klint::testing
