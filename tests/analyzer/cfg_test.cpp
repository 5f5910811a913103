#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "analyzer/cfg.h"

namespace klint {
namespace {

using Blocks = std::vector<uint32_t>;

// Wraps the blocks of main. Labels are named %bN for block index N so that
// the expectations below read like the assembly.
ir::Module module_with_main(const std::string& blocks) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%voidfn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%c = OpConstantTrue %bool
%d = OpConstantFalse %bool
%sel = OpConstant %uint 1
%main = OpFunction %void None %voidfn
)" + blocks + "OpFunctionEnd\n";
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << text;
  ir::DecodeError error;
  std::optional<ir::Module> module = ir::decode(words, &error);
  EXPECT_TRUE(module) << error.message;
  return module ? std::move(*module) : ir::Module{};
}

struct Analyses {
  explicit Analyses(const std::string& blocks)
      : module(module_with_main(blocks)),
        cfg(module.functions.at(0)),
        dom(DominatorTree::dominators(cfg)),
        pdom(DominatorTree::post_dominators(cfg)),
        cd(cfg, pdom) {}
  ir::Module module;
  Cfg cfg;
  DominatorTree dom;
  DominatorTree pdom;
  ControlDependence cd;
  uint32_t exit() const { return static_cast<uint32_t>(cfg.size()); }
};

// if (c) {b1} else {b2}; b3
constexpr const char* kDiamond = R"(
%b0 = OpLabel
OpSelectionMerge %b3 None
OpBranchConditional %c %b1 %b2
%b1 = OpLabel
OpBranch %b3
%b2 = OpLabel
OpBranch %b3
%b3 = OpLabel
OpReturn
)";

// if (c) return; b2
constexpr const char* kEarlyReturn = R"(
%b0 = OpLabel
OpSelectionMerge %b2 None
OpBranchConditional %c %b1 %b2
%b1 = OpLabel
OpReturn
%b2 = OpLabel
OpReturn
)";

// while (c) { if (c) break; if (d) continue; b5 }
constexpr const char* kLoopWithBreakAndContinue = R"(
%b0 = OpLabel
OpBranch %b1
%b1 = OpLabel
OpLoopMerge %b7 %b6 None
OpBranch %b2
%b2 = OpLabel
OpBranchConditional %c %b3 %b7
%b3 = OpLabel
OpSelectionMerge %b4 None
OpBranchConditional %c %b7 %b4
%b4 = OpLabel
OpSelectionMerge %b5 None
OpBranchConditional %d %b6 %b5
%b5 = OpLabel
OpBranch %b6
%b6 = OpLabel
OpBranch %b1
%b7 = OpLabel
OpReturn
)";

// for (;;) { if (c) return; b4 } with an unreachable merge block
constexpr const char* kInfiniteLoopWithReturn = R"(
%b0 = OpLabel
OpBranch %b1
%b1 = OpLabel
OpLoopMerge %b6 %b5 None
OpBranch %b2
%b2 = OpLabel
OpSelectionMerge %b4 None
OpBranchConditional %c %b3 %b4
%b3 = OpLabel
OpReturn
%b4 = OpLabel
OpBranch %b5
%b5 = OpLabel
OpBranch %b1
%b6 = OpLabel
OpUnreachable
)";

TEST(Cfg, BranchesAndConditionalBranches) {
  const Analyses a(kDiamond);
  ASSERT_EQ(a.cfg.size(), 4u);
  EXPECT_EQ(a.cfg.successors(0), (Blocks{1, 2}));
  EXPECT_EQ(a.cfg.successors(1), (Blocks{3}));
  EXPECT_EQ(a.cfg.successors(3), (Blocks{}));
  EXPECT_EQ(a.cfg.predecessors(3), (Blocks{1, 2}));
  EXPECT_EQ(a.cfg.predecessors(0), (Blocks{}));
  EXPECT_TRUE(a.cfg.is_exit(3));
  EXPECT_FALSE(a.cfg.is_exit(0));
  const ir::Function& main = a.module.functions[0];
  EXPECT_EQ(a.cfg.index_of(main.blocks[2].id()), 2);
  EXPECT_EQ(a.cfg.index_of(main.id()), -1);
}

