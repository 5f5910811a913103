// Induction variables (SymbolicValues::induction): on GLSL, the counting
// ones probed per loop of main in the order of their headers, what each
// starts at and steps by; on SPIR-V assembly, every field of one, invariant
// and variant steps, steps other than additions, down-counting loops, and the
// values the collision finder enumerates.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyzer/collision.h"
#include "analyzer/loops.h"
#include "analyzer/ssa.h"
#include "analyzer/symbolic.h"
#include "tests/analyzer/assembly.h"
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

// On SPIR-V assembly: the induction of %i in counted_loop (assembly.h), with
// the update and start given.

struct Probe {
  std::unique_ptr<Module> module;
  const Induction* induction = nullptr;
};

Probe induction_of(const std::string& body, const std::string& start, const std::string& bound,
                   const std::string& update) {
  Probe probe{assembly::kernel(assembly::counted_loop(body, start, bound, update))};
  if (probe.module) probe.induction = probe.module->symbolic(assembly::main_of(*probe.module)).induction(assembly::id(*probe.module, "i"));
  return probe;
}

const std::vector<int64_t>* iteration_values(const Probe& probe) {
  return probe.module->collisions(assembly::main_of(*probe.module)).iteration_values(probe.induction->phi);
}

TEST(Induction, StartUpdateAndStepOfACountingLoop) {
  for (const char* update : {"OpIAdd %uint %i %uint_4", "OpIAdd %uint %uint_4 %i"}) {
    Probe probe = induction_of("", "%uint_2", "%uint_16", update);
    ASSERT_TRUE(probe.induction) << update;
    const Module& module = *probe.module;
    EXPECT_EQ(probe.induction->phi, assembly::id(module, "i"));
    EXPECT_EQ(probe.induction->header, assembly::block(module, "header"));
    EXPECT_EQ(probe.induction->initial, assembly::id(module, "uint_2"));
    EXPECT_EQ(probe.induction->update, assembly::id(module, "i1"));
    EXPECT_EQ(probe.induction->step, Induction::Step::Add);
    EXPECT_EQ(probe.induction->step_value, assembly::id(module, "uint_4"));
    EXPECT_TRUE(probe.induction->invariant_step);
    EXPECT_TRUE(probe.induction->counts());
    EXPECT_EQ(*iteration_values(probe), (std::vector<int64_t>{2, 6, 10, 14}));
  }
}

TEST(Induction, AStepComputedInTheLoopFromInvariantsIsInvariant) {
  Probe probe = induction_of(R"(%np2 = OpAccessChain %ptr_pc_uint %pc %uint_0
%n2 = OpLoad %uint %np2
%step = OpIMul %uint %n2 %uint_2)",
                             "%x", "%n", "OpIAdd %uint %i %step");
  ASSERT_TRUE(probe.induction);
  EXPECT_EQ(probe.induction->initial, assembly::id(*probe.module, "x"));
  EXPECT_EQ(probe.induction->step_value, assembly::id(*probe.module, "step"));
  EXPECT_TRUE(probe.induction->invariant_step);
  EXPECT_TRUE(probe.induction->counts());
}

TEST(Induction, AStepReadFromABufferInTheLoopIsNotInvariant) {
  // for (i = 0; i < n; i += data[i])
  Probe probe = induction_of(R"(%sp = OpAccessChain %ptr_elem %data %uint_0 %i
%step = OpLoad %uint %sp)",
                             "%uint_0", "%n", "OpIAdd %uint %i %step");
  ASSERT_TRUE(probe.induction);
  EXPECT_EQ(probe.induction->step, Induction::Step::Add);
  EXPECT_EQ(probe.induction->step_value, assembly::id(*probe.module, "step"));
  EXPECT_FALSE(probe.induction->invariant_step);
  EXPECT_FALSE(probe.induction->counts());
}

TEST(Induction, ADoublingLoopStepsButDoesNotCount) {
  Probe probe = induction_of("", "%uint_1", "%uint_64", "OpIMul %uint %i %uint_2");
  ASSERT_TRUE(probe.induction);
  EXPECT_EQ(probe.induction->step, Induction::Step::Multiply);
  EXPECT_FALSE(probe.induction->counts());
  EXPECT_EQ(*iteration_values(probe), (std::vector<int64_t>{1, 2, 4, 8, 16, 32}));
}

TEST(Induction, ASubtractionIsNoInductionVariable) {
  // for (i = 63; i < 64; i -= 1): klint follows additions only.
  Probe probe = induction_of("", "%uint_63", "%uint_64", "OpISub %uint %i %uint_1");
  ASSERT_TRUE(probe.module);
  EXPECT_EQ(probe.induction, nullptr);
}

TEST(Induction, AnUnsignedLoopCountsDownByAddingTheLargestValue) {
  // for (uint i = 63; i < 64; i += 0xFFFFFFFF): 63 down to 0, then i wraps
  // around to 0xFFFFFFFF and the loop ends.
  Probe probe = induction_of("", "%uint_63", "%uint_64", "OpIAdd %uint %i %uint_max");
  ASSERT_TRUE(probe.induction);
  EXPECT_TRUE(probe.induction->counts());
  std::vector<int64_t> down;
  for (int64_t i = 63; i >= 0; --i) down.push_back(i);
  ASSERT_NE(iteration_values(probe), nullptr);
  EXPECT_EQ(*iteration_values(probe), down);
  // Not "63 and up": i may end anywhere below.
  Interval range = probe.module->symbolic(assembly::main_of(*probe.module))
                       .range(Symbol{Symbol::Kind::Induction, probe.induction->phi});
  EXPECT_FALSE(range.low);
  EXPECT_FALSE(range.high);
}

TEST(Induction, ASignedLoopCountsDownByAddingMinusOne) {
  // for (int i = 63; i >= 0; i += -1)
  auto module = assembly::kernel(R"(OpBranch %header
%header = OpLabel
%i = OpPhi %int %int_63 %entry %i1 %continue
OpLoopMerge %merge %continue None
OpBranch %test
%test = OpLabel
%more = OpSGreaterThanEqual %bool %i %int_0
OpBranchConditional %more %continue %merge
%continue = OpLabel
%i1 = OpIAdd %int %i %int_m1
OpBranch %header
%merge = OpLabel)",
                                 "%int = OpTypeInt 32 1\n%int_0 = OpConstant %int 0\n%int_63 = OpConstant %int 63\n"
                                 "%int_m1 = OpConstant %int -1\n");
  ASSERT_TRUE(module);
  const ir::Function& main = assembly::main_of(*module);
  const Induction* induction = module->symbolic(main).induction(assembly::id(*module, "i"));
  ASSERT_TRUE(induction);
  EXPECT_TRUE(induction->counts());
  EXPECT_EQ(module->symbolic(main).value(induction->step_value), Polynomial::constant(-1));
  const auto* values = module->collisions(main).iteration_values(induction->phi);
  ASSERT_NE(values, nullptr);
  EXPECT_EQ(values->size(), 64u);
  EXPECT_EQ(values->front(), 63);
  EXPECT_EQ(values->back(), 0);
}

}  // namespace
}  // namespace klint::testing
