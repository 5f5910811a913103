#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "analyzer/ir/module.h"

namespace klint::ir {
namespace {

// Everything the decoder has to sort: debug info, decorations, spec constants,
// a loop with phis, a switch, an extended instruction, a call.
constexpr const char* kEverything = R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 64 1 1
%file = OpString "shader.comp"
OpSource GLSL 450 %file "#version 450
layout(local_size_x = 64) in;
void main() {}
"
OpSourceExtension "GL_EXT_example"
OpName %main "main"
OpName %helper "helper"
OpMemberName %Buf 0 "data"
OpModuleProcessed "client vulkan100"
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %spec SpecId 0
%void = OpTypeVoid
%voidfn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%bool = OpTypeBool
%v3uint = OpTypeVector %uint 3
%ptr_in_v3 = OpTypePointer Input %v3uint
%gid = OpVariable %ptr_in_v3 Input
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%ptr_buf = OpTypePointer StorageBuffer %Buf
%buf = OpVariable %ptr_buf StorageBuffer
%ptr_uint = OpTypePointer StorageBuffer %uint
%uintfn = OpTypeFunction %uint %uint
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%spec = OpSpecConstant %uint 8
%spec_op = OpSpecConstantOp %uint IAdd %spec %uint_1
%spec_true = OpSpecConstantTrue %bool
%helper = OpFunction %uint None %uintfn
%x = OpFunctionParameter %uint
%h0 = OpLabel
OpLine %file 10 3
%xf = OpConvertUToF %float %x
%sq = OpExtInst %float %glsl Sqrt %xf
%r = OpConvertFToU %uint %sq
OpReturnValue %r
OpFunctionEnd
%main = OpFunction %void None %voidfn
%entry = OpLabel
OpLine %file 20 1
%id3 = OpLoad %v3uint %gid
%id = OpCompositeExtract %uint %id3 0
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %continue
%acc = OpPhi %uint %uint_0 %entry %acc2 %continue
%cond = OpULessThan %bool %i %spec_op
OpLoopMerge %merge %continue None
OpBranchConditional %cond %body %merge
%body = OpLabel
%sel = OpBitwiseAnd %uint %i %uint_1
OpSelectionMerge %sw_merge None
OpSwitch %sel %default 0 %case0 1 %case1
%case0 = OpLabel
%c = OpFunctionCall %uint %helper %i
OpBranch %sw_merge
%case1 = OpLabel
OpBranch %sw_merge
%default = OpLabel
OpBranch %sw_merge
%sw_merge = OpLabel
%val = OpPhi %uint %c %case0 %uint_1 %case1 %uint_0 %default
%acc2 = OpIAdd %uint %acc %val
OpBranch %continue
%continue = OpLabel
%next = OpIAdd %uint %i %uint_1
OpBranch %header
%merge = OpLabel
OpNoLine
%ptr = OpAccessChain %ptr_uint %buf %uint_0 %id
OpStore %ptr %acc
OpReturn
OpFunctionEnd
)";

// Non-semantic instructions and debug lines after the last function, the only
// things allowed there; decoration groups; OpSourceContinued.
constexpr const char* kNonSemantic = R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%ns = OpExtInstImport "NonSemantic.Klint.Test"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %counter
OpExecutionMode %main LocalSize 8 8 1
%name = OpString "a long source file name that spans several words.comp"
OpSource HLSL 600 %name "line one"
OpSourceContinued "line two"
OpName %counter "counter"
OpDecorate %group Restrict
%group = OpDecorationGroup
OpGroupDecorate %group %counter
%void = OpTypeVoid
%voidfn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_2 = OpConstant %uint 2
%ptr_wg_uint = OpTypePointer Workgroup %uint
%counter = OpVariable %ptr_wg_uint Workgroup
%undef = OpUndef %uint
%note = OpExtInst %void %ns 1 %uint_0
%main = OpFunction %void None %voidfn
%e = OpLabel
%n = OpExtInst %void %ns 2 %counter
OpControlBarrier %uint_2 %uint_2 %uint_0
%old = OpAtomicIIncrement %uint %counter %uint_2 %uint_0
OpReturn
OpFunctionEnd
%t = OpExtInst %void %ns 3 %main
OpLine %name 1 1
OpNoLine
)";

