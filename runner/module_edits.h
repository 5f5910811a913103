// Edits of a decoded module that instrumentation needs besides the code it
// adds: specialization values folded into constants, calls that pass
// workgroup pointers inlined, and access instructions rebuilt.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <span>
#include <string>
#include <vector>

#include "analyzer/ir/module.h"
#include "analyzer/module.h"
#include "runner/executor.h"

namespace klint::runner {

bool is_atomic(spv::Op op);

// The pointer an instruction accesses memory through, or 0.
uint32_t accessed_pointer(const ir::Instruction& i);

// Sets the defaults of the module's specialization constants to the values the
// pipeline will give them, so that constant_value() sees what the device runs.
void specialize(ir::Module& module, const std::vector<SpecializationValue>& values);

bool has_workgroup_pointer_parameters(const ::klint::Module& module);

// Accesses through a function's pointer parameter reach a different variable
// at each call: inlining turns each into an access chain on its variable.
std::optional<std::vector<uint32_t>> inline_calls(std::span<const uint32_t> spirv, std::string* error);

// The module without the resource variables its entry points never reach:
// dead functions, then unused interface variables, then variables no code
// references go. A pipeline then needs no descriptor for a binding the kernel
// only declares, and a kernel that declares more than a device's per-stage
// limits (a renderer's shared header of 140 textures) runs within them. The
// module as given where the optimizer refuses it.
std::vector<uint32_t> without_unused_resources(std::span<const uint32_t> spirv);

// What a module's words declare of its resource variables and names, read
// without decoding it: enough to find and rewrite a variable's binding.
struct Declarations {
  bool hlsl = false;  // its OpSource is HLSL
  std::map<uint32_t, std::string> names;                 // OpName
  std::map<uint32_t, uint32_t> sets;                     // DescriptorSet
  std::map<uint32_t, size_t> bindings;                   // the word holding each Binding literal
  std::map<uint32_t, uint32_t> variable_types;           // OpVariable: its pointer type
  std::map<uint32_t, uint32_t> pointees;                 // OpTypePointer: what it points at
  std::map<uint32_t, uint32_t> elements;                 // OpTypeArray, OpTypeRuntimeArray: the element
};

Declarations declarations(std::span<const uint32_t> spirv);

// The (set, binding) of every resource variable the module declares.
Declared declared_bindings(std::span<const uint32_t> spirv);

// An instruction from its words, its operands parsed as an OpAccessChain's are.
ir::Instruction instruction_from(std::vector<uint32_t> words);

// The access with its pointer operand replaced.
ir::Instruction with_pointer(const ir::Instruction& access, uint32_t pointer);

}  // namespace klint::runner
