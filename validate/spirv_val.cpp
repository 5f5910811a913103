#include "validate/spirv_val.h"

#include <spirv-tools/libspirv.hpp>

namespace klint {

std::vector<ValidationMessage> validate_spirv(const std::vector<uint32_t>& spirv, spv_target_env env) {
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
  tools.Validate(spirv.data(), spirv.size(), options);
  return messages;
}

}  // namespace klint