// A compute shader without buffers, for the mutation tests. Its first block
// ends in a selection merge, which new code must not separate from its branch.
constexpr const char* kPlainCompute = R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 64 1 1
OpSource GLSL 450
OpName %main "main"
OpDecorate %gid BuiltIn GlobalInvocationId
%void = OpTypeVoid
%voidfn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%v3uint = OpTypeVector %uint 3
%ptr_in_v3 = OpTypePointer Input %v3uint
%gid = OpVariable %ptr_in_v3 Input
%uint_0 = OpConstant %uint 0
%uint_16 = OpConstant %uint 16
%main = OpFunction %void None %voidfn
%entry = OpLabel
%id3 = OpLoad %v3uint %gid
%id = OpCompositeExtract %uint %id3 0
%small = OpULessThan %bool %id %uint_16
OpSelectionMerge %end None
OpBranchConditional %small %then %end
%then = OpLabel
OpBranch %end
%end = OpLabel
OpReturn
OpFunctionEnd
)";

std::vector<uint32_t> assemble(const std::string& text, spv_target_env env = SPV_ENV_VULKAN_1_1) {
  spvtools::SpirvTools tools(env);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& position,
                               const char* message) {
    messages += std::to_string(position.line) + ": " + message + "\n";
  });
  std::vector<uint32_t> binary;
  EXPECT_TRUE(tools.Assemble(text, &binary)) << messages;
  return binary;
}

struct ValidatorMessage {
  size_t index = 0;
  std::string text;
};

std::vector<ValidatorMessage> validate(const std::vector<uint32_t>& words, spv_target_env env) {
  spvtools::SpirvTools tools(env);
  std::vector<ValidatorMessage> messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& position,
                               const char* message) { messages.push_back({position.index, message}); });
  if (tools.Validate(words)) return {};
  if (messages.empty()) messages.push_back({0, "invalid, no message"});
  return messages;
}

std::string joined(const std::vector<ValidatorMessage>& messages) {
  std::string text;
  for (const ValidatorMessage& m : messages) text += m.text + "\n";
  return text;
}

Module decode_or_fail(const std::vector<uint32_t>& words) {
  DecodeError error;
  std::optional<Module> module = decode(words, &error);
  EXPECT_TRUE(module) << error.message << " at word " << error.word_offset;
  return module ? std::move(*module) : Module{};
}

const Instruction* find_op(const Module& module, spv::Op opcode) {
  const Instruction* found = nullptr;
  module.for_each_instruction([&](const Instruction& i) {
    if (!found && i.opcode() == opcode) found = &i;
  });
  return found;
}

TEST(IrRoundTrip, EveryModuleReencodesBitForBit) {
  const std::vector<std::pair<const char*, spv_target_env>> cases = {
      {kEverything, SPV_ENV_VULKAN_1_1},
      {kEverything, SPV_ENV_UNIVERSAL_1_6},
      {kNonSemantic, SPV_ENV_VULKAN_1_2},
      {kPlainCompute, SPV_ENV_VULKAN_1_0},
  };
  for (const auto& [text, env] : cases) {
    const std::vector<uint32_t> words = assemble(text, env);
    EXPECT_EQ(encode(decode_or_fail(words)), words) << text;
  }
}

