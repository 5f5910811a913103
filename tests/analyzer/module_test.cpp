// The rules' view of a module: entry points, workgroup sizes, uses, locations.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analyzer/frontend.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

std::array<WorkgroupDimension, 3> size_of(const std::string& source) {
  auto module = module_from_glsl(source, /*normalized=*/false);
  if (!module || module->entry_points().size() != 1) {
    ADD_FAILURE() << "no single entry point";
    return {};
  }
  const EntryPoint& entry = module->entry_points().front();
  EXPECT_EQ(entry.model, spv::ExecutionModel::GLCompute);
  EXPECT_EQ(entry.name, "main");
  if (!entry.workgroup_size) {
    ADD_FAILURE() << "no workgroup size";
    return {};
  }
  return *entry.workgroup_size;
}

TEST(ModuleWorkgroupSize, LiteralLocalSize) {
  auto size = size_of("#version 450\nlayout(local_size_x = 16, local_size_y = 8) in;\nvoid main() {}\n");
  EXPECT_EQ(size, (std::array<WorkgroupDimension, 3>{{{16, {}}, {8, {}}, {1, {}}}}));
}

TEST(ModuleWorkgroupSize, LocalSizeIdWhenTheShaderReadsGlWorkGroupSize) {
  // glslang writes OpExecutionModeId LocalSizeId for SPIR-V 1.6 modules.
  auto size = size_of("#version 450\nlayout(local_size_x = 64) in;\nshared uint s[64];\n"
                      "void main() { s[gl_LocalInvocationID.x] = gl_WorkGroupSize.x; }\n");
  EXPECT_EQ(size[0].value, 64u);
  EXPECT_EQ(size[1].value, 1u);
}

TEST(ModuleWorkgroupSize, SpecializationConstantsGiveTheirIdAndDefault) {
  auto size = size_of("#version 450\nlayout(local_size_x_id = 3, local_size_y = 2) in;\n"
                      "layout(constant_id = 3) const uint WG = 128;\nvoid main() {}\n");
  EXPECT_EQ(size[0].value, 128u);
  EXPECT_EQ(size[0].spec_id, 3u);
  EXPECT_EQ(size[1], (WorkgroupDimension{2, {}}));
}

TEST(ModuleUses, ListsEveryReader) {
  auto module = module_from_glsl("#version 450\nlayout(local_size_x = 8) in;\nshared uint s[8];\n"
                                 "void main() { s[gl_LocalInvocationID.x] = 1u; s[0] = s[1]; }\n");
  ASSERT_TRUE(module);
  uint32_t shared = 0;
  for (const ir::Instruction& i : module->ir().globals) {
    if (i.opcode() == spv::Op::OpVariable && module->name(i.result_id()) == "s") shared = i.result_id();
  }
  ASSERT_NE(shared, 0u);
  size_t access_chains = 0;
  for (const ir::Instruction* use : module->uses(shared)) access_chains += use->opcode() == spv::Op::OpAccessChain;
  EXPECT_EQ(access_chains, 3u);
  EXPECT_TRUE(module->uses(999999).empty());
}

TEST(ModuleLocations, LinesAndDeclarations) {
  auto module = module_from_glsl("#version 450\nlayout(local_size_x = 8) in;\n\nshared float tile[8];\n"
                                 "void main() {\n  tile[gl_LocalInvocationID.x] = 1.0;\n  barrier();\n}\n");
  ASSERT_TRUE(module);
  uint32_t tile = 0;
  for (const ir::Instruction& i : module->ir().globals) {
    if (i.opcode() == spv::Op::OpVariable && module->name(i.result_id()) == "tile") tile = i.result_id();
  }
  EXPECT_EQ(module->declaration(tile).line, 4u);
  for (const ir::Block& block : module->functions().front().blocks) {
    for (const ir::Instruction& i : block.instructions) {
      if (i.opcode() == spv::Op::OpControlBarrier) {
        EXPECT_EQ(module->location(i).line, 7u);
        EXPECT_EQ(module->location(i).file, "test.comp");
      }
    }
  }
}

TEST(ModuleLocations, WithoutLineInfoTheExcerptIsTheInstruction) {
  SourceCache sources;
  CompiledShader compiled = compile("a.spvasm", R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 4 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_2 = OpConstant %uint 2
%uint_264 = OpConstant %uint 264
%main = OpFunction %void None %fn
%entry = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_264
OpReturn
OpFunctionEnd
)", Language::SpirvAssembly, CompileOptions{}, sources);
  ASSERT_TRUE(compiled.ok);
  ir::DecodeError error;
  auto ir = ir::decode(compiled.spirv, &error);
  ASSERT_TRUE(ir);
  Module module(std::move(*ir), ModuleOrigin{"a.spv", {}});
  const ir::Instruction& barrier = module.functions().front().blocks.front().instructions.front();
  Location location = module.location(barrier);
  EXPECT_EQ(location.line, 0u);
  EXPECT_EQ(location.excerpt, "OpControlBarrier %uint_2 %uint_2 %uint_264");
  EXPECT_EQ(module.entry_points().front().workgroup_size->at(0).value, 4u);
}

TEST(ModuleLocations, DeclarationsAreFoundInTheMainFileAndInIncludes) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "klint-module-includes";
  fs::create_directories(dir);
  std::ofstream(dir / "tiles.glsl") << "// tiles\nshared float included_tile[64];\n";
  std::string main = "#version 450\nlayout(local_size_x = 64) in;\n#include \"tiles.glsl\"\n"
                     "shared float main_tile[64];\n"
                     "void main() { main_tile[gl_LocalInvocationID.x] = included_tile[0]; }\n";
  std::string path = (dir / "main.comp").string();
  SourceCache sources;
  CompiledShader compiled = compile(path, main, Language::Glsl, CompileOptions{}, sources);
  ASSERT_TRUE(compiled.ok);
  ir::DecodeError error;
  auto ir = ir::decode(compiled.spirv, &error);
  ASSERT_TRUE(ir);
  Module module(std::move(*ir), ModuleOrigin{path, {}});
  auto variable = [&](const std::string& name) {
    for (const ir::Instruction& i : module.ir().globals) {
      if (i.opcode() == spv::Op::OpVariable && module.name(i.result_id()) == name) return i.result_id();
    }
    return 0u;
  };
  Location in_main = module.declaration(variable("main_tile"));
  EXPECT_EQ(in_main.file, path);
  EXPECT_EQ(in_main.line, 4u);
  Location in_include = module.declaration(variable("included_tile"));
  EXPECT_NE(in_include.file.find("tiles.glsl"), std::string::npos) << in_include.file;
  EXPECT_EQ(in_include.line, 2u);
  auto layout = module.source_line("local_size_x");
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->file, path);
  EXPECT_EQ(layout->line, 2u);
  // The text of a declaration's line, in the main file and in an include.
  EXPECT_EQ(module.source_line_text(in_main), "shared float main_tile[64];");
  EXPECT_EQ(module.source_line_text(in_include), "shared float included_tile[64];");
  EXPECT_EQ(module.source_line_text(Location{path, 99}), std::nullopt);
}

}  // namespace
}  // namespace klint::testing
