#include "runner/widen.h"

#include <fmt/format.h>

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "analyzer/ir/module.h"
#include "analyzer/ir/opcodes.h"

namespace klint::runner {

namespace {

using spv::Op;

// Arithmetic that a widened operand makes 32-bit: it computes a float of its
// operands' type from them, and nothing else.
bool is_widenable(const ir::Instruction& i) {
  switch (i.opcode()) {
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod:
    case Op::OpFNegate:
    case Op::OpVectorTimesScalar:
    case Op::OpDot:
    case Op::OpCompositeConstruct:
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpVectorShuffle:
    case Op::OpCopyObject:
    case Op::OpSelect:
    case Op::OpPhi:
      return true;
    case Op::OpExtInst:
      if (i.ext_inst_type() != SPV_EXT_INST_TYPE_GLSL_STD_450) return false;
      switch (i.word(3)) {
        case GLSLstd450Round: case GLSLstd450RoundEven: case GLSLstd450Trunc: case GLSLstd450FAbs:
        case GLSLstd450FSign: case GLSLstd450Floor: case GLSLstd450Ceil: case GLSLstd450Fract:
        case GLSLstd450Sin: case GLSLstd450Cos: case GLSLstd450Tan: case GLSLstd450Asin: case GLSLstd450Acos:
        case GLSLstd450Atan: case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh:
        case GLSLstd450Atan2: case GLSLstd450Pow: case GLSLstd450Exp: case GLSLstd450Log: case GLSLstd450Exp2:
        case GLSLstd450Log2: case GLSLstd450Sqrt: case GLSLstd450InverseSqrt: case GLSLstd450FMin:
        case GLSLstd450FMax: case GLSLstd450FClamp: case GLSLstd450FMix: case GLSLstd450Step:
        case GLSLstd450SmoothStep: case GLSLstd450Fma: case GLSLstd450Length: case GLSLstd450Distance:
        case GLSLstd450Cross: case GLSLstd450Normalize: case GLSLstd450Reflect: case GLSLstd450NMin:
        case GLSLstd450NMax: case GLSLstd450NClamp:
          return true;
        default:
          return false;
      }
    default:
      return false;
  }
}

bool is_nonsemantic(const ir::Instruction& i) {
  return i.opcode() == Op::OpExtInst && (i.ext_inst_type() == SPV_EXT_INST_TYPE_NONSEMANTIC_UNKNOWN ||
                                         i.ext_inst_type() == SPV_EXT_INST_TYPE_NONSEMANTIC_SHADER_DEBUGINFO_100 ||
                                         i.ext_inst_type() == SPV_EXT_INST_TYPE_NONSEMANTIC_CLSPVREFLECTION);
}

// The instruction with its result type and some id operands replaced (same
// layout, so the operands parsed before still hold).
ir::Instruction rewritten(const ir::Instruction& i, uint32_t type, const std::map<size_t, uint32_t>& operands) {
  std::vector<uint32_t> words(i.words().begin(), i.words().end());
  for (const auto& [index, value] : operands) words[i.operands()[index].offset] = value;
  if (type && i.type_id()) words[i.operands()[0].offset] = type;
  return ir::Instruction(std::move(words), i.operands(), i.ext_inst_type());
}

// The id operands an instruction reads, as indices into operands(): not its
// result type or result.
std::vector<size_t> read_operands(const ir::Instruction& i) {
  std::vector<size_t> out;
  for (size_t k = 0; k < i.operands().size(); ++k) {
    const spv_operand_type_t type = i.operands()[k].type;
    if (type == SPV_OPERAND_TYPE_ID) out.push_back(k);
  }
  return out;
}

class Widener {
 public:
  explicit Widener(ir::Module& module) : module_(module) {
    for (const ir::Instruction& i : module.globals) index(i);
    for (const ir::Function& f : module.functions) {
      for (const ir::Instruction& i : f.prelude) index(i);
      for (const ir::Block& b : f.blocks) {
        for (const ir::Instruction& i : b.instructions) index(i);
      }
    }
  }

  // A 16-bit float scalar or vector.
  bool is_half(uint32_t type) const {
    const ir::Instruction* t = type_def(type);
    if (t && t->opcode() == Op::OpTypeVector) t = type_def(t->word(1));
    return t && t->opcode() == Op::OpTypeFloat && t->word(1) == 16;
  }

