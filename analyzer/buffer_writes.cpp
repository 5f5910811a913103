// Divergence through memory the dispatch itself writes: a load at a uniform
// address from a storage buffer that the shader stores to, or updates
// atomically, at bytes the load may read. Part of the uniformity analysis
// (uniformity.h).
#include <algorithm>
#include <unordered_set>

#include "analyzer/accesses.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/module.h"
#include "analyzer/pointers.h"
#include "analyzer/symbolic.h"
#include "analyzer/uniformity.h"

namespace klint {
namespace {

using spv::Op;

// The functions that an entry point running `function` may call, `function`
// among them: where the shader's writes are.
std::vector<const ir::Function*> shader_functions(const Module& module, const ir::Function& function) {
  auto reachable = [&](const ir::Function& root) {
    std::vector<const ir::Function*> out{&root};
    std::unordered_set<const ir::Function*> seen{&root};
    for (size_t i = 0; i < out.size(); ++i) {
      for (const ir::Block& block : out[i]->blocks) {
        for (const ir::Instruction& instruction : block.instructions) {
          if (instruction.opcode() != Op::OpFunctionCall) continue;
          const ir::Function* callee = module.function(instruction.word(2));
          if (callee && seen.insert(callee).second) out.push_back(callee);
        }
      }
    }
    return out;
  };
  std::vector<const ir::Function*> functions;
  for (const EntryPoint& entry : module.entry_points()) {
    if (!entry.function) continue;
    std::vector<const ir::Function*> called = reachable(*entry.function);
    if (std::find(called.begin(), called.end(), &function) == called.end()) continue;
    for (const ir::Function* f : called) {
      if (std::find(functions.begin(), functions.end(), f) == functions.end()) functions.push_back(f);
    }
  }
  return functions.empty() ? reachable(function) : functions;
}

// The bytes of its variable that an access through `path` may touch while it
// stays in bounds: a struct member ends where the next one begins, an array
// element after its stride. An index klint cannot read, a type without an
// explicit layout, leave the whole of what it indexes.
struct ByteRange {
  uint64_t low = 0;
  std::optional<uint64_t> high;  // none: to the end of the buffer
};

ByteRange in_bounds_range(const Module& module, const SymbolicValues& values, const PointerPath& path) {
  ByteRange range;
  const ir::Instruction* pointer_type = module.def(path.variable->type_id());
  if (path.element_step || !pointer_type || pointer_type->opcode() != Op::OpTypePointer) return range;
  uint32_t type_id = pointer_type->word(2);
  for (uint32_t index_id : path.indices) {
    const ir::Instruction* type = module.def(type_id);
    std::optional<int64_t> index = values.value(index_id).constant_value();
    if (!type || !index || *index < 0 || *index >= (int64_t{1} << 32)) break;
    const auto i = static_cast<uint64_t>(*index);
    if (type->opcode() == Op::OpTypeStruct) {
      const size_t members = type->operands().size() - 1;
      if (i >= members) break;
      auto offset = module.member_decoration(type_id, static_cast<uint32_t>(i), spv::Decoration::Offset);
      if (!offset) break;
      std::optional<uint64_t> end = range.high;
      for (uint32_t other = 0; other < members; ++other) {
        auto next = module.member_decoration(type_id, other, spv::Decoration::Offset);
        if (next && *next > *offset && (!end || range.low + *next < *end)) end = range.low + *next;
      }
      range = {range.low + *offset, end};
      type_id = type->word(1 + i);
    } else if (type->opcode() == Op::OpTypeArray || type->opcode() == Op::OpTypeRuntimeArray) {
      auto stride = module.decoration(type_id, spv::Decoration::ArrayStride);
      if (!stride || *stride == 0) break;
      uint64_t low = range.low + i * *stride;
      range = {low, range.high ? std::min(*range.high, low + *stride) : low + *stride};
      type_id = type->word(1);
    } else {
      break;
    }
  }
  return range;
}

bool overlaps(uint64_t low_a, std::optional<uint64_t> high_a, uint64_t low_b, std::optional<uint64_t> high_b) {
  return (!high_b || low_a < *high_b) && (!high_a || low_b < *high_a);
}

// The bytes `pointer` may touch in `variable`, the variable of one of its
// accesses: all of it when the pointer takes another path there.
ByteRange range_in(const Module& module, const ir::Function& function, uint32_t pointer, uint32_t variable) {
  std::optional<PointerPath> path = pointer_path(module, pointer);
  if (!path || path->variable->result_id() != variable) return {};
  return in_bounds_range(module, module.symbolic(function), *path);
}

bool writes_memory(const ir::Instruction& instruction) {
  Op op = instruction.opcode();
  return op == Op::OpStore || op == Op::OpCopyMemory || op == Op::OpCopyMemorySized ||
         op == Op::OpAtomicStore || op == Op::OpAtomicFlagClear || op == Op::OpCooperativeMatrixStoreNV ||
         op == ir::kOpCooperativeMatrixStoreKHR || (ir::is_atomic_with_result(op) && op != Op::OpAtomicLoad);
}

// The pointer a write goes through.
uint32_t written_pointer(const ir::Instruction& instruction) {
  return ir::is_atomic_with_result(instruction.opcode()) ? instruction.word(2) : instruction.word(0);
}

}  // namespace

bool Uniformity::propagate_written_loads() {
  // A storage buffer that the shader writes may change between the loads of
  // two invocations, at any address.
  bool changed = false;
  for (auto [load, write] : written_loads_) {
    if (!values_.count(load->result_id())) changed |= mark(load->result_id(), {Divergence::Kind::Memory, write, {}});
  }
  return changed;
}

void Uniformity::find_buffer_writes() {
  // At subgroup scope, lanes that run a load together read it at once.
  if (scope_.level != UniformityScope::Level::Workgroup) return;
  for (const ir::Function* function : shader_functions(module_, function_)) {
    for (const MemoryAccess& access : module_.accesses(*function).all()) {
      if (access.storage != spv::StorageClass::StorageBuffer || !writes_memory(*access.instruction)) continue;
      // Rows of a cooperative matrix, and sized copies, reach past the
      // element the pointer names.
      Op op = access.instruction->opcode();
      bool past_pointee = op == Op::OpCooperativeMatrixStoreNV || op == ir::kOpCooperativeMatrixStoreKHR ||
                          op == Op::OpCopyMemorySized;
      ByteRange range = past_pointee ? ByteRange{} : range_in(module_, *function, access.pointer, access.variable);
      buffer_writes_.push_back({access.variable, range.low, range.high, access.instruction});
    }
    if (physical_write_) continue;
    for (const ir::Block& block : function->blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        if (!writes_memory(instruction)) continue;
        if (module_.storage_class(written_pointer(instruction)) == spv::StorageClass::PhysicalStorageBuffer) {
          physical_write_ = &instruction;
          break;
        }
      }
      if (physical_write_) break;
    }
  }
  if (buffer_writes_.empty() && !physical_write_) return;
  for (const ir::Block& block : function_.blocks) {
    for (const ir::Instruction& instruction : block.instructions) {
      if (instruction.opcode() != Op::OpLoad) continue;
      if (const ir::Instruction* write = written_by_shader(instruction)) written_loads_.emplace_back(&instruction, write);
    }
  }
}

const ir::Instruction* Uniformity::written_by_shader(const ir::Instruction& load) const {
  // A physical storage buffer pointer may alias any other: any such write.
  if (module_.storage_class(load.word(2)) == spv::StorageClass::PhysicalStorageBuffer) return physical_write_;
  if (buffer_writes_.empty()) return nullptr;
  for (const MemoryAccess& access : module_.accesses(function_).of(load)) {
    if (access.storage != spv::StorageClass::StorageBuffer) continue;
    ByteRange range = range_in(module_, function_, access.pointer, access.variable);
    for (const BufferWrite& write : buffer_writes_) {
      if (write.variable == access.variable && overlaps(range.low, range.high, write.low, write.high)) {
        return write.instruction;
      }
    }
  }
  return nullptr;
}

}  // namespace klint
