// SPV_ENABLE_UTILITY_CODE gives spv::HasResultAndType; it must come before
// anything else includes the header.
#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

#include "validate/toolchain_repairs.h"

#include <fmt/core.h>

#include <map>
#include <set>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace klint {
namespace {

constexpr uint32_t kMagic = 0x07230203u;
constexpr size_t kHeaderWords = 5;

uint32_t opcode_of(uint32_t word) { return word & 0xFFFFu; }
uint32_t count_of(uint32_t word) { return word >> 16; }
uint32_t first_word(spv::Op op, uint32_t count) { return (count << 16) | static_cast<uint32_t>(op); }

// The instructions' word offsets, or empty when the stream does not walk
// (a zero or overlong word count): decoding then says what is wrong.
std::vector<size_t> instruction_offsets(std::span<const uint32_t> words) {
  std::vector<size_t> offsets;
  if (words.size() < kHeaderWords || words[0] != kMagic) return {};
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = count_of(words[at]);
    if (count == 0 || count > words.size() - at) return {};
    offsets.push_back(at);
    at += count;
  }
  return offsets;
}

bool known_opcode(uint32_t opcode) { return std::string_view(spvOpcodeString(opcode)) != "unknown"; }

bool is_type_opcode(uint32_t opcode) { return std::string_view(spvOpcodeString(opcode)).starts_with("Type"); }

struct ContextDeleter {
  void operator()(spv_context context) const { spvContextDestroy(context); }
};

// Whether SPIRV-Tools parses `OpCapability capability`: its operand tables are
// not public, so klint asks its parser with a module of that one instruction.
bool known_capability(spv_context context, uint32_t version, uint32_t capability) {
  const uint32_t module[] = {kMagic, version, 0, 1, 0, first_word(spv::Op::OpCapability, 2), capability};
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t result =
      spvBinaryParse(context, nullptr, module, std::size(module), nullptr, nullptr, &diagnostic);
  spvDiagnosticDestroy(diagnostic);
  return result == SPV_SUCCESS;
}

std::string join(const std::vector<std::string>& parts) {
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i) {
    joined += i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ";
    joined += parts[i];
  }
  return joined;
}

}  // namespace

std::optional<RepairedWords> stand_in_unknown_instructions(std::span<const uint32_t> words) {
  const std::vector<size_t> offsets = instruction_offsets(words);
  if (offsets.empty()) return std::nullopt;
  std::unique_ptr<spv_context_t, ContextDeleter> context(spvContextCreate(SPV_ENV_UNIVERSAL_1_6));

  std::unordered_map<uint32_t, uint32_t> type_opcodes;  // type id -> its OpType*
  for (size_t at : offsets) {
    if (is_type_opcode(opcode_of(words[at])) && count_of(words[at]) >= 2) type_opcodes[words[at + 1]] = opcode_of(words[at]);
  }

  RepairedWords repaired;
  repaired.words.assign(words.begin(), words.begin() + kHeaderWords);
  std::vector<uint32_t> capabilities;
  std::map<uint32_t, size_t> opcodes;  // unknown opcode -> instructions
  bool in_function = false;
  for (size_t position = 1; position <= offsets.size(); ++position) {
    const size_t at = offsets[position - 1];
    const uint32_t opcode = opcode_of(words[at]), count = count_of(words[at]);
    const auto instruction = words.subspan(at, count);
    if (opcode == static_cast<uint32_t>(spv::Op::OpFunction)) in_function = true;
    if (opcode == static_cast<uint32_t>(spv::Op::OpFunctionEnd)) in_function = false;
    if (opcode == static_cast<uint32_t>(spv::Op::OpCapability) && count == 2 &&
        !known_capability(context.get(), words[1], instruction[1])) {
      capabilities.push_back(instruction[1]);
      repaired.changed.push_back(position);
      continue;
    }
    if (known_opcode(opcode)) {
      repaired.words.insert(repaired.words.end(), instruction.begin(), instruction.end());
      continue;
    }
    // Outside a function an unknown instruction may declare a type or a
    // variable that everything after depends on: nothing klint could stand
    // in for it would be the module.
    if (!in_function) return std::nullopt;
    ++opcodes[opcode];
    repaired.changed.push_back(position);
    auto type = count >= 3 ? type_opcodes.find(instruction[1]) : type_opcodes.end();
    if (type == type_opcodes.end() || type->second == static_cast<uint32_t>(spv::Op::OpTypeVoid)) continue;
    repaired.words.insert(repaired.words.end(), {first_word(spv::Op::OpUndef, 3), instruction[1], instruction[2]});
    repaired.unknown_results = true;
  }
  if (capabilities.empty() && opcodes.empty()) return std::nullopt;

  std::vector<std::string> parts;
  for (uint32_t capability : capabilities) parts.push_back(fmt::format("capability {}", capability));
  for (const auto& [opcode, instructions] : opcodes) {
    parts.push_back(fmt::format("opcode {} ({} instruction{})", opcode, instructions, instructions == 1 ? "" : "s"));
  }
  repaired.what = join(parts);
  return repaired;
}

std::optional<RepairedWords> copy_same_width_conversions(std::span<const uint32_t> words) {
  const std::vector<size_t> offsets = instruction_offsets(words);
  if (offsets.empty()) return std::nullopt;
  std::unordered_map<uint32_t, uint32_t> widths;  // scalar or vector type -> its component's width
  std::unordered_map<uint32_t, uint32_t> types;   // value -> its type
  for (size_t at : offsets) {
    const auto op = static_cast<spv::Op>(opcode_of(words[at]));
    const uint32_t count = count_of(words[at]);
    if ((op == spv::Op::OpTypeInt || op == spv::Op::OpTypeFloat) && count >= 3) widths[words[at + 1]] = words[at + 2];
    if (op == spv::Op::OpTypeVector && count >= 4) {
      if (auto component = widths.find(words[at + 2]); component != widths.end()) {
        widths[words[at + 1]] = component->second;
      }
    }
    bool has_result = false, has_type = false;
    spv::HasResultAndType(op, &has_result, &has_type);
    if (has_result && has_type && count >= 3) types[words[at + 2]] = words[at + 1];
  }

  RepairedWords repaired;
  repaired.words.assign(words.begin(), words.end());
  std::set<std::string> kinds;
  for (size_t position = 1; position <= offsets.size(); ++position) {
    const size_t at = offsets[position - 1];
    const auto op = static_cast<spv::Op>(opcode_of(words[at]));
    if (op != spv::Op::OpFConvert && op != spv::Op::OpSConvert && op != spv::Op::OpUConvert) continue;
    if (count_of(words[at]) != 4) continue;
    const uint32_t result_type = words[at + 1];
    auto operand_type = types.find(words[at + 3]);
    if (operand_type == types.end()) continue;
    auto to = widths.find(result_type), from = widths.find(operand_type->second);
    if (to == widths.end() || from == widths.end() || to->second != from->second) continue;
    const spv::Op copy = operand_type->second == result_type ? spv::Op::OpCopyObject : spv::Op::OpBitcast;
    repaired.words[at] = first_word(copy, 4);
    repaired.changed.push_back(position);
    kinds.insert(fmt::format("Op{} between {}-bit types", spvOpcodeString(static_cast<uint32_t>(op)), to->second));
  }
  if (repaired.changed.empty()) return std::nullopt;
  repaired.what = join(std::vector<std::string>(kinds.begin(), kinds.end()));
  return repaired;
}

}  // namespace klint