TEST(IrRoundTrip, ByteSwappedInputDecodes) {
  const std::vector<uint32_t> words = assemble(kEverything);
  std::string bytes(words.size() * 4, '\0');
  for (size_t i = 0; i < words.size(); ++i) {
    const uint32_t swapped = __builtin_bswap32(words[i]);
    std::memcpy(&bytes[i * 4], &swapped, 4);
  }
  DecodeError error;
  std::optional<Module> module = decode_bytes(bytes, &error);
  ASSERT_TRUE(module) << error.message;
  EXPECT_EQ(encode(*module), words);

  std::string native(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  module = decode_bytes(native, &error);
  ASSERT_TRUE(module) << error.message;
  EXPECT_EQ(encode(*module), words);
}

TEST(IrDecode, SortsInstructionsIntoFunctionsAndBlocks) {
  const Module module = decode_or_fail(assemble(kEverything));
  ASSERT_EQ(module.functions.size(), 2u);
  EXPECT_EQ(module.globals.front().opcode(), spv::Op::OpCapability);
  EXPECT_EQ(module.globals.back().opcode(), spv::Op::OpSpecConstantTrue);

  const Function& helper = module.functions[0];
  ASSERT_EQ(helper.prelude.size(), 1u);
  EXPECT_EQ(helper.prelude[0].opcode(), spv::Op::OpFunctionParameter);
  ASSERT_EQ(helper.blocks.size(), 1u);
  EXPECT_EQ(helper.blocks[0].instructions.front().opcode(), spv::Op::OpLine);
  EXPECT_TRUE(helper.blocks[0].instructions.front().is_debug_line());
  EXPECT_EQ(helper.blocks[0].terminator().opcode(), spv::Op::OpReturnValue);
  EXPECT_EQ(helper.blocks[0].merge(), nullptr);
  EXPECT_EQ(helper.end.opcode(), spv::Op::OpFunctionEnd);

  const Function& main = module.functions[1];
  ASSERT_EQ(main.blocks.size(), 9u);
  const Block& header = main.blocks[1];
  ASSERT_NE(header.merge(), nullptr);
  EXPECT_EQ(header.merge()->opcode(), spv::Op::OpLoopMerge);
  EXPECT_EQ(header.terminator().opcode(), spv::Op::OpBranchConditional);
  EXPECT_EQ(header.body_end(), 3u);  // phi, phi, compare | merge, branch
  // A phi reads (value, parent) pairs; a branch reads its condition and labels.
  const Instruction& phi = header.instructions[0];
  EXPECT_EQ(phi.input_ids().size(), 4u);
  EXPECT_EQ(phi.input_ids()[1], main.blocks[0].id());
  EXPECT_EQ(header.terminator().input_ids(),
            (std::vector<uint32_t>{header.instructions[2].result_id(), main.blocks[2].id(), main.blocks[8].id()}));
  // The last block's OpNoLine is a debug line; its terminator is OpReturn.
  EXPECT_EQ(main.blocks[8].terminator().opcode(), spv::Op::OpReturn);
  EXPECT_EQ(main.blocks[8].body_end(), main.blocks[8].instructions.size() - 1);
}

TEST(IrDecode, InstructionAccessors) {
  const Module module = decode_or_fail(assemble(kEverything));
  const Instruction* source = find_op(module, spv::Op::OpSource);
  ASSERT_NE(source, nullptr);
  // OpSource: language, version, file, text.
  EXPECT_EQ(source->string(3), "#version 450\nlayout(local_size_x = 64) in;\nvoid main() {}\n");
  const Instruction* name = find_op(module, spv::Op::OpName);
  EXPECT_EQ(name->string(1), "main");
  const Instruction* ext = find_op(module, spv::Op::OpExtInst);
  ASSERT_NE(ext, nullptr);
  EXPECT_EQ(ext->ext_inst_type(), SPV_EXT_INST_TYPE_GLSL_STD_450);
  EXPECT_NE(ext->type_id(), 0u);
  EXPECT_NE(ext->result_id(), 0u);
  EXPECT_FALSE(ext->is_debug_line());
  const Instruction* store = find_op(module, spv::Op::OpStore);
  EXPECT_EQ(store->type_id(), 0u);
  EXPECT_EQ(store->result_id(), 0u);
  EXPECT_EQ(store->input_ids().size(), 2u);
  EXPECT_TRUE(is_id_type(SPV_OPERAND_TYPE_SCOPE_ID));
  EXPECT_TRUE(is_id_type(SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID));
  EXPECT_FALSE(is_id_type(SPV_OPERAND_TYPE_LITERAL_INTEGER));
}

TEST(IrDecode, KeepsWhatFollowsTheLastFunction) {
  const Module module = decode_or_fail(assemble(kNonSemantic, SPV_ENV_VULKAN_1_2));
  ASSERT_EQ(module.functions.size(), 1u);
  const std::vector<Instruction>& trailing = module.functions[0].trailing;
  ASSERT_EQ(trailing.size(), 3u);
  EXPECT_EQ(trailing[0].opcode(), spv::Op::OpExtInst);
  EXPECT_EQ(trailing[0].ext_inst_type(), SPV_EXT_INST_TYPE_NONSEMANTIC_UNKNOWN);
  EXPECT_EQ(trailing[1].opcode(), spv::Op::OpLine);
  EXPECT_EQ(trailing[2].opcode(), spv::Op::OpNoLine);
  EXPECT_EQ(find_op(module, spv::Op::OpString)->string(1),
            "a long source file name that spans several words.comp");
}

DecodeError expect_error(const std::vector<uint32_t>& words) {
  DecodeError error;
  EXPECT_FALSE(decode(words, &error));
  EXPECT_FALSE(error.message.empty());
  return error;
}

TEST(IrDecodeError, EmptyShortAndForeignInput) {
  EXPECT_EQ(expect_error({}).message, "empty input");
  EXPECT_EQ(expect_error({0x07230203, 0x00010300, 0}).message, "truncated: the header needs 5 words, got 3");
  EXPECT_EQ(expect_error({0xDEADBEEF, 0, 0, 1, 0}).message, "not a SPIR-V binary: bad magic number 0xdeadbeef");

  DecodeError error;
  EXPECT_FALSE(decode_bytes("", &error));
  EXPECT_EQ(error.message, "empty input");
  EXPECT_FALSE(decode_bytes(std::string(17, 'x'), &error));
  EXPECT_EQ(error.message, "truncated: 17 bytes is not a multiple of 4");
  EXPECT_FALSE(decode_bytes("\x7f" "ELF", &error));
  EXPECT_EQ(error.message.rfind("not a SPIR-V binary: bad magic number 0x", 0), 0u) << error.message;
}

TEST(IrDecodeError, InstructionRunsPastTheEnd) {
  std::vector<uint32_t> words = assemble(kPlainCompute);
  const size_t end = words.size();
  words.push_back((4u << 16) | static_cast<uint32_t>(spv::Op::OpIAdd));
  words.push_back(1);
  const DecodeError error = expect_error(words);
  EXPECT_EQ(error.message, "truncated: OpIAdd at word " + std::to_string(end) + " has 4 words, only 2 remain");
  EXPECT_EQ(error.word_offset, end);
}

TEST(IrDecodeError, ParserDiagnosticsPassThrough) {
  std::vector<uint32_t> words = assemble(kPlainCompute);
  const size_t end = words.size();
  words.push_back(0);  // word count 0
  DecodeError error = expect_error(words);
  EXPECT_NE(error.message.find("word count"), std::string::npos) << error.message;
  EXPECT_EQ(error.word_offset, end);

  words.back() = (1u << 16) | 0xFFFFu;
  error = expect_error(words);
  EXPECT_NE(error.message.find("Invalid opcode"), std::string::npos) << error.message;
  EXPECT_EQ(error.word_offset, end);
}

TEST(IrDecodeError, NoPrefixOrCorruptedWordCrashes) {
  // Whatever decodes must round-trip; whatever does not must say why.
  auto check = [](const std::vector<uint32_t>& input) {
    DecodeError error;
    if (std::optional<Module> module = decode(input, &error)) {
      EXPECT_EQ(encode(*module), input);
    } else {
      EXPECT_FALSE(error.message.empty());
      EXPECT_LE(error.word_offset, input.size());
    }
  };
  const std::vector<uint32_t> words = assemble(kEverything);
  for (size_t size = 0; size < words.size(); ++size) {
    check(std::vector<uint32_t>(words.begin(), words.begin() + size));
  }
  for (size_t at = 5; at < words.size(); ++at) {
    for (uint32_t garbage : {0u, 0xFFFFFFFFu, words[at] ^ 0x00010000u, words[at] + 1}) {
      std::vector<uint32_t> corrupt = words;
      corrupt[at] = garbage;
      check(corrupt);
    }
  }
}

constexpr const char* kTypes = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%voidfn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
)";

