// Binary to ir::Module. SPIRV-Tools' parser supplies the operand grammar; this
// file only sorts its instructions into globals, functions and blocks.
#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "analyzer/ir/module.h"

namespace klint::ir {
namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;

std::string op_name(spv::Op opcode) {
  return std::string("Op") + spvOpcodeString(static_cast<uint32_t>(opcode));
}

bool is_non_semantic(spv_ext_inst_type_t type) {
  return type == SPV_EXT_INST_TYPE_NONSEMANTIC_CLSPVREFLECTION ||
         type == SPV_EXT_INST_TYPE_NONSEMANTIC_SHADER_DEBUGINFO_100 ||
         type == SPV_EXT_INST_TYPE_NONSEMANTIC_UNKNOWN;
}

// What the layout rules of SPIR-V 2.4 (as the validator reads them) allow
// between or after function definitions.
bool allowed_between_functions(const Instruction& instruction) {
  const spv::Op op = instruction.opcode();
  return op == spv::Op::OpLine || op == spv::Op::OpNoLine ||
         (op == spv::Op::OpExtInst && is_non_semantic(instruction.ext_inst_type()));
}

struct ParseState {
  Module module;
  bool in_function = false;
  size_t word_offset = kHeaderWords;  // of the instruction being parsed
  std::string error;                  // set when a callback stops the parse
};

spv_result_t fail(ParseState& state, std::string message) {
  state.error = std::move(message);
  return SPV_ERROR_INVALID_BINARY;
}

spv_result_t on_instruction(void* user_data, const spv_parsed_instruction_t* parsed) {
  auto& state = *static_cast<ParseState*>(user_data);
  std::vector<Operand> operands;
  operands.reserve(parsed->num_operands);
  for (uint16_t i = 0; i < parsed->num_operands; ++i) {
    const spv_parsed_operand_t& operand = parsed->operands[i];
    operands.push_back({operand.offset, operand.num_words, operand.type});
  }
  Instruction instruction(std::vector<uint32_t>(parsed->words, parsed->words + parsed->num_words),
                          std::move(operands), parsed->ext_inst_type);

  Module& module = state.module;
  switch (instruction.opcode()) {
    case spv::Op::OpFunction:
      if (state.in_function) {
        return fail(state, fmt::format("OpFunction %{} inside function %{}", instruction.result_id(),
                                       module.functions.back().id()));
      }
      module.functions.emplace_back().definition = std::move(instruction);
      state.in_function = true;
      break;
    case spv::Op::OpFunctionEnd:
      if (!state.in_function) return fail(state, "OpFunctionEnd outside a function");
      module.functions.back().end = std::move(instruction);
      state.in_function = false;
      break;
    case spv::Op::OpLabel:
      if (!state.in_function) {
        return fail(state, fmt::format("OpLabel %{} outside a function", instruction.result_id()));
      }
      module.functions.back().blocks.emplace_back().label = std::move(instruction);
      break;
    default:
      if (state.in_function) {
        Function& function = module.functions.back();
        if (function.blocks.empty()) {
          function.prelude.push_back(std::move(instruction));
        } else {
          function.blocks.back().instructions.push_back(std::move(instruction));
        }
      } else if (module.functions.empty()) {
        module.globals.push_back(std::move(instruction));
      } else if (allowed_between_functions(instruction)) {
        module.functions.back().trailing.push_back(std::move(instruction));
      } else {
        return fail(state, fmt::format("{} after OpFunctionEnd of function %{}",
                                       op_name(instruction.opcode()), module.functions.back().id()));
      }
      break;
  }
  state.word_offset += parsed->num_words;
  return SPV_SUCCESS;
}

struct ContextDeleter {
  void operator()(spv_context context) const { spvContextDestroy(context); }
};
struct DiagnosticDeleter {
  void operator()(spv_diagnostic diagnostic) const { spvDiagnosticDestroy(diagnostic); }
};

std::optional<Module> failure(DecodeError* error, std::string message, size_t word_offset) {
  if (error) *error = {std::move(message), word_offset};
  return std::nullopt;
}

}  // namespace

std::optional<Module> decode(std::span<const uint32_t> words, DecodeError* error) {
  if (words.empty()) return failure(error, "empty input", 0);
  if (words[0] != kMagic) {
    return failure(error, fmt::format("not a SPIR-V binary: bad magic number {:#010x}", words[0]), 0);
  }
  if (words.size() < kHeaderWords) {
    return failure(error,
                   fmt::format("truncated: the header needs {} words, got {}", kHeaderWords, words.size()),
                   words.size());
  }
  // The parser says little more than "end of input" here; name the instruction.
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0) break;  // the parser reports that one
    if (count > words.size() - at) {
      return failure(error,
                     fmt::format("truncated: {} at word {} has {} words, only {} remain",
                                 op_name(static_cast<spv::Op>(words[at] & 0xFFFFu)), at, count,
                                 words.size() - at),
                     at);
    }
    at += count;
  }

  ParseState state;
  state.module.header = {words[0], words[1], words[2], words[3], words[4]};
  std::unique_ptr<spv_context_t, ContextDeleter> context(spvContextCreate(SPV_ENV_UNIVERSAL_1_6));
  spv_diagnostic raw_diagnostic = nullptr;
  const spv_result_t result = spvBinaryParse(context.get(), &state, words.data(), words.size(),
                                             nullptr, on_instruction, &raw_diagnostic);
  std::unique_ptr<spv_diagnostic_t, DiagnosticDeleter> diagnostic(raw_diagnostic);
  if (result != SPV_SUCCESS) {
    if (!state.error.empty()) return failure(error, std::move(state.error), state.word_offset);
    std::string message = diagnostic && diagnostic->error ? diagnostic->error : "invalid SPIR-V binary";
    return failure(error, std::move(message), state.word_offset);
  }
  if (state.in_function) {
    return failure(error, fmt::format("missing OpFunctionEnd for function %{}", state.module.functions.back().id()),
                   words.size());
  }
  return std::move(state.module);
}

std::optional<Module> decode_bytes(std::string_view bytes, DecodeError* error) {
  if (bytes.size() % 4 != 0) {
    return failure(error, fmt::format("truncated: {} bytes is not a multiple of 4", bytes.size()),
                   bytes.size() / 4);
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  if (!words.empty() && words[0] == __builtin_bswap32(kMagic)) {
    for (uint32_t& word : words) word = __builtin_bswap32(word);
  }
  return decode(words, error);
}

}  // namespace klint::ir
