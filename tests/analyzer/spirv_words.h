// Test helpers that read SPIR-V words directly, so front-end tests do not
// depend on the IR library being tested elsewhere.
#pragma once

#include <cstdint>
#include <map>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

namespace klint::testing {

struct RawInstruction {
  uint32_t opcode = 0;
  std::vector<uint32_t> operands;  // the words after the opcode word
};

inline std::vector<RawInstruction> raw_instructions(const std::vector<uint32_t>& words) {
  std::vector<RawInstruction> out;
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) break;
    out.push_back({words[at] & 0xFFFFu, {words.begin() + at + 1, words.begin() + at + count}});
    at += count;
  }
  return out;
}

inline std::string literal_string(const std::vector<uint32_t>& words, size_t first) {
  std::string text;
  for (size_t i = first; i < words.size(); ++i) {
    for (int b = 0; b < 4; ++b) {
      char c = static_cast<char>((words[i] >> (8 * b)) & 0xFF);
      if (c == '\0') return text;
      text += c;
    }
  }
  return text;
}

// OpString id -> text.
inline std::map<uint32_t, std::string> op_strings(const std::vector<uint32_t>& words) {
  std::map<uint32_t, std::string> strings;
  for (const RawInstruction& i : raw_instructions(words)) {
    if (i.opcode == 7) strings[i.operands[0]] = literal_string(i.operands, 1);
  }
  return strings;
}

struct LineInfo {
  std::string file;
  uint32_t line = 0;
};

// The OpLine in effect at each instruction with `opcode`, in module order.
inline std::vector<LineInfo> lines_of(const std::vector<uint32_t>& words, uint32_t opcode) {
  constexpr uint32_t kOpLine = 8, kOpNoLine = 317, kOpLabel = 248, kOpFunctionEnd = 56;
  auto strings = op_strings(words);
  std::vector<LineInfo> out;
  LineInfo current;
  for (const RawInstruction& i : raw_instructions(words)) {
    if (i.opcode == kOpLine)
      current = {strings[i.operands[0]], i.operands[1]};
    else if (i.opcode == kOpNoLine || i.opcode == kOpLabel || i.opcode == kOpFunctionEnd)
      current = {};
    if (i.opcode == opcode) out.push_back(current);
  }
  return out;
}

inline size_t count_opcode(const std::vector<uint32_t>& words, uint32_t opcode) {
  size_t n = 0;
  for (const RawInstruction& i : raw_instructions(words)) n += i.opcode == opcode;
  return n;
}

// The x workgroup size: glslang writes LocalSize up to SPIR-V 1.5 and
// LocalSizeId with constant operands for SPIR-V 1.6.
inline uint32_t local_size_x(const std::vector<uint32_t>& words) {
  constexpr uint32_t kOpExecutionMode = 16, kOpExecutionModeId = 331, kOpConstant = 43;
  constexpr uint32_t kLocalSize = 17, kLocalSizeId = 38;
  std::map<uint32_t, uint32_t> constants;
  for (const RawInstruction& i : raw_instructions(words)) {
    if (i.opcode == kOpConstant && i.operands.size() == 3) constants[i.operands[1]] = i.operands[2];
  }
  for (const RawInstruction& i : raw_instructions(words)) {
    if (i.opcode == kOpExecutionMode && i.operands[1] == kLocalSize) return i.operands[2];
    if (i.opcode == kOpExecutionModeId && i.operands[1] == kLocalSizeId) return constants[i.operands[2]];
  }
  return 0;
}

inline std::string disassemble(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string text;
  tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_NONE);
  return text;
}

constexpr uint32_t kOpControlBarrier = 224;
constexpr uint32_t kOpVariable = 59;

}  // namespace klint::testing