TEST(IrDecodeError, StructureErrors) {
  const std::string types = kTypes;
  const std::string fn = "%f = OpFunction %void None %voidfn\n";
  const std::pair<std::string, std::string> cases[] = {
      {types + "%l = OpLabel\nOpReturn\n", "OpLabel %5 outside a function"},
      {types + fn + "%g = OpFunction %void None %voidfn\n", "OpFunction %6 inside function %5"},
      {types + fn + "%l = OpLabel\nOpReturn\n", "missing OpFunctionEnd for function %5"},
      {types + "OpFunctionEnd\n", "OpFunctionEnd outside a function"},
      {types + fn + "%l = OpLabel\nOpReturn\nOpFunctionEnd\n%x = OpIAdd %uint %uint_1 %uint_1\n",
       "OpIAdd after OpFunctionEnd of function %5"},
  };
  for (const auto& [text, message] : cases) {
    EXPECT_EQ(expect_error(assemble(text)).message, message) << text;
  }
}

TEST(IrDecodeError, OffsetPointsAtTheOffendingInstruction) {
  const std::vector<uint32_t> words = assemble(std::string(kTypes) + "%l = OpLabel\n");
  // Header 5, capability 2, memory model 3, void 2, function type 3, int 4, constant 4.
  EXPECT_EQ(expect_error(words).word_offset, 23u);
}

