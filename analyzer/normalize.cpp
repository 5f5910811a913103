#include "analyzer/normalize.h"

#include <spirv-tools/optimizer.hpp>

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>

namespace klint {
namespace {

bool has_function_call(const std::vector<uint32_t>& spirv) {
  for (size_t at = 5; at < spirv.size();) {
    uint32_t count = spirv[at] >> 16;
    if ((spirv[at] & 0xffffu) == static_cast<uint32_t>(spv::Op::OpFunctionCall)) return true;
    if (count == 0) return false;
    at += count;
  }
  return false;
}

// The OpFunction instructions (their ids) of functions that return before
// their last block, which the inliner never takes before merge-return. It
// still looks at each call of one, and writes a warning that disassembles the
// whole module to name the function: quadratic, and 70 % of klint's time on
// dxvk's mip generator. Marked DontInline, they are passed over at once; the
// mark is taken off the result, which is otherwise the same.
std::vector<uint32_t> mark_early_returns_dont_inline(std::vector<uint32_t>& spirv) {
  constexpr uint32_t kDontInline = static_cast<uint32_t>(spv::FunctionControlMask::DontInline);
  std::vector<uint32_t> marked;
  size_t function = 0;  // word offset of the OpFunction we are in
  int block = -1, last_return = -1;
  bool early = false;
  for (size_t at = 5; at < spirv.size();) {
    uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) break;
    switch (static_cast<spv::Op>(spirv[at] & 0xffffu)) {
      case spv::Op::OpFunction:
        function = count > 3 ? at : 0;
        block = last_return = -1;
        early = false;
        break;
      case spv::Op::OpLabel:
        ++block;
        // A return ended a block that is not the last one.
        if (last_return >= 0) early = true;
        last_return = -1;
        break;
      case spv::Op::OpReturn:
      case spv::Op::OpReturnValue:
        last_return = block;
        break;
      case spv::Op::OpFunctionEnd:
        if (function && early && !(spirv[function + 3] & kDontInline)) {
          spirv[function + 3] |= kDontInline;
          marked.push_back(spirv[function + 2]);
        }
        function = 0;
        break;
      default:
        break;
    }
    at += count;
  }
  return marked;
}

void clear_dont_inline(std::vector<uint32_t>& spirv, const std::vector<uint32_t>& functions) {
  constexpr uint32_t kDontInline = static_cast<uint32_t>(spv::FunctionControlMask::DontInline);
  for (size_t at = 5; at < spirv.size();) {
    uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) break;
    if ((spirv[at] & 0xffffu) == static_cast<uint32_t>(spv::Op::OpFunction) && count > 3 &&
        std::find(functions.begin(), functions.end(), spirv[at + 2]) != functions.end()) {
      spirv[at + 3] &= ~kDontInline;
    }
    at += count;
  }
}

// Id bounds above which a failed normalization is tried again on densely
// renumbered ids. Below it, ids stay as written: excerpts of .spv files show them.
constexpr uint32_t kCompactAbove = 1u << 20;

std::optional<std::vector<uint32_t>> run(const std::vector<uint32_t>& spirv, spv_target_env env, bool merge_return,
                                         bool compact_ids, std::string* error) {
  spvtools::Optimizer optimizer(env);
  std::string messages;
  optimizer.SetMessageConsumer(
      [&](spv_message_level_t level, const char*, const spv_position_t&, const char* message) {
        if (level > SPV_MSG_ERROR) return;
        if (!messages.empty()) messages += "; ";
        messages += message;
      });
  if (compact_ids) optimizer.RegisterPass(spvtools::CreateCompactIdsPass());
  if (merge_return) optimizer.RegisterPass(spvtools::CreateMergeReturnPass());
  optimizer.RegisterPass(spvtools::CreateInlineExhaustivePass())
      .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass())
      .RegisterPass(spvtools::CreatePrivateToLocalPass())
      .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
      .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
      .RegisterPass(spvtools::CreateSSARewritePass())
      .RegisterPass(spvtools::CreateCCPPass())
      .RegisterPass(spvtools::CreateDeadBranchElimPass())
      .RegisterPass(spvtools::CreateBlockMergePass());
  // Callers validate first (the pipeline reports invalid-spirv); validating
  // again here cost as much as the passes themselves on large shaders.
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  // Without merge-return the inliner leaves functions that return early; with
  // compacted ids the marks could not be found again in the result.
  std::vector<uint32_t> input = spirv;
  std::vector<uint32_t> marked;
  if (!merge_return && !compact_ids) marked = mark_early_returns_dont_inline(input);
  std::vector<uint32_t> result;
  if (!optimizer.Run(input.data(), input.size(), &result, options)) {
    if (error) *error = messages.empty() ? "the SPIR-V optimizer failed" : messages;
    return std::nullopt;
  }
  clear_dont_inline(result, marked);
  return result;
}

}  // namespace

// Deliberately not here: loop unrolling (it reshapes the control flow that
// barrier and uniformity findings point at), scalar replacement (it splits the
// variables findings name), and aggressive DCE, which would delete unused
// workgroup (shared) variables that rules about shared memory budgets must
// still see. Merge-return reshapes control flow too, so it runs only when a
// function that returns early was left uninlined: the inliner takes no such
// function in SPIR-V 1.6, and glslang compiles every HLSL entry point into a
// wrapper that calls the user's function, whose early `return` then hid the
// divergence it causes from the analyses.
std::optional<std::vector<uint32_t>> normalize(const std::vector<uint32_t>& spirv, spv_target_env env,
                                               std::string* error) {
  auto normalized = run(spirv, env, false, false, error);
  // A module whose id bound is near the limit spirv-val allows (2^22) leaves
  // the passes no ids to make: renumber its ids densely first.
  if (!normalized && spirv.size() > 3 && spirv[3] > kCompactAbove) normalized = run(spirv, env, false, true, error);
  if (normalized && has_function_call(*normalized)) {
    if (auto merged = run(*normalized, env, true, false, nullptr); merged && !has_function_call(*merged)) return merged;
  }
  return normalized;
}

}  // namespace klint
