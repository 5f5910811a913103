#include <algorithm>
#include <set>

#include "rules/rule.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "shared-memory-over-limit",
    .category = Category::Portability,
    .default_severity = Severity::Error,
    .summary = "workgroup (shared) memory of an entry point exceeds the device limit",
    .doc = R"md(
## What it finds
A compute entry point whose workgroup variables (GLSL `shared`, HLSL
`groupshared`) add up to more bytes than the limit. The limit is 32 KiB, what
Apple GPUs, Intel, lavapipe and most mobile GPUs offer as
`maxComputeSharedMemorySize`; set it with `--max-shared-memory BYTES`.
Variables are counted at their natural size: arrays as count times element,
structs as the sum of their members.

## Why it matters
A pipeline whose shader declares more workgroup memory than the device has
fails to create (or, on some drivers, silently corrupts memory). The kernel
works on the desktop GPU it was written on and breaks on the next device.

## Bad
```glsl
layout(local_size_x = 256) in;
shared float tile[100][100];   // 40,000 bytes: over 32 KiB
void main() { tile[gl_LocalInvocationID.x][0] = 0.0; }
```

## Fix
```glsl
layout(local_size_x = 256) in;
shared float tile[80][80];     // 25,600 bytes: process the data in smaller tiles
void main() { tile[gl_LocalInvocationID.x % 80][0] = 0.0; }
```

## Exceptions
Only variables the entry point uses (or lists in its interface) count.
Workgroup memory whose size comes from a specialization constant is counted at
the constant's default value.
)md",
};

using spv::Op;

struct SharedVariable {
  uint32_t id;
  uint64_t bytes;
};

bool is_workgroup_variable(const Module& module, uint32_t id) {
  const ir::Instruction* def = module.def(id);
  return def && def->opcode() == Op::OpVariable &&
         static_cast<spv::StorageClass>(def->word(2)) == spv::StorageClass::Workgroup;
}

// Workgroup variables listed in the entry point's interface or used by the
// functions it calls.
std::set<uint32_t> workgroup_variables(const Module& module, const EntryPoint& entry) {
  std::set<uint32_t> out;
  for (size_t i = 3; i < entry.instruction->operands().size(); ++i) {
    if (is_workgroup_variable(module, entry.instruction->word(i))) out.insert(entry.instruction->word(i));
  }
  std::set<uint32_t> visited;
  std::vector<const ir::Function*> work{entry.function};
  while (!work.empty()) {
    const ir::Function* function = work.back();
    work.pop_back();
    if (!function || !visited.insert(function->id()).second) continue;
    for (const ir::Block& block : function->blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        if (instruction.opcode() == Op::OpFunctionCall) work.push_back(module.function(instruction.word(2)));
        for (uint32_t input : instruction.input_ids()) {
          if (is_workgroup_variable(module, input)) out.insert(input);
        }
      }
    }
  }
  return out;
}

std::string bytes_text(uint64_t bytes) {
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  return fmt::format("{} bytes ({:.1f} KiB)", bytes, bytes / 1024.0);
}

class SharedMemoryOverLimit final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function) continue;
      std::vector<SharedVariable> variables;
      uint64_t total = 0;
      for (uint32_t id : workgroup_variables(module, entry)) {
        const ir::Instruction* pointer_type = module.def(module.def(id)->type_id());
        auto bytes = pointer_type ? module.type_size(pointer_type->word(2)) : std::nullopt;
        if (!bytes) continue;
        variables.push_back({id, *bytes});
        total += *bytes;
      }
      if (total <= options.max_shared_memory) continue;
      std::sort(variables.begin(), variables.end(), [](const SharedVariable& a, const SharedVariable& b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.id < b.id;
      });
      auto diagnostic = report.at(
          module.location(entry.function->definition),
          fmt::format("entry point '{}' uses {} of workgroup memory, over the limit of {}", entry.name,
                      bytes_text(total), bytes_text(options.max_shared_memory)));
      constexpr size_t kLargestShown = 3;
      for (size_t i = 0; i < std::min(variables.size(), kLargestShown); ++i) {
        diagnostic.note(module.declaration(variables[i].id),
                        fmt::format("'{}' takes {}", module.name(variables[i].id), bytes_text(variables[i].bytes)));
      }
      diagnostic.fix_title("use smaller tiles, or reuse one buffer in stages separated by barriers");
    }
  }
};

KLINT_REGISTER_RULE(SharedMemoryOverLimit);

}  // namespace
}  // namespace klint
