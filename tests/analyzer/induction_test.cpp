// Counting induction variables (SymbolicValues::induction with counts()),
// probed per loop of main in the order of their headers: what each starts at
// and steps by.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyzer/loops.h"
#include "analyzer/ssa.h"
#include "analyzer/symbolic.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

// "init+step" per induction variable, values as constants or as the opcode
// that computes them; loops separated by "|".
std::string probe(const std::string& body) {
  std::string source = "#version 450\nlayout(local_size_x = 64) in;\n"
                       "layout(binding = 0) buffer Data { uint data[]; };\n"
                       "layout(push_constant) uniform P { uint n; };\n"
                       "void main() {\n" + body + "\n}\n";
  auto module = module_from_glsl(source);
  if (!module) return "no module";
  auto describe = [&](uint32_t id) -> std::string {
    const ir::Instruction* definition = module->def(id);
    if (definition && definition->opcode() == spv::Op::OpConstant) return std::to_string(*module->constant_value(id));
    return definition ? std::string(spvOpcodeString(static_cast<uint32_t>(definition->opcode()))) : "?";
  };
  std::string out;
  for (const ir::Function& function : module->functions()) {
    std::vector<Loop> loops = module->loops(function);
    std::sort(loops.begin(), loops.end(), [](const Loop& a, const Loop& b) { return a.header < b.header; });
    const SymbolicValues& values = module->symbolic(function);
    for (const Loop& loop : loops) {
      if (!out.empty()) out += "|";
      std::vector<std::string> variables;
      for (const ir::Instruction& phi : function.blocks[loop.header].instructions) {
        const Induction* variable = phi.opcode() == spv::Op::OpPhi ? values.induction(phi.result_id()) : nullptr;
        if (!variable || !variable->counts()) continue;
        EXPECT_EQ(module->def(variable->update)->opcode(), spv::Op::OpIAdd);
        variables.push_back(describe(copied_value(*module, variable->initial)) + "+" + describe(variable->step_value));
      }
      for (size_t i = 0; i < variables.size(); ++i) out += (i ? "," : "") + variables[i];
    }
  }
  return out;
}

TEST(Induction, CountingLoops) {
  EXPECT_EQ(probe("for (uint i = 3; i < n; i += 4) data[i] = 0;"), "3+4");
  EXPECT_EQ(probe("for (int i = 0; i < 8; ++i) data[i] = 0;"), "0+1");
  EXPECT_EQ(probe("uint i = 5; while (i < n) { data[i] = 0; i = 2u + i; }"), "5+2");
}

TEST(Induction, StartsAndStepsMayBeComputed) {
  EXPECT_EQ(probe("for (uint i = gl_LocalInvocationID.x; i < 1000; i += n) data[i] = 0;"), "Load+Load");
  EXPECT_EQ(probe("for (uint i = gl_GlobalInvocationID.x; i < 1000; i += gl_NumWorkGroups.x * 64u) data[i] = 0;"),
            "Load+IMul");
}

TEST(Induction, ContinueStillStepsOnce) {
  EXPECT_EQ(probe("for (uint i = 0; i < n; i += 2) { if (data[i] == 0) continue; data[i] = 1; }"), "0+2");
}

TEST(Induction, NestedLoopsEachHaveTheirOwn) {
  EXPECT_EQ(probe("for (uint i = 0; i < n; i += 2) for (uint j = i; j < n; j += 3) data[j] = i;"), "0+2|Phi+3");
}

TEST(Induction, TwoVariablesInOneLoop) {
  EXPECT_EQ(probe("uint j = 7; for (uint i = 0; i < n; ++i) { data[j] = i; j += 8; }"), "7+8,0+1");
}

TEST(Induction, NotInductionVariables) {
  // The step changes from one iteration to the next.
  EXPECT_EQ(probe("for (uint i = 0; i < n; i += data[i]) data[i] = 0;"), "");
  // Two different updates.
  EXPECT_EQ(probe("uint i = 0; while (i < n) { if (data[i] == 0) i += 1; else i += 2; }"), "");
  // Not an addition.
  EXPECT_EQ(probe("for (uint i = n; i > 0; i -= 1) data[i] = 0;"), "");
  EXPECT_EQ(probe("for (uint i = 1; i < n; i *= 2) data[i] = 0;"), "");
}

}  // namespace
}  // namespace klint::testing
