#include "reflect/usage.h"

#include <fmt/core.h>

#include <algorithm>
#include <set>
#include <spirv-tools/libspirv.hpp>

#include "analyzer/barriers.h"
#include "analyzer/ir/module.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/module.h"
#include "analyzer/workgroup_memory.h"

namespace klint::reflect {
namespace {

using spv::Op;


// Functions an entry point runs: its own and every callee, transitively.
std::set<const ir::Function*> reachable_functions(const Module& module, const ir::Function* entry) {
  std::set<const ir::Function*> out;
  std::vector<const ir::Function*> work{entry};
  while (!work.empty()) {
    const ir::Function* function = work.back();
    work.pop_back();
    if (!function || !out.insert(function).second) continue;
    for (const ir::Block& block : function->blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        if (instruction.opcode() == Op::OpFunctionCall) work.push_back(module.function(instruction.word(2)));
      }
    }
  }
  return out;
}

bool is_image_query(Op op) {
  switch (op) {
    case Op::OpImageQuerySizeLod:
    case Op::OpImageQuerySize:
    case Op::OpImageQueryLod:
    case Op::OpImageQueryLevels:
    case Op::OpImageQuerySamples:
    case Op::OpImageQueryFormat:
    case Op::OpImageQueryOrder:
      return true;
    default:
      return false;
  }
}

bool is_handle_type(const ir::Instruction* type) {
  if (!type) return false;
  switch (type->opcode()) {
    case Op::OpTypeImage:
    case Op::OpTypeSampler:
    case Op::OpTypeSampledImage:
    case Op::OpTypeAccelerationStructureKHR:
      return true;
    default:
      return false;
  }
}

// Follows a pointer to a module-scope variable through every instruction the
// entry point runs, and records what the code does with the memory behind it.
class UsageWalker {
 public:
  UsageWalker(const Module& module, const std::set<const ir::Function*>& functions)
      : module_(module), functions_(functions) {}

  VariableUsage walk_variable(uint32_t variable_id) {
    usage_ = {};
    seen_.clear();
    walk_pointer(variable_id);
    return usage_;
  }

  bool used(uint32_t variable_id) const {
    const auto& uses = module_.uses(variable_id);
    return std::any_of(uses.begin(), uses.end(), [&](const ir::Instruction* use) { return runs(*use); });
  }

 private:
  bool runs(const ir::Instruction& instruction) const {
    const ir::Block* block = module_.block_of(instruction);
    return block && functions_.count(module_.function_of(*block));
  }

  void count(MemoryOps& ops, uint32_t type_id) {
    const ir::Instruction* type = module_.def(type_id);
    // A buffer_reference pointer moves as one 64-bit number.
    bool scalar = type && (type->opcode() == Op::OpTypeInt || type->opcode() == Op::OpTypeFloat ||
                           type->opcode() == Op::OpTypeBool || type->opcode() == Op::OpTypePointer);
    ++(scalar ? ops.scalar : ops.vector);
    if (auto bytes = module_.type_size(type_id)) {
      ops.widest_bits = std::max<uint32_t>(ops.widest_bits, static_cast<uint32_t>(*bytes * 8));
    }
  }

  uint32_t pointee_type(uint32_t pointer) const {
    const ir::Instruction* value = module_.def(pointer);
    const ir::Instruction* type = value ? module_.def(value->type_id()) : nullptr;
    return type && type->opcode() == Op::OpTypePointer ? type->word(2) : 0;
  }

  // The callee's parameters that receive `id` at a call.
  void follow_call(const ir::Instruction& call, uint32_t id, void (UsageWalker::*walk)(uint32_t)) {
    const ir::Function* callee = module_.function(call.word(2));
    if (!callee) return;
    std::vector<uint32_t> parameters;
    for (const ir::Instruction& p : callee->prelude) {
      if (p.opcode() == Op::OpFunctionParameter) parameters.push_back(p.result_id());
    }
    for (size_t i = 3; i < call.operands().size(); ++i) {
      if (call.word(i) == id && i - 3 < parameters.size()) (this->*walk)(parameters[i - 3]);
    }
  }

  void walk_pointer(uint32_t pointer) {
    if (!seen_.insert(pointer).second) return;
    for (const ir::Instruction* use : module_.uses(pointer)) {
      if (!runs(*use)) continue;
      const Op op = use->opcode();
      switch (op) {
        case Op::OpAccessChain:
        case Op::OpInBoundsAccessChain:
        case Op::OpPtrAccessChain:
        case Op::OpInBoundsPtrAccessChain:
        case Op::OpCopyObject:
        case Op::OpPhi:
        case Op::OpSelect:
        case Op::OpImageTexelPointer:  // image atomics go through it
          walk_pointer(use->result_id());
          break;
        case Op::OpLoad:
          if (is_handle_type(module_.def(use->type_id()))) {
            walk_handle(use->result_id());
          } else {
            usage_.read = true;
            count(usage_.loads, use->type_id());
          }
          break;
        case Op::OpStore:
          if (use->word(0) == pointer) {
            usage_.write = true;
            if (const ir::Instruction* value = module_.def(use->word(1))) count(usage_.stores, value->type_id());
          }
          break;
        case Op::OpCopyMemory:
        case Op::OpCopyMemorySized:
          if (use->word(0) == pointer) {
            usage_.write = true;
            count(usage_.stores, pointee_type(pointer));
          } else {
            usage_.read = true;
            count(usage_.loads, pointee_type(pointer));
          }
          break;
        case Op::OpAtomicLoad:
          usage_.read = true;
          ++usage_.atomics;
          break;
        case Op::OpAtomicStore:
        case Op::OpAtomicFlagClear:
          usage_.write = true;
          ++usage_.atomics;
          break;
        case Op::OpFunctionCall:
          follow_call(*use, pointer, &UsageWalker::walk_pointer);
          break;
        default:
          if (ir::is_atomic_read_modify_write(op)) {
            usage_.read = usage_.write = true;
            ++usage_.atomics;
          }
          // OpArrayLength and pointer comparisons touch no memory.
          break;
      }
    }
  }

