#include "analyzer/ir/module.h"

#include <spirv/unified1/NonSemanticShaderDebugInfo100.h>

#include <algorithm>
#include <utility>

namespace klint::ir {
namespace {

constexpr size_t kHeaderWords = 5;

void append_operand(std::vector<uint32_t>& words, std::vector<Operand>& operands,
                    const NewOperand& operand) {
  const auto offset = static_cast<uint16_t>(words.size());
  switch (operand.kind) {
    case NewOperand::Kind::Id:
      words.push_back(operand.value);
      operands.push_back({offset, 1, SPV_OPERAND_TYPE_ID});
      break;
    case NewOperand::Kind::Literal:
      words.push_back(operand.value);
      operands.push_back({offset, 1, SPV_OPERAND_TYPE_LITERAL_INTEGER});
      break;
    case NewOperand::Kind::String: {
      // Null-terminated UTF-8, four bytes a word, first byte lowest.
      const size_t num_words = operand.text.size() / 4 + 1;
      for (size_t w = 0; w < num_words; ++w) {
        uint32_t word = 0;
        for (size_t b = 0; b < 4; ++b) {
          const size_t at = w * 4 + b;
          if (at < operand.text.size()) {
            word |= uint32_t{static_cast<uint8_t>(operand.text[at])} << (8 * b);
          }
        }
        words.push_back(word);
      }
      operands.push_back({offset, static_cast<uint16_t>(num_words), SPV_OPERAND_TYPE_LITERAL_STRING});
      break;
    }
  }
}

void set_word_count(std::vector<uint32_t>& words) {
  words[0] = (static_cast<uint32_t>(words.size()) << 16) | (words[0] & 0xFFFFu);
}

bool is_merge(spv::Op opcode) {
  return opcode == spv::Op::OpSelectionMerge || opcode == spv::Op::OpLoopMerge;
}

// The logical layout of SPIR-V 2.4, one rank per section that add_global must
// keep apart. Everything from types on shares the last rank: there, order is
// by definition before use, which appending satisfies.
int layout_rank(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpCapability: return 0;
    case spv::Op::OpExtension: return 1;
    case spv::Op::OpExtInstImport: return 2;
    case spv::Op::OpMemoryModel: return 3;
    case spv::Op::OpEntryPoint: return 4;
    case spv::Op::OpExecutionMode:
    case spv::Op::OpExecutionModeId: return 5;
    case spv::Op::OpString:
    case spv::Op::OpSourceExtension:
    case spv::Op::OpSource:
    case spv::Op::OpSourceContinued: return 6;
    case spv::Op::OpName:
    case spv::Op::OpMemberName: return 7;
    case spv::Op::OpModuleProcessed: return 8;
    case spv::Op::OpDecorate:
    case spv::Op::OpMemberDecorate:
    case spv::Op::OpDecorationGroup:
    case spv::Op::OpGroupDecorate:
    case spv::Op::OpGroupMemberDecorate:
    case spv::Op::OpDecorateId:
    case spv::Op::OpDecorateString:
    case spv::Op::OpMemberDecorateString: return 9;
    default: return 10;
  }
}

// Same instruction up to the result id.
bool same_but_result_id(const Instruction& a, const Instruction& b) {
  if (a.opcode() != b.opcode() || a.words().size() != b.words().size()) return false;
  for (const Operand& operand : a.operands()) {
    if (operand.type == SPV_OPERAND_TYPE_RESULT_ID) continue;
    for (size_t w = operand.offset; w < operand.offset + operand.num_words; ++w) {
      if (w >= b.words().size() || a.words()[w] != b.words()[w]) return false;
    }
  }
  return true;
}

}  // namespace

bool is_id_type(spv_operand_type_t type) {
  switch (type) {
    case SPV_OPERAND_TYPE_ID:
    case SPV_OPERAND_TYPE_TYPE_ID:
    case SPV_OPERAND_TYPE_RESULT_ID:
    case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
    case SPV_OPERAND_TYPE_SCOPE_ID:
      return true;
    default:
      return false;
  }
}

Instruction::Instruction(std::vector<uint32_t> words, std::vector<Operand> operands,
                         spv_ext_inst_type_t ext_inst_type)
    : words_(std::move(words)), operands_(std::move(operands)), ext_inst_type_(ext_inst_type) {
  if (words_.empty()) words_.push_back(0);
  for (const Operand& operand : operands_) {
    if (operand.offset >= words_.size()) continue;
    if (operand.type == SPV_OPERAND_TYPE_TYPE_ID) type_id_ = words_[operand.offset];
    if (operand.type == SPV_OPERAND_TYPE_RESULT_ID) result_id_ = words_[operand.offset];
  }
}

std::string Instruction::string(size_t index) const {
  const Operand& operand = operands_[index];
  std::string text;
  for (size_t w = operand.offset; w < operand.offset + operand.num_words && w < words_.size(); ++w) {
    for (size_t b = 0; b < 4; ++b) {
      const char c = static_cast<char>((words_[w] >> (8 * b)) & 0xFFu);
      if (c == '\0') return text;
      text.push_back(c);
    }
  }
  return text;
}