TEST(Cfg, SwitchTargetsInOperandOrderWithoutDuplicates) {
  const Analyses a(R"(
%b0 = OpLabel
OpSelectionMerge %b4 None
OpSwitch %sel %b3 0 %b1 1 %b2 2 %b1
%b1 = OpLabel
OpBranchConditional %c %b4 %b4
%b2 = OpLabel
OpBranch %b4
%b3 = OpLabel
OpKill
%b4 = OpLabel
OpReturn
)");
  EXPECT_EQ(a.cfg.successors(0), (Blocks{3, 1, 2}));
  EXPECT_EQ(a.cfg.successors(1), (Blocks{4}));
  EXPECT_EQ(a.cfg.predecessors(1), (Blocks{0}));
  EXPECT_EQ(a.cfg.predecessors(4), (Blocks{1, 2}));
  EXPECT_TRUE(a.cfg.is_exit(3));
}

TEST(Cfg, ReversePostOrderSkipsUnreachableBlocks) {
  const Analyses a(R"(
%b0 = OpLabel
OpBranch %b2
%b1 = OpLabel
OpBranch %b2
%b2 = OpLabel
OpBranch %b3
%b3 = OpLabel
OpReturn
)");
  EXPECT_EQ(a.cfg.reverse_post_order(), (Blocks{0, 2, 3}));
  EXPECT_FALSE(a.cfg.reachable(1));
  EXPECT_TRUE(a.cfg.reachable(2));
  // The unreachable block's edge is still an edge.
  EXPECT_EQ(a.cfg.predecessors(2), (Blocks{0, 1}));

  const Analyses loop(kLoopWithBreakAndContinue);
  const Blocks& rpo = loop.cfg.reverse_post_order();
  ASSERT_EQ(rpo.size(), 8u);
  EXPECT_EQ(rpo.front(), 0u);
  // Every forward edge goes forward in reverse post-order; only 6 -> 1 goes back.
  auto position = [&](uint32_t b) { return std::find(rpo.begin(), rpo.end(), b) - rpo.begin(); };
  for (uint32_t b : rpo) {
    for (uint32_t s : loop.cfg.successors(b)) {
      if (b == 6 && s == 1) {
        EXPECT_LT(position(s), position(b));
      } else {
        EXPECT_LT(position(b), position(s)) << b << " -> " << s;
      }
    }
  }
}

TEST(Dominator, Diamond) {
  const Analyses a(kDiamond);
  EXPECT_EQ(a.dom.root(), 0u);
  EXPECT_EQ(a.dom.idom(0), -1);
  EXPECT_EQ(a.dom.idom(1), 0);
  EXPECT_EQ(a.dom.idom(2), 0);
  EXPECT_EQ(a.dom.idom(3), 0);
  EXPECT_TRUE(a.dom.dominates(0, 3));
  EXPECT_FALSE(a.dom.dominates(1, 3));
  for (uint32_t b = 0; b < 4; ++b) EXPECT_TRUE(a.dom.dominates(b, b));

  EXPECT_EQ(a.pdom.root(), a.exit());
  EXPECT_EQ(a.pdom.idom(a.exit()), -1);
  EXPECT_EQ(a.pdom.idom(0), 3);
  EXPECT_EQ(a.pdom.idom(1), 3);
  EXPECT_EQ(a.pdom.idom(2), 3);
  EXPECT_EQ(a.pdom.idom(3), int(a.exit()));
  EXPECT_TRUE(a.pdom.dominates(3, 0));
  EXPECT_FALSE(a.pdom.dominates(1, 0));
  EXPECT_TRUE(a.pdom.dominates(a.exit(), 1));
  EXPECT_TRUE(a.pdom.dominates(2, 2));
}

TEST(Dominator, LoopWithBreakAndContinue) {
  const Analyses a(kLoopWithBreakAndContinue);
  const std::vector<int> idoms = {-1, 0, 1, 2, 3, 4, 4, 2};
  for (uint32_t b = 0; b < idoms.size(); ++b) EXPECT_EQ(a.dom.idom(b), idoms[b]) << b;
  EXPECT_TRUE(a.dom.dominates(1, 6));
  EXPECT_FALSE(a.dom.dominates(6, 1));

  const std::vector<int> ipdoms = {1, 2, 7, 7, 6, 6, 1, 8};
  for (uint32_t b = 0; b < ipdoms.size(); ++b) EXPECT_EQ(a.pdom.idom(b), ipdoms[b]) << b;
  EXPECT_TRUE(a.pdom.dominates(7, 0));
  EXPECT_FALSE(a.pdom.dominates(5, 4));
}