  // A loaded image, sampler or acceleration structure: writes go through
  // OpImageWrite, queries read nothing, every other use reads.
  void walk_handle(uint32_t handle) {
    if (!seen_.insert(handle).second) return;
    for (const ir::Instruction* use : module_.uses(handle)) {
      if (!runs(*use)) continue;
      const Op op = use->opcode();
      if (op == Op::OpSampledImage || op == Op::OpImage || op == Op::OpCopyObject || op == Op::OpPhi ||
          op == Op::OpSelect) {
        walk_handle(use->result_id());
      } else if (op == Op::OpFunctionCall) {
        follow_call(*use, handle, &UsageWalker::walk_handle);
      } else if (op == Op::OpImageWrite) {
        usage_.write = true;
      } else if (!is_image_query(op)) {
        usage_.read = true;
      }
    }
  }

  const Module& module_;
  const std::set<const ir::Function*>& functions_;
  VariableUsage usage_;
  std::set<uint32_t> seen_;
};

Barriers count_barriers(const Module& module, const std::set<const ir::Function*>& functions) {
  Barriers barriers;
  for (const ir::Function* function : functions) {
    for (const ir::Block& block : function->blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        std::optional<Barrier> barrier = barrier_of(module, instruction);
        if (!barrier) continue;
        // A scope klint cannot read counts: the barrier is there to wait.
        if (may(barrier->waits_for_workgroup())) {
          ++barriers.workgroup;
        } else if (!barrier->control) {
          ++barriers.memory;
        }
      }
    }
  }
  return barriers;
}

std::optional<std::array<WorkgroupDimension, 3>> workgroup_size(const klint::EntryPoint& entry) {
  if (!entry.workgroup_size) return std::nullopt;
  std::array<WorkgroupDimension, 3> size;
  for (size_t i = 0; i < 3; ++i) {
    const klint::WorkgroupDimension& d = (*entry.workgroup_size)[i];
    size[i] = {d.value, d.spec_id, d.default_declared};
  }
  return size;
}

EntryUsage analyze_entry(const Module& module, const klint::EntryPoint& entry) {
  EntryUsage out;
  out.name = entry.name;
  out.execution_model = static_cast<uint32_t>(entry.model);
  out.workgroup_size = workgroup_size(entry);
  std::set<const ir::Function*> functions = reachable_functions(module, entry.function);
  UsageWalker walker(module, functions);
  for (const ir::Instruction& global : module.ir().globals) {
    if (global.opcode() != Op::OpVariable) continue;
    const uint32_t id = global.result_id();
    const bool used = walker.used(id);
    if (used) out.variables[id] = walker.walk_variable(id);
    if (static_cast<spv::StorageClass>(global.word(2)) == spv::StorageClass::Workgroup) {
      const ir::Instruction* pointer_type = module.def(global.type_id());
      out.workgroup_variables.push_back({id, pointer_type ? module.type_size(pointer_type->word(2)) : std::nullopt, used,
                                         is_explicit_layout_block(module, id)});
    }
  }
  out.barriers = count_barriers(module, functions);
  return out;
}

}  // namespace

Access VariableUsage::access() const {
  if (read && write) return Access::ReadWrite;
  if (read) return Access::Read;
  if (write) return Access::Write;
  return Access::None;
}

std::optional<ModuleUsage> analyze_usage(const std::vector<uint32_t>& spirv, std::string* error) {
  ir::DecodeError decode_error;
  std::optional<ir::Module> decoded = ir::decode(spirv, &decode_error);
  if (!decoded) {
    *error = decode_error.message;
    return std::nullopt;
  }
  Module module(std::move(*decoded), ModuleOrigin{});
  ModuleUsage out;
  for (const klint::EntryPoint& entry : module.entry_points()) out.entry_points.push_back(analyze_entry(module, entry));
  for (const ir::Instruction& global : module.ir().globals) {
    if (global.opcode() != Op::OpTypeArray) continue;
    if (auto length = module.constant_value(global.word(2))) out.array_lengths[global.word(2)] = *length;
  }
  return out;
}

std::string capability_name(uint32_t capability) {
  // A module of one OpCapability, disassembled: SPIRV-Tools knows every name
  // of its grammar and SPIRV-Headers offers no lookup.
  constexpr uint32_t kOpCapability = 17;
  const std::vector<uint32_t> words{0x07230203, 0x00010600, 0, 1, 0, (2u << 16) | kOpCapability, capability};
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string text;
  if (tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER)) {
    constexpr std::string_view kPrefix = "OpCapability ";
    size_t at = text.find(kPrefix);
    if (at != std::string::npos) {
      std::string name = text.substr(at + kPrefix.size());
      name.erase(name.find_last_not_of(" \r\n") + 1);
      if (!name.empty()) return name;
    }
  }
  return fmt::format("Capability{}", capability);
}

}  // namespace klint::reflect