  // A phi or Function variable of a cooperative matrix.
  bool holds_matrix(const ir::Instruction& i) const {
    const ir::Instruction* t = type_def(i.type_id());
    if (i.opcode() == Op::OpVariable && t && t->opcode() == Op::OpTypePointer) {
      t = type_def(t->word(2));
    } else if (i.opcode() != Op::OpPhi) {
      return false;
    }
    return t && (t->opcode() == Op::OpTypeCooperativeMatrixNV || t->opcode() == ir::kOpTypeCooperativeMatrixKHR);
  }

  // A half, or an array of halves (of arrays ...).
  bool holds_halves(uint32_t type) const {
    const ir::Instruction* t = type_def(type);
    while (t && t->opcode() == Op::OpTypeArray) t = type_def(t->word(1));
    return t && is_half(t->result_id());
  }

  bool is_seed(const ir::Instruction& i) const {
    if (i.opcode() == Op::OpPhi) return is_half(i.type_id());
    if (i.opcode() != Op::OpVariable || i.word(2) != static_cast<uint32_t>(spv::StorageClass::Function)) return false;
    const ir::Instruction* pointer = type_def(i.type_id());
    return pointer && pointer->opcode() == Op::OpTypePointer && holds_halves(pointer->word(2));
  }

  bool widen(const std::vector<size_t>& ordinals, std::string* error) {
    size_t ordinal = 0;
    module_.for_each_instruction([&](const ir::Instruction& i) {
      if (std::find(ordinals.begin(), ordinals.end(), ++ordinal) == ordinals.end() || !is_seed(i)) return;
      (i.opcode() == Op::OpPhi ? values_ : pointers_).insert(i.result_id());
    });
    if (values_.empty() && pointers_.empty()) return fail(error, "no 16-bit float accumulator to widen");
    if (!spread(error)) return false;
    for (ir::Function& f : module_.functions) {
      if (!rewrite(f, error)) return false;
    }
    return true;
  }

 private:
  void index(const ir::Instruction& i) {
    if (!i.result_id()) return;
    if (i.type_id()) {
      type_of_[i.result_id()] = i.type_id();
    } else {
      types_.emplace(i.result_id(), i);
    }
  }

  const ir::Instruction* type_def(uint32_t id) const {
    auto it = types_.find(id);
    return it == types_.end() ? nullptr : &it->second;
  }

  uint32_t type_of(uint32_t value) const {
    auto it = type_of_.find(value);
    return it == type_of_.end() ? 0 : it->second;
  }

  static bool fail(std::string* error, std::string why) {
    if (error) *error = std::move(why);
    return false;
  }
  static std::nullopt_t refuse(std::string* error, std::string why) {
    fail(error, std::move(why));
    return std::nullopt;
  }

  // The 32-bit type of a 16-bit one: scalar, vector, array or Function pointer.
  uint32_t wide(uint32_t type) {
    if (auto it = wide_.find(type); it != wide_.end()) return it->second;
    const ir::Instruction* t = type_def(type);
    if (!t) return 0;
    uint32_t result = 0;
    switch (t->opcode()) {
      case Op::OpTypeFloat:
        result = t->word(1) == 16 ? add_type(Op::OpTypeFloat, {ir::literal(32)}) : 0;
        break;
      case Op::OpTypeVector:
        if (uint32_t component = wide(t->word(1))) {
          result = add_type(Op::OpTypeVector, {ir::id(component), ir::literal(t->word(2))});
        }
        break;
      case Op::OpTypeArray:
        if (uint32_t element = wide(t->word(1))) {
          // An array type of its own: one found could carry an ArrayStride.
          result = module_.allocate_id();
          ir::Instruction array = ir::make_instruction(Op::OpTypeArray, 0, result, {ir::id(element), ir::id(t->word(2))});
          types_.emplace(result, array);
          module_.add_global(std::move(array));
        }
        break;
      case Op::OpTypePointer:
        if (uint32_t pointee = wide(t->word(2))) {
          result = add_type(Op::OpTypePointer, {ir::literal(t->word(1)), ir::id(pointee)});
        }
        break;
      default:
        break;
    }
    wide_[type] = result;
    return result;
  }

