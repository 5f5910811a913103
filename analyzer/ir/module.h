// klint's own model of a SPIR-V module: every instruction kept with its exact
// words, so that an unchanged module re-encodes bit for bit, grouped into the
// sections, functions and blocks that analyses walk.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

namespace klint::ir {

// One operand as SPIRV-Tools' parser classifies it. offset is in words from
// the start of the instruction (the opcode word is offset 0).
struct Operand {
  uint16_t offset = 0;
  uint16_t num_words = 0;
  spv_operand_type_t type = SPV_OPERAND_TYPE_NONE;
};

bool is_id_type(spv_operand_type_t type);

class Instruction {
 public:
  Instruction() = default;
  // Takes the words of one instruction and the operands the parser found.
  Instruction(std::vector<uint32_t> words, std::vector<Operand> operands,
              spv_ext_inst_type_t ext_inst_type = SPV_EXT_INST_TYPE_NONE);

  spv::Op opcode() const { return static_cast<spv::Op>(words_[0] & 0xFFFFu); }
  uint32_t type_id() const { return type_id_; }
  uint32_t result_id() const { return result_id_; }
  std::span<const uint32_t> words() const { return words_; }
  // All operands, result type and result id included, in order.
  const std::vector<Operand>& operands() const { return operands_; }
  spv_ext_inst_type_t ext_inst_type() const { return ext_inst_type_; }

  // The first word of operand `index` (into operands()).
  uint32_t word(size_t index) const { return words_[operands_[index].offset]; }
  // A literal string operand, decoded.
  std::string string(size_t index) const;

  // The ids this instruction reads: every id operand except its result type
  // and result id. Labels of branch targets are included.
  std::vector<uint32_t> input_ids() const;

  bool is_debug_line() const;  // OpLine, OpNoLine, or a NonSemantic DebugLine/DebugNoLine

 private:
  std::vector<uint32_t> words_{0};
  std::vector<Operand> operands_;
  spv_ext_inst_type_t ext_inst_type_ = SPV_EXT_INST_TYPE_NONE;
  uint32_t type_id_ = 0;
  uint32_t result_id_ = 0;
};

// Operand values for building new instructions.
struct NewOperand {
  enum class Kind { Id, Literal, String } kind;
  uint32_t value = 0;
  std::string text;
};
inline NewOperand id(uint32_t value) { return {NewOperand::Kind::Id, value, {}}; }
inline NewOperand literal(uint32_t value) { return {NewOperand::Kind::Literal, value, {}}; }
inline NewOperand string(std::string text) { return {NewOperand::Kind::String, 0, std::move(text)}; }

// Builds an instruction; type_id and result_id are 0 when the opcode has none.
Instruction make_instruction(spv::Op opcode, uint32_t type_id, uint32_t result_id,
                             std::initializer_list<NewOperand> operands);

struct Block {
  Instruction label;
  // Everything after OpLabel up to the next OpLabel or OpFunctionEnd, in order:
  // OpPhi, body, merge instruction, terminator, and interleaved debug lines.
  std::vector<Instruction> instructions;

  uint32_t id() const { return label.result_id(); }
  // The last instruction that is not a debug line (a default Instruction,
  // opcode OpNop, when there is none).
  const Instruction& terminator() const;
  // OpSelectionMerge or OpLoopMerge, or nullptr.
  const Instruction* merge() const;
  // Where instructions go that must run last in the block: the index of the
  // merge instruction, else of the terminator (a merge must stay right before
  // its terminator), else instructions.size().
  size_t body_end() const;
};

struct Function {
  Instruction definition;             // OpFunction
  std::vector<Instruction> prelude;   // OpFunctionParameter and debug lines before the first block
  std::vector<Block> blocks;
  Instruction end;                    // OpFunctionEnd
  // OpLine, OpNoLine and non-semantic OpExtInst between OpFunctionEnd and the
  // next OpFunction or the end of the module: the only ones allowed there.
  std::vector<Instruction> trailing;

  uint32_t id() const { return definition.result_id(); }
};

struct Header {
  uint32_t magic = 0x07230203;
  uint32_t version = 0x00010000;
  uint32_t generator = 0;
  uint32_t bound = 1;
  uint32_t schema = 0;
};

class Module {
 public:
  Header header;
  // Every instruction before the first OpFunction, in module order.
  std::vector<Instruction> globals;
  std::vector<Function> functions;

  // A fresh result id; raises the bound.
  uint32_t allocate_id() { return header.bound++; }

  // Insert into the section where the instruction belongs (capabilities,
  // extensions, names, decorations, types/constants/variables), after the
  // instructions already there.
  void add_global(Instruction instruction);

  // The id of a global with this opcode, type and operands, adding one under a
  // fresh id when there is none. SPIR-V forbids duplicate non-aggregate types,
  // so new code must reuse them. Not for types that carry their own
  // decorations (a Block struct, an array with ArrayStride): add those with
  // add_global under a fresh id.
  uint32_t find_or_add_global(spv::Op opcode, uint32_t type_id,
                              std::initializer_list<NewOperand> operands);

  // Appends a variable to the interface of every OpEntryPoint of this function
  // (from SPIR-V 1.4 it must list every global variable the entry point uses).
  // False when the function is no entry point.
  bool add_entry_point_interface(uint32_t entry_function_id, uint32_t variable_id);

  // Calls f(const Instruction&) for every instruction in module order. The
  // position of an instruction in this walk, counted from 1, is its ordinal:
  // the number SPIRV-Tools' validator reports in spv_position_t::index.
  template <class F>
  void for_each_instruction(F&& f) const {
    for (const Instruction& i : globals) f(i);
    for (const Function& fn : functions) {
      f(fn.definition);
      for (const Instruction& i : fn.prelude) f(i);
      for (const Block& b : fn.blocks) {
        f(b.label);
        for (const Instruction& i : b.instructions) f(i);
      }
      f(fn.end);
      for (const Instruction& i : fn.trailing) f(i);
    }
  }
};

struct DecodeError {
  std::string message;       // e.g. "truncated: 17 bytes is not a multiple of 4"
  size_t word_offset = 0;    // where decoding stopped
};

// Decodes a binary. Fails, never throws, on a bad magic number, truncation,
// malformed instructions, or instructions outside any structure.
std::optional<Module> decode(std::span<const uint32_t> words, DecodeError* error);
// Bytes as read from a .spv file (either endianness).
std::optional<Module> decode_bytes(std::string_view bytes, DecodeError* error);
std::vector<uint32_t> encode(const Module& module);

}  // namespace klint::ir