TEST(IrMakeInstruction, PacksWordsAndOperands) {
  const Instruction name = make_instruction(spv::Op::OpName, 0, 0, {id(7), string("main")});
  // "main" and its terminating zero need two words.
  EXPECT_EQ(std::vector<uint32_t>(name.words().begin(), name.words().end()),
            (std::vector<uint32_t>{(4u << 16) | 5u, 7, 0x6E69616D, 0}));
  ASSERT_EQ(name.operands().size(), 2u);
  EXPECT_EQ(name.operands()[1].type, SPV_OPERAND_TYPE_LITERAL_STRING);
  EXPECT_EQ(name.operands()[1].num_words, 2u);
  EXPECT_EQ(name.string(1), "main");

  const Instruction add = make_instruction(spv::Op::OpIAdd, 3, 9, {id(4), id(5)});
  EXPECT_EQ(add.words().size(), 5u);
  EXPECT_EQ(add.words()[0] >> 16, 5u);
  EXPECT_EQ(add.type_id(), 3u);
  EXPECT_EQ(add.result_id(), 9u);
  EXPECT_EQ(add.input_ids(), (std::vector<uint32_t>{4, 5}));
  EXPECT_EQ(add.operands()[0].type, SPV_OPERAND_TYPE_TYPE_ID);
  EXPECT_EQ(add.operands()[1].type, SPV_OPERAND_TYPE_RESULT_ID);

  const Instruction decorate = make_instruction(spv::Op::OpDecorate, 0, 0,
                                                {id(2), literal(uint32_t(spv::Decoration::Binding)), literal(3)});
  EXPECT_EQ(decorate.operands()[2].type, SPV_OPERAND_TYPE_LITERAL_INTEGER);
  EXPECT_EQ(decorate.word(2), 3u);

  const Instruction source = make_instruction(spv::Op::OpSourceExtension, 0, 0, {string("abc")});
  EXPECT_EQ(source.words().size(), 2u);
  EXPECT_EQ(source.string(0), "abc");
}

