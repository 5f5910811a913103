#include "analyzer/layout_padding.h"

#include <algorithm>
#include <optional>

#include "analyzer/pointers.h"

namespace klint {

using spv::Op;

namespace {

// Marks the bytes, from `at`, that a value of `type` holds in an explicit
// layout: a struct's members at their offsets, an array's elements at its
// stride; what is left between them is padding.
void mark_layout(const Module& module, uint32_t type_id, int64_t at, std::vector<bool>& bytes, int depth = 0) {
  const ir::Instruction* type = module.def(type_id);
  int64_t size = static_cast<int64_t>(bytes.size());
  auto mark = [&](int64_t from, int64_t count) {
    for (int64_t b = std::max<int64_t>(from, 0); b < std::min(from + count, size); ++b) bytes[static_cast<size_t>(b)] = true;
  };
  if (!type || depth > 8 || at >= size) return;
  switch (type->opcode()) {
    case Op::OpTypeInt: case Op::OpTypeFloat:
      mark(at, type->word(1) / 8);
      return;
    case Op::OpTypeVector: case Op::OpTypeMatrix: {
      // A matrix's columns as if packed: its stride is its member's decoration.
      const ir::Instruction* part = module.def(type->word(1));
      std::vector<bool> one(bytes.size(), false);
      uint32_t count = type->word(2);
      int64_t part_size = 0;
      if (part && (part->opcode() == Op::OpTypeInt || part->opcode() == Op::OpTypeFloat)) {
        part_size = part->word(1) / 8;
      } else if (part && part->opcode() == Op::OpTypeVector) {
        const ir::Instruction* scalar = module.def(part->word(1));
        part_size = scalar ? int64_t{part->word(2)} * (scalar->word(1) / 8) : 0;
      }
      mark(at, part_size > 0 ? part_size * count : size - at);
      return;
    }
    case Op::OpTypeArray: {
      auto length = module.constant_value(type->word(2));
      auto stride = module.decoration(type_id, spv::Decoration::ArrayStride);
      if (!length || !stride || *stride == 0) return mark(at, size - at);
      for (uint64_t i = 0; i < *length && at + static_cast<int64_t>(i * *stride) < size; ++i) {
        mark_layout(module, type->word(1), at + static_cast<int64_t>(i * *stride), bytes, depth + 1);
      }
      return;
    }
    case Op::OpTypeStruct:
      for (uint32_t member = 0; member + 1 < type->operands().size(); ++member) {
        auto offset = module.member_decoration(type_id, member, spv::Decoration::Offset);
        if (!offset) return mark(at, size - at);
        mark_layout(module, type->word(member + 1), at + *offset, bytes, depth + 1);
      }
      return;
    default:
      mark(at, size - at);  // no layout klint reads: no padding
  }
}

}  // namespace

std::vector<bool> element_padding(const Module& module, uint32_t pointer, int64_t stride) {
  // A map of one record's bytes; a record larger than this (a stride of 2 GiB
  // in a module that declares one) is never one invocation's burst, and its
  // map would take the lint's time and memory.
  constexpr int64_t kLargestRecord = int64_t{1} << 16;
  if (stride <= 0 || stride > kLargestRecord) return {};
  std::optional<PointerPath> path = pointer_path(module, pointer);
  if (!path || path->element_step) return {};
  const ir::Instruction* variable_type = module.def(path->variable->type_id());
  uint32_t type_id = variable_type && variable_type->opcode() == Op::OpTypePointer ? variable_type->word(2) : 0;
  int64_t base = 0;
  for (uint32_t index : path->indices) {
    const ir::Instruction* type = module.def(type_id);
    if (!type) return {};
    if (type->opcode() == Op::OpTypeStruct) {
      auto member = module.constant_value(index);
      auto offset = member ? module.member_decoration(type_id, static_cast<uint32_t>(*member), spv::Decoration::Offset)
                           : std::nullopt;
      if (!offset || *member + 1 >= type->operands().size()) return {};
      base += *offset;
      type_id = type->word(static_cast<size_t>(*member) + 1);
      continue;
    }
    if (type->opcode() != Op::OpTypeArray && type->opcode() != Op::OpTypeRuntimeArray) return {};
    auto array_stride = module.decoration(type_id, spv::Decoration::ArrayStride);
    if (!array_stride) return {};
    if (static_cast<int64_t>(*array_stride) == stride) {
      std::vector<bool> laid(static_cast<size_t>(stride), false);
      mark_layout(module, type->word(1), 0, laid, 0);
      std::vector<bool> padding(static_cast<size_t>(stride), false);
      for (int64_t b = 0; b < stride; ++b) {
        padding[static_cast<size_t>(((base + b) % stride + stride) % stride)] = !laid[static_cast<size_t>(b)];
      }
      return padding;
    }
    auto constant = module.constant_value(index);
    if (!constant) return {};
    base += static_cast<int64_t>(*constant * *array_stride);
    type_id = type->word(1);
  }
  return {};
}

}  // namespace klint