  uint32_t add_type(Op opcode, std::initializer_list<ir::NewOperand> operands) {
    const uint32_t id = module_.find_or_add_global(opcode, 0, operands);
    if (!types_.count(id)) types_.emplace(id, ir::make_instruction(opcode, 0, id, operands));
    return id;
  }

  // Everything computed from the accumulators, to a fixed point.
  bool spread(std::string* error) {
    for (bool changed = true; changed;) {
      changed = false;
      for (const ir::Function& f : module_.functions) {
        for (const ir::Block& b : f.blocks) {
          for (const ir::Instruction& i : b.instructions) {
            const uint32_t r = i.result_id();
            if (!r || values_.count(r) || pointers_.count(r)) continue;
            const Op op = i.opcode();
            if ((op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain) && pointers_.count(i.word(2))) {
              changed = pointers_.insert(r).second;
            } else if (op == Op::OpLoad && pointers_.count(i.word(2))) {
              if (!is_half(i.type_id())) return fail(error, "the accumulator is loaded whole, not by element");
              changed = values_.insert(r).second;
            } else if (is_widenable(i) && is_half(i.type_id())) {
              const std::vector<uint32_t> inputs = i.input_ids();
              if (std::any_of(inputs.begin(), inputs.end(), [&](uint32_t v) { return values_.count(v) != 0; })) {
                changed = values_.insert(r).second;
              }
            }
          }
        }
      }
    }
    return true;
  }

  ir::Instruction convert(uint32_t to_type, uint32_t value) {
    const uint32_t id = module_.allocate_id();
    return ir::make_instruction(Op::OpFConvert, to_type, id, {ir::id(value)});
  }

  bool rewrite(ir::Function& f, std::string* error) {
    // A widened phi reads its narrow incoming values converted at the end of
    // the block they come from.
    std::map<uint32_t, std::vector<ir::Instruction>> at_end;  // block id: conversions
    std::map<const ir::Instruction*, std::map<size_t, uint32_t>> phi_inputs;
    for (const ir::Block& b : f.blocks) {
      for (const ir::Instruction& i : b.instructions) {
        if (i.opcode() != Op::OpPhi || !values_.count(i.result_id())) continue;
        for (size_t k = 2; k + 1 < i.operands().size(); k += 2) {
          const uint32_t value = i.word(k);
          if (values_.count(value) || !is_half(type_of(value))) continue;
          ir::Instruction up = convert(wide(type_of(value)), value);
          phi_inputs[&i][k] = up.result_id();
          at_end[i.word(k + 1)].push_back(std::move(up));
        }
      }
    }
    for (ir::Block& b : f.blocks) {
      std::vector<ir::Instruction> out;
      out.reserve(b.instructions.size());
      const size_t end = b.body_end();
      for (size_t n = 0; n < b.instructions.size(); ++n) {
        if (n == end) {
          for (ir::Instruction& up : at_end[b.id()]) out.push_back(std::move(up));
        }
        const ir::Instruction& i = b.instructions[n];
        std::optional<ir::Instruction> next = rewrite(i, phi_inputs, out, error);
        if (!next) return false;
        out.push_back(std::move(*next));
      }
      if (end >= b.instructions.size()) {
        for (ir::Instruction& up : at_end[b.id()]) out.push_back(std::move(up));
      }
      b.instructions = std::move(out);
    }
    return true;
  }