TEST(Dominator, EarlyReturnBreaksPostDominance) {
  const Analyses a(kEarlyReturn);
  EXPECT_EQ(a.dom.idom(2), 0);
  // Block 2 does not post-dominate the branch: the return in 1 skips it.
  EXPECT_FALSE(a.pdom.dominates(2, 0));
  EXPECT_EQ(a.pdom.idom(0), int(a.exit()));
  EXPECT_EQ(a.pdom.idom(1), int(a.exit()));
  EXPECT_EQ(a.pdom.idom(2), int(a.exit()));
}

TEST(Dominator, InfiniteLoopWithReturnInside) {
  const Analyses a(kInfiniteLoopWithReturn);
  EXPECT_FALSE(a.cfg.reachable(6));
  EXPECT_EQ(a.dom.idom(6), -1);
  EXPECT_EQ(a.pdom.idom(6), -1);
  EXPECT_EQ(a.dom.idom(3), 2);
  EXPECT_EQ(a.dom.idom(5), 4);
  // The only way out is the return, so it post-dominates the whole loop.
  const std::vector<int> ipdoms = {1, 2, 3, 7, 5, 1};
  for (uint32_t b = 0; b < ipdoms.size(); ++b) EXPECT_EQ(a.pdom.idom(b), ipdoms[b]) << b;
  EXPECT_TRUE(a.pdom.dominates(3, 0));
}

TEST(Dominator, LoopWithoutExitJoinsTheVirtualExit) {
  const Analyses a(R"(
%b0 = OpLabel
OpBranch %b1
%b1 = OpLabel
OpLoopMerge %b6 %b5 None
OpBranch %b2
%b2 = OpLabel
OpSelectionMerge %b4 None
OpBranchConditional %c %b3 %b4
%b3 = OpLabel
OpBranch %b4
%b4 = OpLabel
OpBranch %b5
%b5 = OpLabel
OpBranch %b1
%b6 = OpLabel
OpReturn
)");
  // The latch stands in for the missing exit; everything else keeps its
  // post-dominators inside the loop.
  const std::vector<int> ipdoms = {1, 2, 4, 4, 5, 7, -1};
  for (uint32_t b = 0; b < ipdoms.size(); ++b) EXPECT_EQ(a.pdom.idom(b), ipdoms[b]) << b;
  EXPECT_EQ(a.cd.controllers(3), (Blocks{2}));
  for (uint32_t b : {0u, 1u, 2u, 4u, 5u}) EXPECT_EQ(a.cd.controllers(b), (Blocks{})) << b;
}

TEST(Dominator, UnreachableBlockIsInNoTree) {
  const Analyses a(R"(
%b0 = OpLabel
OpReturn
%b1 = OpLabel
OpBranch %b0
)");
  EXPECT_FALSE(a.cfg.reachable(1));
  EXPECT_EQ(a.dom.idom(1), -1);
  EXPECT_EQ(a.pdom.idom(1), -1);
  EXPECT_FALSE(a.dom.dominates(0, 1));
  EXPECT_FALSE(a.dom.dominates(1, 0));
  EXPECT_FALSE(a.pdom.dominates(0, 1));
  EXPECT_TRUE(a.dom.dominates(1, 1));
  EXPECT_EQ(a.pdom.idom(0), int(a.exit()));
  EXPECT_EQ(a.cd.controllers(1), (Blocks{}));
}

TEST(ControlDependence, DiamondArmsDependOnTheHeader) {
  const Analyses a(kDiamond);
  EXPECT_EQ(a.cd.controllers(0), (Blocks{}));
  EXPECT_EQ(a.cd.controllers(1), (Blocks{0}));
  EXPECT_EQ(a.cd.controllers(2), (Blocks{0}));
  EXPECT_EQ(a.cd.controllers(3), (Blocks{}));
}

