#include "validate/spirv_val.h"

#include <spirv-tools/libspirv.hpp>

#include <cctype>
#include <charconv>
#include <optional>
#include <utility>

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

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The id written as digits at `text[at]`, and where they end.
std::optional<std::pair<uint32_t, size_t>> id_at(std::string_view text, size_t at) {
  uint32_t id = 0;
  auto [end, ec] = std::from_chars(text.data() + at, text.data() + text.size(), id);
  if (ec != std::errc()) return std::nullopt;
  return std::pair{id, static_cast<size_t>(end - text.data())};
}

// The validator names an id `%12` in an instruction and `12[%12]` in its
// reason; either becomes the user's spelling where `spellings` has one.
std::string respell(std::string_view text, const IdSpellings& spellings) {
  if (spellings.empty()) return std::string(text);
  std::string out;
  for (size_t at = 0; at < text.size();) {
    const bool starts_word = at == 0 || !is_word(text[at - 1]);
    if (text[at] == '%' && at + 1 < text.size() && is_digit(text[at + 1])) {
      if (auto id = id_at(text, at + 1); id && (id->second == text.size() || !is_word(text[id->second]))) {
        auto known = spellings.find(id->first);
        if (known != spellings.end()) {
          out += known->second;
          at = id->second;
          continue;
        }
      }
    } else if (starts_word && is_digit(text[at])) {
      auto id = id_at(text, at);
      if (id && text.substr(id->second).starts_with("[%")) {
        auto inner = id_at(text, id->second + 2);
        auto known = spellings.find(id->first);
        if (inner && inner->first == id->first && inner->second < text.size() && text[inner->second] == ']' &&
            known != spellings.end()) {
          out += known->second;
          at = inner->second + 1;
          continue;
        }
      }
    }
    out += text[at++];
  }
  return out;
}

std::string_view trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") + 1 - first);
}

}  // namespace

ValidatorText split_message(std::string_view message, const IdSpellings& spellings) {
  const size_t newline = message.find('\n');
  // klint's messages end without a period; the validator's reasons with one.
  std::string_view reason = trimmed(message.substr(0, newline));
  if (reason.ends_with('.') && !reason.ends_with("..")) reason.remove_suffix(1);
  ValidatorText text{respell(reason, spellings), {}};
  if (newline == std::string_view::npos) return text;
  // The instruction, on one line: the validator indents it, and may wrap it.
  std::string instruction;
  for (char c : trimmed(message.substr(newline + 1))) {
    const bool blank = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (blank && (instruction.empty() || instruction.back() == ' ')) continue;
    instruction += blank ? ' ' : c;
  }
  text.instruction = respell(instruction, spellings);
  return text;
}

std::vector<ValidationMessage> validate_spirv(const std::vector<uint32_t>& spirv, spv_target_env env,
                                              BlockLayout layout, IdNames names) {
  // The friendly names (%param rather than %123) serve the messages alone,
  // and SPIRV-Tools makes them in time quadratic in the OpNames that repeat
  // (glslang names every call's argument copy "param"): half of klint's time
  // on Granite's BC6 decoder. Most modules are valid and get no message, so
  // the names are made only for one that does, in a second run.
  std::vector<ValidationMessage> messages = run_validator(spirv, env, layout, false);
  if (messages.empty() || names == IdNames::Numbers) return messages;
  return run_validator(spirv, env, layout, true);
}

}  // namespace klint