  // The instruction as the widened module has it, after the conversions it
  // needs, which go to `out`.
  std::optional<ir::Instruction> rewrite(const ir::Instruction& i,
                                         const std::map<const ir::Instruction*, std::map<size_t, uint32_t>>& phi_inputs,
                                         std::vector<ir::Instruction>& out, std::string* error) {
    if (i.is_debug_line() || is_nonsemantic(i)) return i;
    const Op op = i.opcode();
    const uint32_t r = i.result_id();
    std::map<size_t, uint32_t> replaced;
    for (size_t k : read_operands(i)) {
      if (!pointers_.count(i.word(k))) continue;
      const bool chained = op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain || op == Op::OpLoad;
      const bool allowed = (chained && k == 2) || (op == Op::OpStore && k == 0);
      if (!allowed) {
        return refuse(error, fmt::format("the accumulator's memory is used by an Op{}",
                                         spvOpcodeString(static_cast<uint32_t>(op))));
      }
    }
    if (op == Op::OpVariable && pointers_.count(r)) {
      if (i.operands().size() > 3) return refuse(error, "the accumulator's variable has an initializer");
      return rewritten(i, wide(i.type_id()), {});
    }
    if ((op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain) && pointers_.count(r)) {
      const uint32_t type = wide(i.type_id());
      if (!type) return refuse(error, "the accumulator holds something other than 16-bit floats");
      return rewritten(i, type, {});
    }
    if (values_.count(r)) {
      if (op == Op::OpPhi) {
        auto it = phi_inputs.find(&i);
        return rewritten(i, wide(i.type_id()), it == phi_inputs.end() ? std::map<size_t, uint32_t>{} : it->second);
      }
      for (size_t k : read_operands(i)) {
        const uint32_t value = i.word(k);
        if (values_.count(value) || !is_half(type_of(value))) continue;
        out.push_back(convert(wide(type_of(value)), value));
        replaced[k] = out.back().result_id();
      }
      return rewritten(i, wide(i.type_id()), replaced);
    }
    if (op == Op::OpStore && pointers_.count(i.word(0))) {
      const uint32_t value = i.word(1);
      if (values_.count(value)) return i;
      if (!is_half(type_of(value))) return refuse(error, "the accumulator is stored whole, not by element");
      out.push_back(convert(wide(type_of(value)), value));
      return rewritten(i, 0, {{1, out.back().result_id()}});
    }
    // The fix's one conversion: already 32 bits.
    if (op == Op::OpFConvert && values_.count(i.word(2))) {
      const ir::Instruction* to = type_def(i.type_id());
      if (to && to->opcode() == Op::OpTypeVector) to = type_def(to->word(1));
      if (to && to->opcode() == Op::OpTypeFloat && to->word(1) == 32) {
        return ir::make_instruction(Op::OpCopyObject, i.type_id(), r, {ir::id(i.word(2))});
      }
      return i;
    }
    // Anything else reads the value as the kernel had it: 16 bits.
    for (size_t k : read_operands(i)) {
      const uint32_t value = i.word(k);
      if (!values_.count(value)) continue;
      out.push_back(convert(type_of(value), value));
      replaced[k] = out.back().result_id();
    }
    return replaced.empty() ? i : rewritten(i, 0, replaced);
  }

  ir::Module& module_;
  std::unordered_map<uint32_t, ir::Instruction> types_;  // by result id
  std::unordered_map<uint32_t, uint32_t> type_of_;       // value: its type
  std::unordered_map<uint32_t, uint32_t> wide_;          // 16-bit type: its 32-bit one
  std::set<uint32_t> values_;                            // widened values
  std::set<uint32_t> pointers_;                          // pointers into widened variables
};

}  // namespace

std::optional<std::vector<uint32_t>> widen_accumulators(std::span<const uint32_t> spirv,
                                                        const std::vector<size_t>& ordinals, std::string* error) {
  ir::DecodeError decode_error;
  std::optional<ir::Module> module = ir::decode(spirv, &decode_error);
  if (!module) {
    if (error) *error = decode_error.message;
    return std::nullopt;
  }
  Widener widener(*module);
  if (!widener.widen(ordinals, error)) return std::nullopt;
  return ir::encode(*module);
}

std::vector<size_t> half_accumulators(std::span<const uint32_t> spirv, const std::vector<size_t>& ordinals,
                                      bool* matrix) {
  std::vector<size_t> out;
  if (matrix) *matrix = false;
  std::optional<ir::Module> module = ir::decode(spirv, nullptr);
  if (!module) return out;
  Widener widener(*module);
  size_t ordinal = 0;
  module->for_each_instruction([&](const ir::Instruction& i) {
    ++ordinal;
    if (std::find(ordinals.begin(), ordinals.end(), ordinal) == ordinals.end()) return;
    if (widener.is_seed(i)) out.push_back(ordinal);
    if (matrix) *matrix |= widener.holds_matrix(i);
  });
  return out;
}

}  // namespace klint::runner