TEST(ControlDependence, CodeAfterEarlyReturnDependsOnTheBranch) {
  const Analyses a(kEarlyReturn);
  EXPECT_EQ(a.cd.controllers(1), (Blocks{0}));
  EXPECT_EQ(a.cd.controllers(2), (Blocks{0}));
  EXPECT_EQ(a.cd.controllers(0), (Blocks{}));
}

TEST(ControlDependence, LoopBodyDependsOnTheLoopCondition) {
  // for (;c;) { b3 }
  const Analyses a(R"(
%b0 = OpLabel
OpBranch %b1
%b1 = OpLabel
OpLoopMerge %b5 %b4 None
OpBranch %b2
%b2 = OpLabel
OpBranchConditional %c %b3 %b5
%b3 = OpLabel
OpBranch %b4
%b4 = OpLabel
OpBranch %b1
%b5 = OpLabel
OpReturn
)");
  // The condition decides whether the loop runs again, header and all.
  for (uint32_t b : {1u, 2u, 3u, 4u}) EXPECT_EQ(a.cd.controllers(b), (Blocks{2})) << b;
  EXPECT_EQ(a.cd.controllers(0), (Blocks{}));
  EXPECT_EQ(a.cd.controllers(5), (Blocks{}));
}

TEST(ControlDependence, BreakAndContinueDecideWhatFollows) {
  const Analyses a(kLoopWithBreakAndContinue);
  EXPECT_EQ(a.cd.controllers(3), (Blocks{2}));
  // Once in the body, only the break decides whether the loop comes round.
  for (uint32_t b : {1u, 2u, 4u, 6u}) EXPECT_EQ(a.cd.controllers(b), (Blocks{3})) << b;
  EXPECT_EQ(a.cd.controllers(5), (Blocks{4}));
  EXPECT_EQ(a.cd.controllers(0), (Blocks{}));
  EXPECT_EQ(a.cd.controllers(7), (Blocks{}));
}

TEST(ControlDependence, InfiniteLoopBodyDependsOnTheReturnBranch) {
  const Analyses a(kInfiniteLoopWithReturn);
  for (uint32_t b : {1u, 2u, 4u, 5u}) EXPECT_EQ(a.cd.controllers(b), (Blocks{2})) << b;
  EXPECT_EQ(a.cd.controllers(3), (Blocks{}));
  EXPECT_EQ(a.cd.controllers(0), (Blocks{}));
}

TEST(Cfg, FunctionWithoutBlocks) {
  ir::Function declaration;
  const Cfg cfg(declaration);
  EXPECT_EQ(cfg.size(), 0u);
  EXPECT_TRUE(cfg.reverse_post_order().empty());
  const DominatorTree dom = DominatorTree::dominators(cfg);
  const DominatorTree pdom = DominatorTree::post_dominators(cfg);
  EXPECT_EQ(pdom.root(), 0u);
  EXPECT_EQ(pdom.idom(0), -1);
  const ControlDependence cd(cfg, pdom);
  (void)dom;
}

TEST(Cfg, AnalysesSurviveCorruptedBranches) {
  const ir::Module base = module_with_main(kLoopWithBreakAndContinue);
  const std::vector<uint32_t> words = ir::encode(base);
  for (size_t at = 5; at < words.size(); ++at) {
    for (uint32_t garbage : {0u, 1u, 5u, words[at] + 1, 0xFFFFFFFFu}) {
      std::vector<uint32_t> corrupt = words;
      corrupt[at] = garbage;
      std::optional<ir::Module> module = ir::decode(corrupt, nullptr);
      if (!module) continue;
      for (const ir::Function& function : module->functions) {
        const Cfg cfg(function);
        const DominatorTree pdom = DominatorTree::post_dominators(cfg);
        const ControlDependence cd(cfg, pdom);
        const DominatorTree dom = DominatorTree::dominators(cfg);
        for (uint32_t b : cfg.reverse_post_order()) {
          EXPECT_TRUE(dom.dominates(0, b));
          EXPECT_GE(pdom.idom(b), 0);
        }
      }
    }
  }
}

}  // namespace
}  // namespace klint
