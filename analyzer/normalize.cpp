#include "analyzer/normalize.h"

#include <spirv-tools/optimizer.hpp>

namespace klint {

// Deliberately not here: merge-return and loop unrolling (they reshape the
// control flow that barrier and uniformity findings point at), scalar
// replacement (it splits the variables findings name), and aggressive DCE,
// which would delete unused workgroup (shared) variables that rules about
// shared memory budgets must still see.
std::optional<std::vector<uint32_t>> normalize(const std::vector<uint32_t>& spirv, spv_target_env env,
                                               std::string* error) {
  spvtools::Optimizer optimizer(env);
  std::string messages;
  optimizer.SetMessageConsumer(
      [&](spv_message_level_t level, const char*, const spv_position_t&, const char* message) {
        if (level > SPV_MSG_ERROR) return;
        if (!messages.empty()) messages += "; ";
        messages += message;
      });
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
  std::vector<uint32_t> result;
  if (!optimizer.Run(spirv.data(), spirv.size(), &result, options)) {
    if (error) *error = messages.empty() ? "the SPIR-V optimizer failed" : messages;
    return std::nullopt;
  }
  return result;
}

}  // namespace klint