TEST(IrMutation, AddGlobalKeepsTheLogicalLayout) {
  Module module = decode_or_fail(assemble(kPlainCompute));
  module.add_global(make_instruction(spv::Op::OpExtension, 0, 0, {string("SPV_KHR_storage_buffer_storage_class")}));
  module.add_global(make_instruction(spv::Op::OpCapability, 0, 0, {literal(uint32_t(spv::Capability::Int64))}));
  module.add_global(make_instruction(spv::Op::OpName, 0, 0, {id(1), string("x")}));
  module.add_global(make_instruction(spv::Op::OpModuleProcessed, 0, 0, {string("klint")}));
  module.add_global(make_instruction(spv::Op::OpDecorate, 0, 0, {id(1), literal(uint32_t(spv::Decoration::Restrict))}));
  const uint32_t type = module.allocate_id();
  module.add_global(make_instruction(spv::Op::OpTypeFloat, 0, type, {literal(32)}));

  std::vector<spv::Op> order;
  for (const Instruction& i : module.globals) order.push_back(i.opcode());
  using enum spv::Op;
  const std::vector<spv::Op> expected = {
      OpCapability, OpCapability, OpExtension, OpExtInstImport, OpMemoryModel, OpEntryPoint,
      OpExecutionMode, OpSource, OpName, OpName, OpModuleProcessed, OpDecorate, OpDecorate,
      OpTypeVoid, OpTypeFunction, OpTypeInt, OpTypeBool, OpTypeVector, OpTypePointer,
      OpVariable, OpConstant, OpConstant, OpTypeFloat};
  EXPECT_EQ(order, expected);
  EXPECT_EQ(module.globals[1].word(0), uint32_t(spv::Capability::Int64));
  EXPECT_EQ(module.globals[9].string(1), "x");
}

// What a runner does to observe a kernel: bind one more storage buffer and
// store a constant into it at the end of main's first block.
uint32_t add_probe_buffer(Module& module) {
  using enum spv::Op;
  const uint32_t storage_buffer = uint32_t(spv::StorageClass::StorageBuffer);
  const uint32_t uint_type = module.find_or_add_global(OpTypeInt, 0, {literal(32), literal(0)});
  const uint32_t array = module.allocate_id();
  module.add_global(make_instruction(OpTypeRuntimeArray, 0, array, {id(uint_type)}));
  const uint32_t block = module.allocate_id();
  module.add_global(make_instruction(OpTypeStruct, 0, block, {id(array)}));
  const uint32_t block_pointer = module.find_or_add_global(OpTypePointer, 0, {literal(storage_buffer), id(block)});
  const uint32_t variable = module.allocate_id();
  module.add_global(make_instruction(OpVariable, block_pointer, variable, {literal(storage_buffer)}));
  module.add_global(make_instruction(OpName, 0, 0, {id(variable), string("klint_probe")}));
  module.add_global(make_instruction(OpDecorate, 0, 0, {id(array), literal(uint32_t(spv::Decoration::ArrayStride)), literal(4)}));
  module.add_global(make_instruction(OpMemberDecorate, 0, 0, {id(block), literal(0), literal(uint32_t(spv::Decoration::Offset)), literal(0)}));
  module.add_global(make_instruction(OpDecorate, 0, 0, {id(block), literal(uint32_t(spv::Decoration::Block))}));
  module.add_global(make_instruction(OpDecorate, 0, 0, {id(variable), literal(uint32_t(spv::Decoration::DescriptorSet)), literal(7)}));
  module.add_global(make_instruction(OpDecorate, 0, 0, {id(variable), literal(uint32_t(spv::Decoration::Binding)), literal(0)}));

  const uint32_t element_pointer = module.find_or_add_global(OpTypePointer, 0, {literal(storage_buffer), id(uint_type)});
  const uint32_t zero = module.find_or_add_global(OpConstant, uint_type, {literal(0)});
  const uint32_t answer = module.find_or_add_global(OpConstant, uint_type, {literal(42)});
  const uint32_t element = module.allocate_id();
  Block& first = module.functions[0].blocks[0];
  first.instructions.insert(
      first.instructions.begin() + first.body_end(),
      {make_instruction(OpAccessChain, element_pointer, element, {id(variable), id(zero), id(zero)}),
       make_instruction(OpStore, 0, 0, {id(element), id(answer)})});
  return variable;
}

