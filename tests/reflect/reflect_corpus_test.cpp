// klint reflect on every fixture and example, checked field by field against
// what klint's own analyses say about the same module.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "analyzer/barriers.h"
#include "analyzer/frontend.h"
#include "analyzer/workgroup_memory.h"
#include "driver/reflect_command.h"
#include "tests/support/fixture.h"
#include "validate/targets.h"

namespace klint::testing {
namespace {

class ReflectCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(ReflectCorpus, AgreesWithTheAnalyses) {
  auto [fixture, compiled] = compile_fixture(GetParam());
  ASSERT_TRUE(compiled.ok);
  ir::DecodeError error;
  auto ir = ir::decode(compiled.spirv, &error);
  ASSERT_TRUE(ir) << error.message;
  Module module(std::move(*ir), ModuleOrigin{GetParam(), {}});

  std::ostringstream out, err;
  std::vector<const Target*> targets = default_targets();
  ASSERT_EQ(run_reflect({GetParam()}, fixture.options.compile, targets, ReflectFormat::Json, out, err), 0) << err.str();
  nlohmann::json document = nlohmann::json::parse(out.str());
  ASSERT_EQ(document["files"].size(), 1u);
  const nlohmann::json& file = document["files"][0];
  EXPECT_EQ(file["path"], GetParam());

  std::vector<const EntryPoint*> compute;
  for (const EntryPoint& entry : module.entry_points()) {
    if (entry.model == spv::ExecutionModel::GLCompute) compute.push_back(&entry);
  }
  ASSERT_EQ(file["entry_points"].size(), compute.size());
  for (size_t i = 0; i < compute.size(); ++i) {
    const EntryPoint& entry = *compute[i];
    const nlohmann::json& reflected = file["entry_points"][i];
    EXPECT_EQ(reflected["name"], entry.name);
    ASSERT_TRUE(entry.workgroup_size);
    const char* axes[] = {"x", "y", "z"};
    for (size_t d = 0; d < 3; ++d) {
      const nlohmann::json& axis = reflected["workgroup_size"][axes[d]];
      EXPECT_EQ(axis["value"], (*entry.workgroup_size)[d].value) << axes[d];
      if ((*entry.workgroup_size)[d].spec_id) {
        EXPECT_EQ(axis["spec_id"], *(*entry.workgroup_size)[d].spec_id);
      }
    }
    // What the entry point's functions use: an array only declared takes nothing.
    EXPECT_EQ(reflected["workgroup_memory"]["total_bytes"], workgroup_memory(module, entry).referenced);

    uint32_t barriers = 0;
    for (const ir::Function& function : module.functions()) {
      for (const ir::Block& block : function.blocks) {
        for (const ir::Instruction& instruction : block.instructions) {
          std::optional<Barrier> barrier = barrier_of(module, instruction);
          if (barrier && may(barrier->waits_for_workgroup())) ++barriers;
        }
      }
    }
    EXPECT_EQ(reflected["barriers"]["workgroup"], barriers);

    std::set<std::pair<uint32_t, uint32_t>> slots;
    for (const nlohmann::json& binding : reflected["bindings"]) {
      EXPECT_TRUE(slots.emplace(binding["set"], binding["binding"]).second) << "set/binding reflected twice";
      EXPECT_TRUE(binding["access"] == "read" || binding["access"] == "write" || binding["access"] == "read-write" ||
                  binding["access"] == "none");
    }
    ASSERT_EQ(reflected["occupancy"].size(), targets.size());
    for (size_t t = 0; t < targets.size(); ++t) {
      const nlohmann::json& residency = reflected["occupancy"][t];
      EXPECT_EQ(residency["target"], targets[t]->name);
      bool fits = workgroup_memory(module, entry).referenced <= targets[t]->max_compute_shared_memory_size;
      if (!fits) {
        EXPECT_EQ(residency["fits"], false) << targets[t]->name;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shaders, ReflectCorpus, ::testing::ValuesIn(corpus_shaders()),
                         [](const auto& info) { return shader_test_name(info.param); });

}  // namespace
}  // namespace klint::testing
