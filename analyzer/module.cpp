#include "analyzer/module.h"

#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <type_traits>

#include "analyzer/accesses.h"
#include "analyzer/barrier_intervals.h"
#include "analyzer/collision.h"
#include "analyzer/loops.h"
#include "analyzer/symbolic.h"
#include "analyzer/uniformity.h"

namespace klint {

struct Module::FunctionAnalyses {
  explicit FunctionAnalyses(const ir::Function& function) : cfg(function) {}
  Cfg cfg;
  std::unique_ptr<DominatorTree> dominators;
  std::unique_ptr<DominatorTree> post_dominators;
  std::unique_ptr<ControlDependence> control_dependence;
  std::optional<std::vector<Loop>> loops;
  std::unique_ptr<Uniformity> uniformity;
  std::unique_ptr<SymbolicValues> symbolic;
  std::unique_ptr<Accesses> accesses;
  std::unique_ptr<CollisionFinder> collisions;
  std::unique_ptr<BarrierIntervals> barrier_intervals;
  std::map<uint32_t, std::unique_ptr<Uniformity>> subgroup_uniformity;  // by max_subgroup_size
};

Module::Module(ir::Module ir, ModuleOrigin origin) : ir_(std::move(ir)), origin_(std::move(origin)) {
  index();
}

Module::~Module() = default;

void Module::index() {
  // Debug lines apply to the instructions after them until OpNoLine or the end
  // of the block; an OpLine before OpFunction gives the function's line.
  struct Line {
    uint32_t file = 0, line = 0, column = 0;
  };
  std::optional<Line> line;
  size_t ordinal = 0;
  const ir::Block* block = nullptr;
  size_t count = 0;
  ir_.for_each_instruction([&](const ir::Instruction&) { ++count; });
  indexed_.reserve(count);
  std::unordered_map<std::string, uint32_t> file_numbers;
  auto file_number = [&](const std::string& path) {
    auto [it, inserted] = file_numbers.try_emplace(path, static_cast<uint32_t>(location_files_.size() + 1));
    if (inserted) location_files_.push_back(path);
    return it->second;
  };
  InlinedCallTracker calls(origin_.function_lines);
  std::map<std::vector<InlinedCall>, uint32_t> chain_numbers;
  auto visit = [&](const ir::Instruction& instruction) {
    ++ordinal;
    Indexed& indexed = indexed_[&instruction];
    indexed.ordinal = ordinal;
    indexed.block = block;
    switch (instruction.opcode()) {
      case spv::Op::OpLine:
        line = Line{instruction.word(0), instruction.word(1), instruction.word(2)};
        if (auto file = strings_.find(line->file); file != strings_.end()) calls.line(file->second, line->line);
        return;
      case spv::Op::OpNoLine:
      case spv::Op::OpLabel:
      case spv::Op::OpFunctionEnd:
        line.reset();
        break;
      default:
        break;
    }
    if (instruction.result_id() != 0) defs_[instruction.result_id()] = &instruction;
    for (uint32_t input : instruction.input_ids()) uses_[input].push_back(&instruction);
    if (!origin_.assembly_lines.empty()) {
      if (ordinal <= origin_.assembly_lines.size()) {
        indexed.file = file_number(origin_.path);
        indexed.line = origin_.assembly_lines[ordinal - 1];
      }
    } else if (line) {
      auto file = strings_.find(line->file);
      // glslang's column for a function definition is that of its parenthesis,
      // which points nowhere useful; the line alone reads better.
      uint32_t column = instruction.opcode() == spv::Op::OpFunction ? 0 : line->column;
      indexed.file = file_number(file != strings_.end() ? file->second : origin_.path);
      indexed.line = line->line;
      indexed.column = column;
    }
    if (block && !calls.calls().empty()) {
      auto [it, inserted] = chain_numbers.try_emplace(calls.calls(), static_cast<uint32_t>(call_chains_.size() + 1));
      if (inserted) call_chains_.push_back(calls.calls());
      indexed.calls = it->second;
    }
  };

  for (const ir::Instruction& instruction : ir_.globals) {
    switch (instruction.opcode()) {
      case spv::Op::OpString: strings_[instruction.result_id()] = instruction.string(1); break;
      case spv::Op::OpName: names_.emplace(instruction.word(0), instruction.string(1)); break;
      case spv::Op::OpMemberName:
        member_names_.emplace(std::pair{instruction.word(0), instruction.word(1)}, instruction.string(2));
        break;
      case spv::Op::OpSource:
        source_language_ = static_cast<spv::SourceLanguage>(instruction.word(0));
        if (instruction.operands().size() > 3) {
          sources_.push_back({strings_[instruction.word(2)], instruction.string(3)});
        }
        break;
      case spv::Op::OpSourceContinued:
        if (!sources_.empty()) sources_.back().text += instruction.string(0);
        break;
      case spv::Op::OpDecorate:
      case spv::Op::OpMemberDecorate:
      case spv::Op::OpDecorateId:
        decorations_.emplace(instruction.word(0), &instruction);
        break;
      default: break;
    }
    visit(instruction);
  }
  for (const ir::Function& function : ir_.functions) {
    calls.enter_function();
    visit(function.definition);
    for (const ir::Instruction& instruction : function.prelude) visit(instruction);
    for (const ir::Block& b : function.blocks) {
      functions_of_[&b] = &function;
      block = &b;
      visit(b.label);
      for (const ir::Instruction& instruction : b.instructions) visit(instruction);
      block = nullptr;
    }
    visit(function.end);
    for (const ir::Instruction& instruction : function.trailing) visit(instruction);
  }

  for (const ir::Instruction& instruction : ir_.globals) {
    if (instruction.opcode() != spv::Op::OpEntryPoint) continue;
    entry_points_.push_back(EntryPoint{static_cast<spv::ExecutionModel>(instruction.word(0)),
                                       instruction.string(2), function(instruction.word(1)), &instruction, {}, {}});
  }
  for (EntryPoint& entry : entry_points_) {
    for (const ir::Instruction& instruction : ir_.globals) {
      bool mode = instruction.opcode() == spv::Op::OpExecutionMode || instruction.opcode() == spv::Op::OpExecutionModeId;
      if (mode && entry.function && instruction.word(0) == entry.function->id()) {
        entry.execution_modes.push_back(&instruction);
      }
    }
    entry.workgroup_size = workgroup_size(entry);
  }
}

std::optional<WorkgroupDimension> Module::dimension(uint32_t constant_id) const {
  auto value = constant_value(constant_id);
  if (!value) return std::nullopt;
  WorkgroupDimension dimension{*value, std::nullopt};
  dimension.spec_id = spec_id(constant_id);
  if (!dimension.spec_id) return dimension;
  // `layout(local_size_x_id = N)` gets a constant of its own (default 1) that
  // shares SpecId N with the user's `layout(constant_id = N) const uint X = 128`:
  // the user's default is the size the shader is written for.
  dimension.default_declared = names_.count(constant_id) > 0 || origin_.workgroup_size_given;
  for (const auto& [id, decoration] : decorations_) {
    if (id != constant_id && names_.count(id) && spec_id(id) == dimension.spec_id) {
      if (auto declared = constant_value(id)) dimension.value = *declared;
      dimension.default_declared = true;
    }
  }
  return dimension;
}

std::optional<uint32_t> Module::spec_id(uint32_t constant_id) const {
  auto [begin, end] = decorations_.equal_range(constant_id);
  for (auto it = begin; it != end; ++it) {
    const ir::Instruction& d = *it->second;
    if (d.opcode() == spv::Op::OpDecorate && d.word(1) == static_cast<uint32_t>(spv::Decoration::SpecId)) {
      return d.word(2);
    }
  }
  return std::nullopt;
}

std::optional<std::array<WorkgroupDimension, 3>> Module::workgroup_size(const EntryPoint& entry) const {
  std::array<WorkgroupDimension, 3> size;
  auto from_ids = [&](const ir::Instruction& composite, size_t first) -> bool {
    for (size_t i = 0; i < 3; ++i) {
      auto d = dimension(composite.word(first + i));
      if (!d) return false;
      size[i] = *d;
    }
    return true;
  };
  for (const ir::Instruction& instruction : ir_.globals) {
    bool composite = instruction.opcode() == spv::Op::OpConstantComposite ||
                     instruction.opcode() == spv::Op::OpSpecConstantComposite;
    if (composite && instruction.operands().size() == 5 && builtin(instruction.result_id()) == spv::BuiltIn::WorkgroupSize &&
        from_ids(instruction, 2)) {
      return size;
    }
  }
  for (const ir::Instruction* mode : entry.execution_modes) {
    auto kind = static_cast<spv::ExecutionMode>(mode->word(1));
    if (kind == spv::ExecutionMode::LocalSizeId && mode->operands().size() == 5 && from_ids(*mode, 2)) return size;
    if (kind == spv::ExecutionMode::LocalSize && mode->operands().size() == 5) {
      for (size_t i = 0; i < 3; ++i) size[i] = WorkgroupDimension{mode->word(2 + i), std::nullopt};
      return size;
    }
  }
  return std::nullopt;
}

const ir::Instruction* Module::def(uint32_t id) const {
  auto it = defs_.find(id);
  return it == defs_.end() ? nullptr : it->second;
}

const std::vector<const ir::Instruction*>& Module::uses(uint32_t id) const {
  static const std::vector<const ir::Instruction*> kNone;
  auto it = uses_.find(id);
  return it == uses_.end() ? kNone : it->second;
}

const ir::Function* Module::function(uint32_t id) const {
  for (const ir::Function& f : ir_.functions) {
    if (f.id() == id) return &f;
  }
  return nullptr;
}

const ir::Block* Module::block_of(const ir::Instruction& instruction) const {
  auto it = indexed_.find(&instruction);
  return it == indexed_.end() ? nullptr : it->second.block;
}

const ir::Function* Module::function_of(const ir::Block& block) const {
  auto it = functions_of_.find(&block);
  return it == functions_of_.end() ? nullptr : it->second;
}

std::string Module::name(uint32_t id) const {
  auto it = names_.find(id);
  if (it != names_.end() && !it->second.empty()) return it->second;
  return "%" + std::to_string(id);
}

std::optional<spv::BuiltIn> Module::builtin(uint32_t variable_id) const {
  auto [begin, end] = decorations_.equal_range(variable_id);
  for (auto it = begin; it != end; ++it) {
    const ir::Instruction& d = *it->second;
    if (d.opcode() == spv::Op::OpDecorate && d.word(1) == static_cast<uint32_t>(spv::Decoration::BuiltIn)) {
      return static_cast<spv::BuiltIn>(d.word(2));
    }
  }
  return std::nullopt;
}

std::string Module::variable_name(uint32_t variable) const {
  // An anonymous block's instance (`shared Tile { ... };`) goes by its block's name.
  if (auto it = names_.find(variable); it == names_.end() || it->second.empty()) {
    const ir::Instruction* def = this->def(variable);
    const ir::Instruction* pointer = def && def->opcode() == spv::Op::OpVariable ? this->def(def->type_id()) : nullptr;
    if (auto block = pointer ? names_.find(pointer->word(2)) : names_.end(); block != names_.end() && !block->second.empty()) {
      return block->second;
    }
  }
  return name(variable);
}

std::string Module::member_name(uint32_t struct_id, uint32_t member) const {
  auto it = member_names_.find({struct_id, member});
  return it != member_names_.end() ? it->second : std::string();
}

bool Module::has_decoration(uint32_t id, spv::Decoration decoration) const {
  auto [begin, end] = decorations_.equal_range(id);
  return std::any_of(begin, end, [&](const auto& entry) {
    const ir::Instruction& d = *entry.second;
    return d.opcode() == spv::Op::OpDecorate && d.word(1) == static_cast<uint32_t>(decoration);
  });
}

std::optional<uint32_t> Module::decoration(uint32_t id, spv::Decoration decoration) const {
  auto [begin, end] = decorations_.equal_range(id);
  for (auto it = begin; it != end; ++it) {
    const ir::Instruction& d = *it->second;
    if (d.opcode() == spv::Op::OpDecorate && d.word(1) == static_cast<uint32_t>(decoration)) {
      return d.operands().size() > 2 ? d.word(2) : 0;
    }
  }
  return std::nullopt;
}

std::optional<uint32_t> Module::member_decoration(uint32_t struct_id, uint32_t member,
                                                  spv::Decoration decoration) const {
  auto [begin, end] = decorations_.equal_range(struct_id);
  for (auto it = begin; it != end; ++it) {
    const ir::Instruction& d = *it->second;
    if (d.opcode() == spv::Op::OpMemberDecorate && d.word(1) == member &&
        d.word(2) == static_cast<uint32_t>(decoration)) {
      return d.operands().size() > 3 ? d.word(3) : 0;
    }
  }
  return std::nullopt;
}

std::optional<uint64_t> Module::constant_value(uint32_t id) const { return constant_value(id, 0); }

bool Module::reads_specialization_default(uint32_t id) const {
  std::set<uint32_t> dimensions;
  for (const EntryPoint& entry : entry_points_) {
    if (!entry.workgroup_size) continue;
    for (const WorkgroupDimension& dimension : *entry.workgroup_size) {
      if (dimension.spec_id) dimensions.insert(*dimension.spec_id);
    }
  }
  std::set<uint32_t> seen;
  std::vector<uint32_t> work{id};
  while (!work.empty()) {
    uint32_t next = work.back();
    work.pop_back();
    if (!seen.insert(next).second || seen.size() > 4096) continue;
    const ir::Instruction* def = this->def(next);
    if (!def) continue;
    switch (def->opcode()) {
      case spv::Op::OpSpecConstant: case spv::Op::OpSpecConstantTrue: case spv::Op::OpSpecConstantFalse: {
        std::optional<uint32_t> spec = spec_id(next);
        if (spec && !origin_.given_spec_ids.count(*spec) && !dimensions.count(*spec)) return true;
        continue;
      }
      case spv::Op::OpVariable: case spv::Op::OpLoad: case spv::Op::OpFunctionParameter: case spv::Op::OpFunctionCall:
        continue;  // memory, or beyond this function
      default: break;
    }
    if (def->result_id() == 0) continue;
    for (uint32_t input : def->input_ids()) work.push_back(input);
  }
  return false;
}

std::optional<uint64_t> Module::constant_value(uint32_t id, int depth) const {
  const ir::Instruction* c = def(id);
  if (!c || depth > 32) return std::nullopt;
  const ir::Instruction* type = def(c->type_id());
  if (!type || type->opcode() != spv::Op::OpTypeInt) return std::nullopt;
  uint32_t width = type->word(1);
  uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  if (c->opcode() == spv::Op::OpSpecConstant && !names_.count(id)) {
    // glslang's own constant for `local_size_x_id = N` (default 1) shares
    // SpecId N with the user's named one: the user's default is meant.
    if (auto spec = spec_id(id)) {
      for (const auto& [other, decoration] : decorations_) {
        if (other != id && names_.count(other) && spec_id(other) == spec) return constant_value(other, depth + 1);
      }
    }
  }
  if (c->opcode() == spv::Op::OpConstant || c->opcode() == spv::Op::OpSpecConstant) {
    uint64_t value = c->word(2);
    if (c->operands().size() > 2 && c->operands()[2].num_words == 2) {
      value |= uint64_t{c->words()[c->operands()[2].offset + 1]} << 32;
    }
    return value;
  }
  if (c->opcode() != spv::Op::OpSpecConstantOp || c->operands().size() < 4) return std::nullopt;
  if (static_cast<spv::Op>(c->word(2)) == spv::Op::OpSelect && c->operands().size() >= 6) {
    // `(N > W) ? N / W : 1`, as a size or a count.
    std::optional<bool> condition = constant_bool(c->word(3), depth + 1);
    if (!condition) return std::nullopt;
    return constant_value(*condition ? c->word(4) : c->word(5), depth + 1);
  }
  if (static_cast<spv::Op>(c->word(2)) == spv::Op::OpCompositeExtract && c->operands().size() == 5) {
    // `const uint WG = gl_WorkGroupSize.x`: a component of a constant composite.
    // A dimension the host sets, with no default declared, is unknown: the
    // compiler's 1 is not the size the kernel runs at.
    const ir::Instruction* composite = def(c->word(3));
    bool constant = composite && (composite->opcode() == spv::Op::OpConstantComposite ||
                                  composite->opcode() == spv::Op::OpSpecConstantComposite);
    size_t index = c->word(4);
    if (!constant || index + 2 >= composite->operands().size()) return std::nullopt;
    if (builtin(composite->result_id()) == spv::BuiltIn::WorkgroupSize) {
      std::optional<WorkgroupDimension> dimension = this->dimension(composite->word(index + 2));
      if (!dimension || dimension->left_to_host()) return std::nullopt;
      return dimension->value & mask;
    }
    return constant_value(composite->word(index + 2), depth + 1);
  }
  // `shared float tile[BM * BK]` sizes its array with an expression of
  // specialization constants: evaluate it at their defaults.
  auto a = constant_value(c->word(3), depth + 1);
  auto b = c->operands().size() > 4 ? constant_value(c->word(4), depth + 1) : std::optional<uint64_t>(0);
  if (!a || !b) return std::nullopt;
  auto sign = [&](uint64_t v) { return width < 64 && (v >> (width - 1)) & 1 ? static_cast<int64_t>(v | ~mask) : static_cast<int64_t>(v); };
  std::optional<uint64_t> result;
  switch (static_cast<spv::Op>(c->word(2))) {
    case spv::Op::OpIAdd: result = *a + *b; break;
    case spv::Op::OpISub: result = *a - *b; break;
    case spv::Op::OpIMul: result = *a * *b; break;
    case spv::Op::OpUDiv: if (*b) result = *a / *b; break;
    case spv::Op::OpUMod: if (*b) result = *a % *b; break;
    case spv::Op::OpSDiv: if (*b) result = static_cast<uint64_t>(sign(*a) / sign(*b)); break;
    case spv::Op::OpShiftLeftLogical: if (*b < width) result = *a << *b; break;
    case spv::Op::OpShiftRightLogical: if (*b < width) result = *a >> *b; break;
    case spv::Op::OpBitwiseAnd: result = *a & *b; break;
    case spv::Op::OpBitwiseOr: result = *a | *b; break;
    case spv::Op::OpBitwiseXor: result = *a ^ *b; break;
    case spv::Op::OpUConvert: case spv::Op::OpSConvert: result = *a; break;
    default: break;
  }
  if (result) *result &= mask;
  return result;
}

std::optional<bool> Module::constant_bool(uint32_t id, int depth) const {
  const ir::Instruction* c = def(id);
  if (!c || depth > 32) return std::nullopt;
  switch (c->opcode()) {
    case spv::Op::OpConstantTrue: case spv::Op::OpSpecConstantTrue: return true;
    case spv::Op::OpConstantFalse: case spv::Op::OpSpecConstantFalse: return false;
    case spv::Op::OpSpecConstantOp: break;
    default: return std::nullopt;
  }
  if (c->operands().size() < 4) return std::nullopt;
  const auto op = static_cast<spv::Op>(c->word(2));
  if (op == spv::Op::OpLogicalNot) {
    std::optional<bool> a = constant_bool(c->word(3), depth + 1);
    return a ? std::optional<bool>(!*a) : std::nullopt;
  }
  if (c->operands().size() < 5) return std::nullopt;
  if (op == spv::Op::OpLogicalAnd || op == spv::Op::OpLogicalOr || op == spv::Op::OpLogicalEqual ||
      op == spv::Op::OpLogicalNotEqual) {
    std::optional<bool> a = constant_bool(c->word(3), depth + 1), b = constant_bool(c->word(4), depth + 1);
    if (!a || !b) return std::nullopt;
    if (op == spv::Op::OpLogicalAnd) return *a && *b;
    if (op == spv::Op::OpLogicalOr) return *a || *b;
    return op == spv::Op::OpLogicalEqual ? *a == *b : *a != *b;
  }
  // Unsigned comparisons of integer constants; signed ones of values that
  // fit in 63 bits read the same.
  std::optional<uint64_t> a = constant_value(c->word(3), depth + 1), b = constant_value(c->word(4), depth + 1);
  if (!a || !b) return std::nullopt;
  switch (op) {
    case spv::Op::OpIEqual: return *a == *b;
    case spv::Op::OpINotEqual: return *a != *b;
    case spv::Op::OpUGreaterThan: return *a > *b;
    case spv::Op::OpUGreaterThanEqual: return *a >= *b;
    case spv::Op::OpULessThan: return *a < *b;
    case spv::Op::OpULessThanEqual: return *a <= *b;
    default: return std::nullopt;
  }
}

std::optional<spv::StorageClass> Module::storage_class(uint32_t pointer_id) const {
  const ir::Instruction* value = def(pointer_id);
  if (!value) return std::nullopt;
  const ir::Instruction* type = def(value->type_id());
  if (!type || (type->opcode() != spv::Op::OpTypePointer && type->opcode() != spv::Op::OpTypeForwardPointer)) {
    return std::nullopt;
  }
  return static_cast<spv::StorageClass>(type->word(1));
}

std::optional<uint64_t> Module::type_size(uint32_t type_id) const {
  const ir::Instruction* type = def(type_id);
  if (!type) return std::nullopt;
  switch (type->opcode()) {
    case spv::Op::OpTypeBool: return 4;
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: return type->word(1) / 8;
    case spv::Op::OpTypePointer: return 8;
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeMatrix: {
      auto element = type_size(type->word(1));
      if (!element) return std::nullopt;
      return *element * type->word(2);
    }
    case spv::Op::OpTypeArray: {
      auto element = type_size(type->word(1));
      auto length = constant_value(type->word(2));
      if (!element || !length) return std::nullopt;
      return *element * *length;
    }
    case spv::Op::OpTypeStruct: {
      uint64_t total = 0;
      for (size_t i = 1; i < type->operands().size(); ++i) {
        auto member = type_size(type->word(i));
        if (!member) return std::nullopt;
        total += *member;
      }
      return total;
    }
    default: return std::nullopt;
  }
}

std::optional<Location> Module::indexed_location(const ir::Instruction& instruction) const {
  auto it = indexed_.find(&instruction);
  if (it == indexed_.end() || it->second.file == 0) return std::nullopt;
  return Location{location_files_[it->second.file - 1], it->second.line, it->second.column, 0, {}};
}

std::span<const InlinedCall> Module::inlined_calls(const ir::Instruction& instruction) const {
  auto it = indexed_.find(&instruction);
  if (it == indexed_.end() || it->second.calls == 0) return {};
  return call_chains_[it->second.calls - 1];
}

size_t Module::ordinal(const ir::Instruction& instruction) const {
  auto it = indexed_.find(&instruction);
  return it == indexed_.end() ? 0 : it->second.ordinal;
}

Location Module::location(const ir::Instruction& instruction) const {
  if (auto known = indexed_location(instruction)) return *known;
  return Location{origin_.path, 0, 0, 0, disassemble(instruction)};
}

namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool same_ignoring_case(char a, char b) {
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

// Where `word` stands as a whole identifier in `text`, or npos.
size_t find_word(std::string_view text, std::string_view word, bool any_case) {
  for (size_t at = 0; at + word.size() <= text.size() && !word.empty(); ++at) {
    bool same = any_case ? std::equal(word.begin(), word.end(), text.begin() + at, same_ignoring_case)
                         : text.compare(at, word.size(), word) == 0;
    if (!same) continue;
    bool starts = at == 0 || !is_identifier_char(text[at - 1]);
    bool ends = at + word.size() == text.size() || !is_identifier_char(text[at + word.size()]);
    if (starts && ends) return at;
  }
  return std::string_view::npos;
}

bool contains_word(std::string_view text, std::string_view word) {
  return find_word(text, word, false) != std::string_view::npos;
}

// Code only: a comment that mentions the word is not where it is used.
std::string_view code(std::string_view line) { return line.substr(0, line.find("//")); }

}  // namespace

std::optional<Location> Module::source_line(std::string_view word) const {
  return find_line([&](std::string_view line) { return contains_word(code(line), word); }, word);
}

std::optional<Location> Module::source_line_any_case(std::string_view word) const {
  std::string_view spelled;
  auto found = find_line(
      [&](std::string_view line) {
        size_t at = find_word(code(line), word, true);
        if (at != std::string_view::npos) spelled = line.substr(at, word.size());
        return at != std::string_view::npos;
      },
      word);
  if (found) found->token = std::string(spelled);
  return found;
}

std::optional<std::string> Module::source_line_text(const Location& at) const {
  std::optional<std::string> found;
  find_line(
      [&](std::string_view text, const std::string& path, uint32_t line) {
        if (line != at.line || path != at.file) return false;
        found = std::string(text);
        return true;
      },
      "");
  return found;
}

template <class Match>
std::optional<Location> Module::find_line(Match&& match, std::string_view token) const {
  for (const SourceText& source : sources_) {
    std::string_view text = source.text;
    uint32_t line = 1;
    for (size_t begin = 0; begin < text.size(); ++line) {
      size_t end = text.find('\n', begin);
      if (end == std::string_view::npos) end = text.size();
      // `#line N` numbers the line after it N. glslang puts one after the
      // `// OpModuleProcessed` lines it writes into the source text of a
      // SPIR-V 1.0 module, which has no instruction for them.
      if (std::string_view directive = text.substr(begin, end - begin); directive.starts_with("#line ")) {
        uint32_t number = 0;
        std::string_view digits = directive.substr(6);
        if (std::from_chars(digits.data(), digits.data() + digits.size(), number).ec == std::errc()) {
          line = number - 1;
          begin = end + 1;
          continue;
        }
      }
      const std::string& path = source.path.empty() ? origin_.path : source.path;
      bool matched = false;
      if constexpr (std::is_invocable_v<Match, std::string_view, const std::string&, uint32_t>) {
        matched = match(text.substr(begin, end - begin), path, line);
      } else {
        matched = match(text.substr(begin, end - begin));
      }
      if (matched) return Location{path, line, 0, 0, {}, std::string(token)};
      begin = end + 1;
    }
  }
  return std::nullopt;
}

Location Module::declaration(uint32_t variable_id) const {
  if (const ir::Instruction* variable = def(variable_id)) {
    if (auto known = indexed_location(*variable)) return *known;
  }
  if (const std::string name = variable_name(variable_id); !name.starts_with("%")) {
    auto declares = [&](std::string_view line) {
      line = code(line);
      return (contains_word(line, "shared") || contains_word(line, "groupshared")) && contains_word(line, name);
    };
    if (auto found = find_line(declares, name)) return *found;
  }
  for (const EntryPoint& entry : entry_points_) {
    if (entry.function) return location(entry.function->definition);
  }
  return Location{origin_.path};
}

Location Module::nearest_location(const ir::Instruction& instruction) const {
  Location at = location(instruction);
  const ir::Block* block = block_of(instruction);
  const ir::Function* function = block ? function_of(*block) : nullptr;
  if (at.has_line() || !function) return at;
  const Cfg& graph = cfg(*function);
  const ir::Instruction* until = &instruction;
  for (int index = graph.index_of(block->id()); index >= 0; index = dominators(*function).idom(index)) {
    const ir::Block& current = function->blocks[static_cast<uint32_t>(index)];
    for (const ir::Instruction& candidate : current.instructions) {
      if (&candidate == until) break;
      if (Location line = location(candidate); line.has_line()) at = line;
    }
    if (at.has_line()) return at;
    until = nullptr;
  }
  return location(instruction);
}

namespace {

// Splits disassembly into one string per instruction: newlines inside string
// literals (OpSource text) do not end an instruction.
std::vector<std::string> split_instructions(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string && c == '\\' && i + 1 < text.size()) {
      current += c;
      current += text[++i];
      continue;
    }
    if (c == '"') in_string = !in_string;
    if (c == '\n' && !in_string) {
      out.push_back(std::move(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (!current.empty()) out.push_back(std::move(current));
  return out;
}

}  // namespace

std::string Module::disassemble(const ir::Instruction& instruction) const {
  if (disassembly_.empty()) {
    spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
    std::string text;
    std::vector<uint32_t> words = ir::encode(ir_);
    if (tools.Disassemble(words, &text,
                          SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES)) {
      disassembly_ = split_instructions(text);
    }
  }
  auto it = indexed_.find(&instruction);
  if (it == indexed_.end() || it->second.ordinal > disassembly_.size()) return {};
  std::string line = disassembly_[it->second.ordinal - 1];
  line.erase(0, line.find_first_not_of(' '));
  return line;
}

void Module::note_budget(std::string what) const {
  if (std::find(budget_notes_.begin(), budget_notes_.end(), what) == budget_notes_.end()) {
    budget_notes_.push_back(std::move(what));
  }
}

Module::FunctionAnalyses& Module::analyses(const ir::Function& function) const {
  auto& slot = analyses_[&function];
  if (!slot) slot = std::make_unique<FunctionAnalyses>(function);
  return *slot;
}

const Cfg& Module::cfg(const ir::Function& function) const { return analyses(function).cfg; }

const DominatorTree& Module::dominators(const ir::Function& function) const {
  FunctionAnalyses& a = analyses(function);
  if (!a.dominators) a.dominators = std::make_unique<DominatorTree>(DominatorTree::dominators(a.cfg));
  return *a.dominators;
}

const DominatorTree& Module::post_dominators(const ir::Function& function) const {
  FunctionAnalyses& a = analyses(function);
  if (!a.post_dominators) {
    a.post_dominators = std::make_unique<DominatorTree>(DominatorTree::post_dominators(a.cfg));
  }
  return *a.post_dominators;
}

const ControlDependence& Module::control_dependence(const ir::Function& function) const {
  FunctionAnalyses& a = analyses(function);
  if (!a.control_dependence) {
    a.control_dependence = std::make_unique<ControlDependence>(a.cfg, post_dominators(function));
  }
  return *a.control_dependence;
}

const std::vector<Loop>& Module::loops(const ir::Function& function) const {
  FunctionAnalyses& a = analyses(function);
  if (!a.loops) a.loops = find_loops(*this, function);
  return *a.loops;
}

const Uniformity& Module::uniformity(const ir::Function& function) const {
  FunctionAnalyses& a = analyses(function);
  if (!a.uniformity) a.uniformity = std::make_unique<Uniformity>(*this, function);
  return *a.uniformity;
}

const Uniformity& Module::subgroup_uniformity(const ir::Function& function, uint32_t max_subgroup_size) const {
  auto& slot = analyses(function).subgroup_uniformity[max_subgroup_size];
  if (!slot) {
    slot = std::make_unique<Uniformity>(*this, function,
                                        UniformityScope{UniformityScope::Level::Subgroup, max_subgroup_size});
  }
  return *slot;
}

}  // namespace klint

namespace klint {

const SymbolicValues& Module::symbolic(const ir::Function& function) const {
  FunctionAnalyses& a = analyses(function);
  if (!a.symbolic) a.symbolic = std::make_unique<SymbolicValues>(*this, function);
  return *a.symbolic;
}

const CollisionFinder& Module::collisions(const ir::Function& function) const {
  FunctionAnalyses& a = analyses(function);
  if (!a.collisions) a.collisions = std::make_unique<CollisionFinder>(*this, function);
  return *a.collisions;
}

const BarrierIntervals& Module::barrier_intervals(const ir::Function& function) const {
  FunctionAnalyses& a = analyses(function);
  if (!a.barrier_intervals) a.barrier_intervals = std::make_unique<BarrierIntervals>(*this, function);
  return *a.barrier_intervals;
}

const Accesses& Module::accesses(const ir::Function& function) const {
  FunctionAnalyses& a = analyses(function);
  if (!a.accesses) a.accesses = std::make_unique<Accesses>(*this, function);
  return *a.accesses;
}

}  // namespace klint
