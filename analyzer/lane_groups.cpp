#include "analyzer/lane_groups.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <bit>
#include <deque>
#include <vector>

#include "analyzer/cfg.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/subgroup_facts.h"
#include "analyzer/uniformity.h"

namespace klint {

using spv::Op;

namespace {

constexpr int kMostDepth = 48;
constexpr uint32_t kMostTwos = 63;

uint32_t twos_of(uint64_t value) {
  return value == 0 ? kMostTwos : static_cast<uint32_t>(std::countr_zero(value));
}

bool is_power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

}  // namespace

LaneGroups::LaneGroups(const Module& module, const ir::Function& function, uint32_t size)
    : module_(module), function_(function), size_(size), uniformity_(module.subgroup_uniformity(function, size)) {}

LaneGroups::Form LaneGroups::agreed(uint32_t twos, std::optional<uint64_t> value) {
  Form form;
  form.kind = Form::Kind::Agreed;
  form.twos = value ? twos_of(*value) : std::min(twos, kMostTwos);
  form.value = value;
  return form;
}

LaneGroups::Form LaneGroups::lane(uint64_t stride) {
  Form form;
  form.kind = stride == 0 ? Form::Kind::Split : Form::Kind::Lane;
  form.stride = stride;
  return form;
}

LaneGroups::Form LaneGroups::split() { return Form{}; }

bool LaneGroups::agrees(uint32_t id) const { return form(id).kind == Form::Kind::Agreed; }

const ir::Instruction* LaneGroups::splitting_branch(uint32_t block) const {
  if (auto known = splits_.find(block); known != splits_.end()) return known->second;
  const Cfg& cfg = module_.cfg(function_);
  const ControlDependence& dependence = module_.control_dependence(function_);
  const ir::Instruction* found = nullptr;
  std::vector<bool> seen(cfg.size(), false);
  std::deque<uint32_t> work(dependence.controllers(block).begin(), dependence.controllers(block).end());
  while (!work.empty() && !found) {
    uint32_t controller = work.front();
    work.pop_front();
    if (seen[controller]) continue;
    seen[controller] = true;
    const ir::Instruction& terminator = function_.blocks[controller].terminator();
    bool conditional = terminator.opcode() == Op::OpBranchConditional || terminator.opcode() == Op::OpSwitch;
    if (conditional && !agrees(terminator.word(0))) found = &terminator;
    for (uint32_t next : dependence.controllers(controller)) work.push_back(next);
  }
  splits_[block] = found;
  return found;
}

LaneGroups::Form LaneGroups::form(uint32_t id, int depth) const {
  if (auto known = forms_.find(id); known != forms_.end()) return known->second;
  if (depth > kMostDepth) return split();
  forms_[id] = split();  // a cycle through this value (a phi) agrees on nothing
  Form result = compute(id, depth);
  forms_[id] = result;
  return result;
}

LaneGroups::Form LaneGroups::compute(uint32_t id, int depth) const {
  const ir::Instruction* definition = module_.def(id);
  if (!definition) return split();
  bool uniform = uniformity_.value(id) == nullptr;
  if (auto literal = literal_value(module_, id)) return agreed(0, literal);
  if (!module_.block_of(*definition)) return uniform ? agreed() : split();  // other constants and globals
  if (loaded_builtin(module_, id)) {
    Form builtin = builtin_form(id);
    return builtin.kind == Form::Kind::Split && uniform ? agreed() : builtin;
  }
  Form result;
  switch (definition->opcode()) {
    case Op::OpIEqual: case Op::OpINotEqual: case Op::OpULessThan: case Op::OpULessThanEqual:
    case Op::OpUGreaterThan: case Op::OpUGreaterThanEqual: case Op::OpSLessThan: case Op::OpSLessThanEqual:
    case Op::OpSGreaterThan: case Op::OpSGreaterThanEqual:
      result = comparison(*definition, depth);
      break;
    case Op::OpLogicalAnd: case Op::OpLogicalOr: case Op::OpLogicalNot: case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual: case Op::OpCompositeExtract: case Op::OpCompositeConstruct:
    case Op::OpVectorShuffle: case Op::OpFOrdEqual: case Op::OpFOrdNotEqual: case Op::OpFOrdLessThan:
    case Op::OpFOrdGreaterThan: case Op::OpFOrdLessThanEqual: case Op::OpFOrdGreaterThanEqual:
    case Op::OpFUnordEqual: case Op::OpFUnordNotEqual: case Op::OpFUnordLessThan: case Op::OpFUnordGreaterThan:
    case Op::OpFUnordLessThanEqual: case Op::OpFUnordGreaterThanEqual: case Op::OpFAdd: case Op::OpFSub:
    case Op::OpFMul: case Op::OpFDiv: case Op::OpFNegate: case Op::OpConvertFToU: case Op::OpConvertFToS:
    case Op::OpConvertUToF: case Op::OpConvertSToF: case Op::OpFConvert: case Op::OpDot: case Op::OpIsNan: {
      bool all = true;
      for (uint32_t input : definition->input_ids()) all = all && form(input, depth + 1).kind == Form::Kind::Agreed;
      result = all ? agreed() : split();
      break;
    }
    case Op::OpSelect: {
      Form condition = form(definition->word(2), depth + 1);
      Form a = form(definition->word(3), depth + 1), b = form(definition->word(4), depth + 1);
      if (condition.kind != Form::Kind::Agreed) break;
      if (a.kind == Form::Kind::Agreed && b.kind == Form::Kind::Agreed) {
        result = agreed(std::min(a.twos, b.twos));
      } else if (a.kind == Form::Kind::Lane && b.kind == Form::Kind::Lane && a.stride == b.stride) {
        result = lane(a.stride);
      }
      break;
    }
    default:
      result = ir::is_subgroup_operation(definition->opcode()) ? clustered(*definition)
                                                                : arithmetic(*definition, depth);
      break;
  }
  return result.kind == Form::Kind::Split && uniform ? agreed() : result;
}

LaneGroups::Form LaneGroups::builtin_form(uint32_t id) const {
  std::optional<BuiltinValue> builtin = loaded_builtin(module_, id);
  if (!builtin) return split();
  switch (builtin->builtin) {
    case spv::BuiltIn::SubgroupLocalInvocationId:
    case spv::BuiltIn::LocalInvocationIndex:
      return size_ ? lane(1) : split();
    case spv::BuiltIn::LocalInvocationId:
    case spv::BuiltIn::GlobalInvocationId:
      break;
    default:
      return is_subgroup_uniform(builtin->builtin) ? agreed() : split();
  }
  if (size_ == 0 || builtin->component < 0 || builtin->component > 2) return split();
  // Only sizes written as numbers: a specialization constant may be anything.
  for (const EntryPoint& entry : module_.entry_points()) {
    if (entry.function != &function_ || !entry.workgroup_size) continue;
    const auto& size = *entry.workgroup_size;
    if (size[0].spec_id || size[1].spec_id || size[2].spec_id) return split();
    uint64_t x = size[0].value, y = size[1].value, z = size[2].value;
    bool local = builtin->builtin == spv::BuiltIn::LocalInvocationId;
    switch (builtin->component) {
      case 0:
        // Consecutive indexes run along x; a group stays in one row when rows
        // hold whole groups (and so does a global x, whose row starts at a
        // multiple of the width), or the workgroup is one row.
        if (x % size_ == 0 || (local && y * z == 1)) return lane(1);
        return split();
      case 1:
        return x % size_ == 0 || y == 1 ? agreed() : split();
      default:
        return (x * y) % size_ == 0 || z == 1 ? agreed() : split();
    }
  }
  return split();
}

LaneGroups::Form LaneGroups::clustered(const ir::Instruction& operation) const {
  // A clustered reduction gives every lane of its cluster one value: the
  // same in each group that a cluster holds whole.
  auto op = static_cast<uint32_t>(operation.opcode());
  bool arithmetic = op >= static_cast<uint32_t>(Op::OpGroupNonUniformIAdd) &&
                    op <= static_cast<uint32_t>(Op::OpGroupNonUniformLogicalXor);
  if (!arithmetic || operation.operands().size() < 6 || size_ == 0) return split();
  if (static_cast<spv::GroupOperation>(operation.word(3)) != spv::GroupOperation::ClusteredReduce) return split();
  std::optional<uint64_t> cluster = module_.constant_value(operation.word(5));
  return cluster && *cluster % size_ == 0 ? agreed() : split();
}

uint32_t LaneGroups::width_of(uint32_t id) const {
  const ir::Instruction* definition = module_.def(id);
  const ir::Instruction* type = definition ? module_.def(definition->type_id()) : nullptr;
  return type && type->opcode() == Op::OpTypeInt ? type->word(1) : 0;
}

bool LaneGroups::aligned(const Form& offset, uint64_t block) const {
  if (offset.kind != Form::Kind::Agreed || block == 0) return false;
  if (offset.value) return *offset.value % block == 0;
  return is_power_of_two(block) && offset.twos >= static_cast<uint32_t>(std::countr_zero(block));
}

LaneGroups::Form LaneGroups::divided(const Form& pattern, uint64_t divisor) const {
  if (pattern.kind == Form::Kind::Agreed) {
    bool exact = is_power_of_two(divisor) && pattern.twos >= static_cast<uint32_t>(std::countr_zero(divisor));
    return agreed(exact ? pattern.twos - static_cast<uint32_t>(std::countr_zero(divisor)) : 0,
                  pattern.value ? std::optional(*pattern.value / divisor) : std::nullopt);
  }
  if (pattern.kind != Form::Kind::Lane || divisor == 0 || size_ == 0) return split();
  // base + lane * stride, base a multiple of size * stride: the group's values
  // lie in one block of size * stride, which a multiple of it never straddles.
  if (divisor % (size_ * pattern.stride) == 0) return agreed();
  if (pattern.stride % divisor == 0) return lane(pattern.stride / divisor);
  return split();
}

LaneGroups::Form LaneGroups::remainder(const Form& pattern, uint64_t divisor) const {
  if (pattern.kind == Form::Kind::Agreed) return agreed();
  if (pattern.kind != Form::Kind::Lane || divisor == 0 || size_ == 0) return split();
  if (divisor % (size_ * pattern.stride) == 0) return pattern;  // the base stays a multiple of size * stride
  if (pattern.stride % divisor == 0) return agreed();
  return split();
}

LaneGroups::Form LaneGroups::arithmetic(const ir::Instruction& instruction, int depth) const {
  Op op = instruction.opcode();
  switch (op) {
    case Op::OpCopyObject: case Op::OpBitcast: case Op::OpUConvert: case Op::OpSConvert:
      return form(instruction.word(2), depth + 1);
    case Op::OpSNegate: case Op::OpNot:
      return form(instruction.word(2), depth + 1).kind == Form::Kind::Agreed ? agreed() : split();
    case Op::OpExtInst: {
      bool all = instruction.operands().size() > 4;
      for (size_t i = 4; i < instruction.operands().size(); ++i) {
        all = all && form(instruction.word(i), depth + 1).kind == Form::Kind::Agreed;
      }
      return all ? agreed() : split();
    }
    case Op::OpIAdd: case Op::OpISub: case Op::OpIMul: case Op::OpShiftLeftLogical: case Op::OpUDiv:
    case Op::OpSDiv: case Op::OpShiftRightLogical: case Op::OpShiftRightArithmetic: case Op::OpUMod:
    case Op::OpSMod: case Op::OpSRem: case Op::OpBitwiseAnd: case Op::OpBitwiseOr: case Op::OpBitwiseXor:
      break;
    default:
      return split();
  }
  Form a = form(instruction.word(2), depth + 1), b = form(instruction.word(3), depth + 1);
  bool both_agreed = a.kind == Form::Kind::Agreed && b.kind == Form::Kind::Agreed;
  auto literal = [](const Form& f) { return f.kind == Form::Kind::Agreed ? f.value : std::nullopt; };
  switch (op) {
    case Op::OpIAdd:
    case Op::OpISub: {
      if (both_agreed) {
        std::optional<uint64_t> value;
        if (a.value && b.value && (op == Op::OpIAdd || *a.value >= *b.value)) {
          value = op == Op::OpIAdd ? *a.value + *b.value : *a.value - *b.value;
        }
        return agreed(std::min(a.twos, b.twos), value);
      }
      // A lane pattern moved by a multiple of its block keeps its alignment.
      if (a.kind == Form::Kind::Lane && aligned(b, size_ * a.stride)) return a;
      if (op == Op::OpIAdd && b.kind == Form::Kind::Lane && aligned(a, size_ * b.stride)) return b;
      return split();
    }
    case Op::OpIMul: {
      if (both_agreed) {
        std::optional<uint64_t> value;
        if (a.value && b.value) value = *a.value * *b.value;
        return agreed(a.twos + b.twos, value);
      }
      if (a.kind == Form::Kind::Lane && literal(b) && *literal(b) > 0) return lane(a.stride * *literal(b));
      if (b.kind == Form::Kind::Lane && literal(a) && *literal(a) > 0) return lane(b.stride * *literal(a));
      return split();
    }
    case Op::OpShiftLeftLogical: {
      std::optional<uint64_t> shift = literal(b);
      if (shift && *shift >= 32) return split();
      if (a.kind == Form::Kind::Agreed && shift) {
        return agreed(a.twos + static_cast<uint32_t>(*shift),
                      a.value ? std::optional(*a.value << *shift) : std::nullopt);
      }
      if (both_agreed) return agreed();
      if (a.kind == Form::Kind::Lane && shift) return lane(a.stride << *shift);
      return split();
    }
    case Op::OpUDiv: case Op::OpSDiv: {
      std::optional<uint64_t> divisor = literal(b);
      if (divisor && *divisor > 0) return divided(a, *divisor);
      return both_agreed ? agreed() : split();
    }
    case Op::OpShiftRightLogical: case Op::OpShiftRightArithmetic: {
      std::optional<uint64_t> shift = literal(b);
      if (shift && *shift < 32) return divided(a, uint64_t{1} << *shift);
      return both_agreed ? agreed() : split();
    }
    case Op::OpUMod: case Op::OpSMod: case Op::OpSRem: {
      std::optional<uint64_t> divisor = literal(b);
      if (divisor && *divisor > 0) return remainder(a, *divisor);
      return both_agreed ? agreed() : split();
    }
    case Op::OpBitwiseAnd: {
      if (both_agreed) return agreed(std::max(a.twos, b.twos));
      const Form& pattern = a.kind == Form::Kind::Lane ? a : b;
      std::optional<uint64_t> mask = literal(a.kind == Form::Kind::Lane ? b : a);
      uint32_t width = width_of(instruction.result_id());
      if (pattern.kind != Form::Kind::Lane || !mask || width == 0 || width > 64) return split();
      uint64_t all = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
      if (is_power_of_two(*mask + 1)) return remainder(pattern, *mask + 1);  // `v & (k - 1)` is `v % k`
      uint64_t low = ~*mask & all;
      if (is_power_of_two(low + 1)) {  // `v & ~(k - 1)` is `v / k * k`
        Form quotient = divided(pattern, low + 1);
        if (quotient.kind == Form::Kind::Agreed) return agreed();
        if (quotient.kind == Form::Kind::Lane) return pattern;
      }
      return split();
    }
    default:
      return both_agreed ? agreed() : split();
  }
}

LaneGroups::Form LaneGroups::comparison(const ir::Instruction& instruction, int depth) const {
  Form a = form(instruction.word(2), depth + 1), b = form(instruction.word(3), depth + 1);
  if (a.kind == Form::Kind::Agreed && b.kind == Form::Kind::Agreed) return agreed();
  bool left = a.kind == Form::Kind::Lane && b.kind == Form::Kind::Agreed;
  bool right = b.kind == Form::Kind::Lane && a.kind == Form::Kind::Agreed;
  if (!left && !right) return split();
  const Form& pattern = left ? a : b;
  const Form& bound = left ? b : a;
  // Where the comparison splits the values: `v < K` and `v >= K` at K, `v <= K`
  // and `v > K` at K + 1; with the operands swapped, the other way round.
  bool at_bound;
  switch (instruction.opcode()) {
    case Op::OpULessThan: case Op::OpSLessThan: case Op::OpUGreaterThanEqual: case Op::OpSGreaterThanEqual:
      at_bound = left;
      break;
    case Op::OpULessThanEqual: case Op::OpSLessThanEqual: case Op::OpUGreaterThan: case Op::OpSGreaterThan:
      at_bound = !left;
      break;
    default:
      return split();  // equality holds for some lanes of a group
  }
  uint64_t block = size_ * pattern.stride;
  if (block == 0) return split();
  if (!bound.value) return at_bound && aligned(bound, block) ? agreed() : split();
  // The group's values are base + lane * stride for lanes 0 to size - 1, base
  // a multiple of the block: a split point that falls after the last of them
  // and before the next block leaves every group on one side.
  uint64_t point = (*bound.value + (at_bound ? 0 : 1)) % block;
  return point == 0 || point > (size_ - 1) * pattern.stride ? agreed() : split();
}

}  // namespace klint