TEST(IrMutation, AddedStorageBufferValidatesForVulkan11) {
  const std::vector<uint32_t> original = assemble(kPlainCompute, SPV_ENV_VULKAN_1_1);
  Module module = decode_or_fail(original);
  const uint32_t bound = module.header.bound;
  const size_t types = module.globals.size();
  add_probe_buffer(module);
  // Reused: the uint type and the constant 0. New: array, struct, two
  // pointers, variable, access chain result, constant 42.
  EXPECT_EQ(module.header.bound, bound + 7);
  EXPECT_EQ(module.globals.size(), types + 12);

  const Block& first = module.functions[0].blocks[0];
  EXPECT_EQ(first.instructions[first.instructions.size() - 3].opcode(), spv::Op::OpStore);
  EXPECT_EQ(first.merge()->opcode(), spv::Op::OpSelectionMerge);

  const std::vector<uint32_t> mutated = encode(module);
  EXPECT_EQ(validate(mutated, SPV_ENV_VULKAN_1_1).size(), 0u) << joined(validate(mutated, SPV_ENV_VULKAN_1_1));
  EXPECT_EQ(encode(decode_or_fail(mutated)), mutated);
}

TEST(IrMutation, AddedStorageBufferJoinsTheInterfaceFromSpirv14) {
  Module module = decode_or_fail(assemble(kPlainCompute, SPV_ENV_VULKAN_1_2));
  ASSERT_EQ(module.header.version, 0x00010500u);
  const uint32_t variable = add_probe_buffer(module);
  // SPIR-V 1.4 made the interface list every global the entry point uses.
  EXPECT_NE(validate(encode(module), SPV_ENV_VULKAN_1_2).size(), 0u);

  const uint32_t main = module.functions[0].id();
  EXPECT_TRUE(module.add_entry_point_interface(main, variable));
  EXPECT_TRUE(module.add_entry_point_interface(main, variable));  // already listed: unchanged
  EXPECT_FALSE(module.add_entry_point_interface(variable, variable));
  const Instruction* entry = find_op(module, spv::Op::OpEntryPoint);
  EXPECT_EQ(entry->words()[0] >> 16, entry->words().size());
  EXPECT_EQ(entry->input_ids().back(), variable);
  EXPECT_EQ(entry->operands().back().type, SPV_OPERAND_TYPE_ID);
  EXPECT_EQ(entry->string(2), "main");

  const std::vector<uint32_t> mutated = encode(module);
  EXPECT_EQ(validate(mutated, SPV_ENV_VULKAN_1_2).size(), 0u) << joined(validate(mutated, SPV_ENV_VULKAN_1_2));
}

// The validator's spv_position_t::index, for a message about an instruction,
// is that instruction's 1-based ordinal in for_each_instruction order.
TEST(IrOrdinal, MatchesValidatorPositionIndex) {
  const std::string header = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.comp"
OpName %main "main"
%void = OpTypeVoid
%voidfn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_1 = OpConstant %float 1
)";
  const std::string helper = R"(
%helper = OpFunction %void None %voidfn
%h = OpLabel
OpLine %file 3 1
OpReturn
OpFunctionEnd
)";
  const std::string main_with = R"(
%main = OpFunction %void None %voidfn
%entry = OpLabel
OpLine %file 7 1
%sum = OpIAdd %uint %uint_1 %uint_1
OpLine %file 8 1
%bad = OpIAdd %uint %uint_1 %float_1
OpReturn
OpFunctionEnd
)";
  struct Case {
    std::string text;
    spv::Op culprit;
    size_t occurrence;  // which instruction with that opcode
  };
  const Case cases[] = {
      {header + helper + main_with, spv::Op::OpIAdd, 2},
      {header + "%bad_vector = OpTypeVector %uint 1\n" + helper + main_with, spv::Op::OpTypeVector, 1},
  };
  for (const Case& c : cases) {
    const std::vector<uint32_t> words = assemble(c.text, SPV_ENV_VULKAN_1_1);
    const Module module = decode_or_fail(words);
    size_t ordinal = 0, seen = 0, expected = 0;
    module.for_each_instruction([&](const Instruction& i) {
      ++ordinal;
      if (i.opcode() == c.culprit && ++seen == c.occurrence) expected = ordinal;
    });
    const std::vector<ValidatorMessage> messages = validate(words, SPV_ENV_VULKAN_1_1);
    ASSERT_EQ(messages.size(), 1u) << joined(messages);
    EXPECT_EQ(messages[0].index, expected) << messages[0].text;
  }
}

}  // namespace
}  // namespace klint::ir
