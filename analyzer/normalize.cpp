#include "analyzer/normalize.h"

#include <spirv-tools/optimizer.hpp>

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <fmt/core.h>
#include <unordered_map>

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

// Instructions a module may grow to when merge-return lets the inliner take
// the functions the first run left: inlining copies a helper's body into
// every call, and a helper that calls helpers multiplies. dxvk's mip
// generator would grow from 16,000 instructions to about 167,000: SPIRV-Tools
// took half a minute and ran out of ids (its module was then not valid), the
// analyses minutes more. Past the limit the calls stay, as when merge-return
// fails, and the file gets a note. ggml's largest kernels come to 9,300.
constexpr uint64_t kMaxInlinedInstructions = 100000;

// The instructions of the entry points once every call is inlined: each
// function's own instructions, plus each callee's inlined size per call.
uint64_t inlined_size(const std::vector<uint32_t>& spirv) {
  std::unordered_map<uint32_t, uint64_t> own;
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees;
  std::vector<uint32_t> entries;
  uint32_t function = 0;
  for (size_t at = 5; at < spirv.size();) {
    uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) break;
    auto opcode = static_cast<spv::Op>(spirv[at] & 0xffffu);
    if (opcode == spv::Op::OpEntryPoint && count > 2) entries.push_back(spirv[at + 2]);
    if (opcode == spv::Op::OpFunction && count > 2) function = spirv[at + 2];
    if (opcode == spv::Op::OpFunctionCall && count > 3 && function) callees[function].push_back(spirv[at + 3]);
    if (function) ++own[function];
    if (opcode == spv::Op::OpFunctionEnd) function = 0;
    at += count;
  }
  constexpr uint64_t kSaturated = uint64_t{1} << 62;
  std::unordered_map<uint32_t, uint64_t> sizes;
  std::unordered_map<uint32_t, bool> open;  // recursion (invalid in shaders) saturates
  auto size = [&](auto&& self, uint32_t id) -> uint64_t {
    if (auto it = sizes.find(id); it != sizes.end()) return it->second;
    if (open[id]) return kSaturated;
    open[id] = true;
    uint64_t total = own[id];
    for (uint32_t callee : callees[id]) total = std::min(kSaturated, total + self(self, callee));
    open[id] = false;
    return sizes[id] = total;
  };
  uint64_t total = 0;
  for (uint32_t entry : entries) total = std::min(kSaturated, total + size(size, entry));
  return total;
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
  // A pass that runs out of ids says so and stops, yet Run reports success
  // and hands back a module that is not valid SPIR-V: any error fails it.
  if (!optimizer.Run(input.data(), input.size(), &result, options) || !messages.empty()) {
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
                                               std::string* error, std::string* left_undone) {
  auto normalized = run(spirv, env, false, false, error);
  // A module whose id bound is near the limit spirv-val allows (2^22) leaves
  // the passes no ids to make: renumber its ids densely first.
  if (!normalized && spirv.size() > 3 && spirv[3] > kCompactAbove) normalized = run(spirv, env, false, true, error);
  if (normalized && has_function_call(*normalized)) {
    if (uint64_t inlined = inlined_size(*normalized); inlined > kMaxInlinedInstructions) {
      if (left_undone) {
        *left_undone = fmt::format(
            "inlining the functions that return early would make about {} instructions, more than the {} klint inlines",
            inlined, kMaxInlinedInstructions);
      }
      return normalized;
    }
    if (auto merged = run(*normalized, env, true, false, nullptr); merged && !has_function_call(*merged)) return merged;
  }
  return normalized;
}

std::optional<std::vector<uint32_t>> set_specialization_defaults(
    const std::vector<uint32_t>& spirv, spv_target_env env,
    const std::unordered_map<uint32_t, std::vector<uint32_t>>& values, std::string* error) {
  spvtools::Optimizer optimizer(env);
  std::string messages;
  optimizer.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t&, const char* message) {
    if (level > SPV_MSG_ERROR) return;
    if (!messages.empty()) messages += "; ";
    messages += message;
  });
  optimizer.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(values));
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  std::vector<uint32_t> result;
  if (!optimizer.Run(spirv.data(), spirv.size(), &result, options) || !messages.empty()) {
    if (error) *error = messages.empty() ? "the SPIR-V optimizer failed" : messages;
    return std::nullopt;
  }
  return result;
}

}  // namespace klint