std::vector<uint32_t> Instruction::input_ids() const {
  std::vector<uint32_t> ids;
  for (const Operand& operand : operands_) {
    if (!is_id_type(operand.type) || operand.type == SPV_OPERAND_TYPE_TYPE_ID ||
        operand.type == SPV_OPERAND_TYPE_RESULT_ID) {
      continue;
    }
    ids.push_back(words_[operand.offset]);
  }
  return ids;
}

bool Instruction::is_debug_line() const {
  const spv::Op op = opcode();
  if (op == spv::Op::OpLine || op == spv::Op::OpNoLine) return true;
  // OpExtInst: type, result, set, instruction number.
  if (op != spv::Op::OpExtInst || ext_inst_type_ != SPV_EXT_INST_TYPE_NONSEMANTIC_SHADER_DEBUGINFO_100 ||
      words_.size() < 5) {
    return false;
  }
  return words_[4] == NonSemanticShaderDebugInfo100DebugLine ||
         words_[4] == NonSemanticShaderDebugInfo100DebugNoLine;
}

Instruction make_instruction(spv::Op opcode, uint32_t type_id, uint32_t result_id,
                             std::initializer_list<NewOperand> operands) {
  std::vector<uint32_t> words{static_cast<uint32_t>(opcode)};
  std::vector<Operand> parsed;
  if (type_id != 0) {
    parsed.push_back({static_cast<uint16_t>(words.size()), 1, SPV_OPERAND_TYPE_TYPE_ID});
    words.push_back(type_id);
  }
  if (result_id != 0) {
    parsed.push_back({static_cast<uint16_t>(words.size()), 1, SPV_OPERAND_TYPE_RESULT_ID});
    words.push_back(result_id);
  }
  for (const NewOperand& operand : operands) append_operand(words, parsed, operand);
  set_word_count(words);
  return Instruction(std::move(words), std::move(parsed));
}

const Instruction& Block::terminator() const {
  static const Instruction kNone;
  for (auto it = instructions.rbegin(); it != instructions.rend(); ++it) {
    if (!it->is_debug_line()) return *it;
  }
  return kNone;
}

const Instruction* Block::merge() const {
  for (const Instruction& instruction : instructions) {
    if (is_merge(instruction.opcode())) return &instruction;
  }
  return nullptr;
}

size_t Block::body_end() const {
  size_t end = instructions.size();
  for (size_t i = instructions.size(); i-- > 0;) {
    if (instructions[i].is_debug_line()) continue;
    if (end == instructions.size()) {
      end = i;  // the terminator
    } else {
      if (is_merge(instructions[i].opcode())) end = i;
      break;
    }
  }
  return end;
}

void Module::add_global(Instruction instruction) {
  const int rank = layout_rank(instruction.opcode());
  auto after = std::find_if(globals.rbegin(), globals.rend(), [rank](const Instruction& existing) {
    return layout_rank(existing.opcode()) <= rank;
  });
  globals.insert(after.base(), std::move(instruction));
}

uint32_t Module::find_or_add_global(spv::Op opcode, uint32_t type_id,
                                    std::initializer_list<NewOperand> operands) {
  // The next fresh id stands in for the result until we know we need it.
  Instruction wanted = make_instruction(opcode, type_id, header.bound, operands);
  for (const Instruction& existing : globals) {
    if (existing.result_id() != 0 && same_but_result_id(existing, wanted)) return existing.result_id();
  }
  const uint32_t result = allocate_id();
  add_global(std::move(wanted));
  return result;
}

bool Module::add_entry_point_interface(uint32_t entry_function_id, uint32_t variable_id) {
  bool found = false;
  for (Instruction& entry : globals) {
    // OpEntryPoint: execution model, function, name, interface ids.
    if (entry.opcode() != spv::Op::OpEntryPoint || entry.operands().size() < 3 ||
        entry.word(1) != entry_function_id) {
      continue;
    }
    found = true;
    const std::vector<uint32_t> interface = entry.input_ids();
    if (std::find(interface.begin(), interface.end(), variable_id) != interface.end()) continue;
    std::vector<uint32_t> words(entry.words().begin(), entry.words().end());
    std::vector<Operand> operands = entry.operands();
    append_operand(words, operands, id(variable_id));
    set_word_count(words);
    entry = Instruction(std::move(words), std::move(operands), entry.ext_inst_type());
  }
  return found;
}

std::vector<uint32_t> encode(const Module& module) {
  std::vector<uint32_t> words{module.header.magic, module.header.version, module.header.generator,
                              module.header.bound, module.header.schema};
  size_t total = kHeaderWords;
  module.for_each_instruction([&](const Instruction& i) { total += i.words().size(); });
  words.reserve(total);
  module.for_each_instruction(
      [&](const Instruction& i) { words.insert(words.end(), i.words().begin(), i.words().end()); });
  return words;
}

}  // namespace klint::ir
