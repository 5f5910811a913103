#include "validate/spirv_val.h"

#include <spirv-tools/libspirv.hpp>

namespace klint {
namespace {

std::vector<ValidationMessage> run_validator(const std::vector<uint32_t>& spirv, spv_target_env env,
                                             BlockLayout layout, bool friendly_names) {
  std::vector<ValidationMessage> messages;
  spvtools::SpirvTools tools(env);
  tools.SetMessageConsumer(
      [&](spv_message_level_t level, const char*, const spv_position_t& position, const char* message) {
        // The validator numbers the instruction it blames by its 1-based position
        // in module order (0: none), which is exactly the IR's ordinal.
        std::string text = message;
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
        messages.push_back({position.index, std::move(text), level <= SPV_MSG_ERROR});
      });
  spvtools::ValidatorOptions options;
  options.SetFriendlyNames(friendly_names);
  options.SetScalarBlockLayout(layout == BlockLayout::Scalar);
  tools.Validate(spirv.data(), spirv.size(), options);
  return messages;
}

}  // namespace

std::vector<ValidationMessage> validate_spirv(const std::vector<uint32_t>& spirv, spv_target_env env,
                                              BlockLayout layout) {
  // The friendly names (%param rather than %123) serve the messages alone,
  // and SPIRV-Tools makes them in time quadratic in the OpNames that repeat
  // (glslang names every call's argument copy "param"): half of klint's time
  // on Granite's BC6 decoder. Most modules are valid and get no message, so
  // the names are made only for one that does, in a second run.
  if (run_validator(spirv, env, layout, false).empty()) return {};
  return run_validator(spirv, env, layout, true);
}

}  // namespace klint
