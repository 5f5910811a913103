#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/builtin_names.h"
#include "analyzer/cfg.h"
#include "analyzer/loops.h"
#include "analyzer/symbolic.h"
#include "rules/rule.h"
#include "rules/support/loop_counter.h"

namespace klint {
namespace {

using spv::Op;

constexpr RuleInfo kInfo{
    .id = "grid-stride-tail",
    .category = Category::Correctness,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::OutOfRange,
    .summary = "block-stride loop whose last iteration indexes past the array it covers",
    .doc = R"md(
## What it finds
A loop that lets a workgroup cover an array in steps of its own size,
`for (i = 0; i < N; i += W) a[i + local id] = ...`, where the loop checks
`i` against the array's length but no check keeps `i + local id` below it.
When `W` does not divide `N`, the last iteration's invocations past the end
index outside the array. With a workgroup size written in the shader that does
not divide `N` it is an error; with a size from a specialization constant whose
default divides `N`, a warning: the kernel is right only for the sizes the
host must then never choose.

## Why it matters
A read past a fixed-size array is undefined, and a write past a shared array
lands in other variables of the workgroup (or, on drivers that bounds-check,
is dropped). The loop works at the size it was written for and breaks when
the workgroup grows past the table or stops dividing it, often in another
project's pipeline that picks the size from the device.

## Bad
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Table { float table_src[100]; };
layout(binding = 1) buffer Data { float data[]; };
shared float table[100];
void main() {
    // the second step starts at 64: invocations 36 to 63 index 100 to 127
    for (uint i = 0; i < 100; i += 64) table[i + gl_LocalInvocationIndex] = table_src[i + gl_LocalInvocationIndex];
    barrier();
    data[gl_GlobalInvocationID.x] *= table[gl_LocalInvocationIndex];
}
```

## Fix
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Table { float table_src[100]; };
layout(binding = 1) buffer Data { float data[]; };
shared float table[100];
void main() {
    for (uint i = 0; i < 100; i += 64) {
        uint k = i + gl_LocalInvocationIndex;
        if (k < 100) table[k] = table_src[k];
    }
    barrier();
    data[gl_GlobalInvocationID.x] *= table[gl_LocalInvocationIndex];
}
```

## Exceptions
Only arrays of a known length are checked, and only accesses every iteration
makes: an access under any `if`, or after a `continue` or `break` that may
skip it, is taken to be guarded. A loop whose bound or start klint cannot
read as a constant is not judged.
)md",
};

// `i < bound` (or `bound > i`) deciding whether the loop at `loop` goes on.
std::optional<int64_t> constant_bound(const Module& module, const ir::Function& function, const Cfg& cfg,
                                      const Loop& loop, uint32_t phi, uint32_t& body_entry) {
  const int merge = cfg.index_of(loop.merge->word(0));
  for (uint32_t b = 0; b < function.blocks.size(); ++b) {
    if (!loop.body[b] || function.blocks[b].instructions.empty()) continue;
    const ir::Instruction& branch = function.blocks[b].instructions.back();
    if (branch.opcode() != Op::OpBranchConditional) continue;
    const int on_true = cfg.index_of(branch.word(1)), on_false = cfg.index_of(branch.word(2));
    if (on_false != merge || on_true < 0) continue;
    const ir::Instruction* compare = module.def(branch.word(0));
    if (!compare) continue;
    uint32_t counter = 0, limit = 0;
    if (compare->opcode() == Op::OpULessThan || compare->opcode() == Op::OpSLessThan) {
      counter = compare->word(2), limit = compare->word(3);
    } else if (compare->opcode() == Op::OpUGreaterThan || compare->opcode() == Op::OpSGreaterThan) {
      counter = compare->word(3), limit = compare->word(2);
    } else {
      continue;
    }
    if (counter != phi) continue;
    auto bound = module.constant_value(limit);
    if (!bound) return std::nullopt;
    body_entry = static_cast<uint32_t>(on_true);
    return static_cast<int64_t>(*bound);
  }
  return std::nullopt;
}

// The length of the array that `index`, operand `position` of the access
// chain, selects an element of; nullopt for a run-time array or a struct.
std::optional<uint64_t> indexed_length(const Module& module, const ir::Instruction& chain, size_t position) {
  const ir::Instruction* base = module.def(chain.word(2));
  const ir::Instruction* pointer = base ? module.def(base->type_id()) : nullptr;
  if (!pointer || pointer->opcode() != Op::OpTypePointer) return std::nullopt;
  const ir::Instruction* type = module.def(pointer->word(2));
  for (size_t word = 3; type && word < chain.operands().size(); ++word) {
    if (type->opcode() == Op::OpTypeArray) {
      if (word == position) return module.constant_value(type->word(2));
      type = module.def(type->word(1));
    } else if (type->opcode() == Op::OpTypeStruct) {
      auto member = module.constant_value(chain.word(word));
      if (!member || word == position) return std::nullopt;
      type = module.def(type->word(1 + static_cast<uint32_t>(*member)));
    } else {
      return std::nullopt;  // vectors, matrices, run-time arrays
    }
  }
  return std::nullopt;
}

struct TailAccess {
  const ir::Instruction* chain = nullptr;
  uint64_t length = 0;
  int64_t offset = 0;  // the constant added to i + local id
  std::string index;   // as klint reads it
};

// `i + gl_LocalInvocationID.x + 1`, in the language of the source.
std::string index_text(const Module& module, const Induction& variable, uint32_t axis, int64_t offset) {
  std::string counter = counter_name(module, variable);
  std::string text = fmt::format("{} + {}", counter.empty() ? "the counter" : counter,
                                 builtin_component(module, spv::BuiltIn::LocalInvocationId, axis));
  if (offset != 0) text += fmt::format(" {} {}", offset < 0 ? '-' : '+', offset < 0 ? -offset : offset);
  return text;
}

class GridStrideTail final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (!entry.function || !entry.workgroup_size) continue;
      const ir::Function& function = *entry.function;
      const SymbolicValues& values = module.symbolic(function);
      const Cfg& cfg = module.cfg(function);
      const DominatorTree& post = module.post_dominators(function);
      for (const Loop& loop : module.loops(function)) {
        for (const ir::Instruction& phi : function.blocks[loop.header].instructions) {
          if (phi.opcode() != Op::OpPhi) continue;
          const Induction* variable = values.induction(phi.result_id());
          if (!variable || !variable->counts()) continue;
          check_loop(module, entry, function, cfg, post, values, loop, *variable, report);
        }
      }
    }
  }

 private:
  // A loop that steps by the workgroup size along `axis`, from `start` while
  // the counter is below `bound`.
  struct BlockStride {
    const Loop* loop;
    const Induction* variable;
    uint32_t axis;
    int64_t start, step, bound;
    const WorkgroupDimension* size;
    // The counter's value on the last iteration.
    int64_t last() const { return start + (bound - 1 - start) / step * step; }
  };

  static void check_loop(const Module& module, const EntryPoint& entry, const ir::Function& function,
                         const Cfg& cfg, const DominatorTree& post, const SymbolicValues& values, const Loop& loop,
                         const Induction& variable, Reporter& report) {
    auto start = values.value(variable.initial).constant_value();
    auto step = values.value(variable.step_value).constant_value();
    uint32_t body_entry = 0;
    auto bound = constant_bound(module, function, cfg, loop, variable.phi, body_entry);
    if (!start || !step || !bound || *step <= 0 || *start < 0 || *bound <= *start) return;
    const Symbol counter{Symbol::Kind::Induction, variable.phi};
    for (uint32_t axis = 0; axis < 3; ++axis) {
      const WorkgroupDimension& size = (*entry.workgroup_size)[axis];
      if (static_cast<int64_t>(size.value) != *step || size.value < 2) continue;
      const BlockStride stride{&loop, &variable, axis, *start, *step, *bound, &size};
      const Symbol lane{Symbol::Kind::LocalId, axis};
      std::vector<TailAccess> accesses;
      for (uint32_t b = 0; b < function.blocks.size(); ++b) {
        // Every iteration runs it: an access under an `if`, or one a
        // `continue` may skip, is taken to be guarded.
        if (!loop.body[b] || !post.dominates(b, body_entry)) continue;
        for (const ir::Instruction& chain : function.blocks[b].instructions) {
          if (chain.opcode() != Op::OpAccessChain && chain.opcode() != Op::OpInBoundsAccessChain) continue;
          for (size_t word = 3; word < chain.operands().size(); ++word) {
            const Polynomial& index = values.value(chain.word(word));
            if (index.coefficient(counter) != 1 || index.coefficient(lane) != 1 || index.symbols().size() != 2 ||
                index.degree() != 1) {
              continue;
            }
            if (auto length = indexed_length(module, chain, word)) {
              int64_t offset = index.constant_term();
              accesses.push_back({&chain, *length, offset, index_text(module, variable, axis, offset)});
            }
          }
        }
      }
      auto past_end = [&](const TailAccess& access) {
        return stride.last() + access.offset + stride.step - 1 >= static_cast<int64_t>(access.length);
      };
      if (auto overrun = std::find_if(accesses.begin(), accesses.end(), past_end); overrun != accesses.end()) {
        report_tail(module, stride, accesses, *overrun, report);
        return;
      }
      // At the default size the loop fits. A size the host chooses that does
      // not divide the range overruns an array the loop covers exactly.
      if (!size.spec_id || stride.start != 0) continue;
      auto exact = [&](const TailAccess& access) {
        return access.offset == 0 && static_cast<int64_t>(access.length) == stride.bound;
      };
      if (auto covered = std::find_if(accesses.begin(), accesses.end(), exact); covered != accesses.end()) {
        report_other_sizes(module, stride, accesses, *covered, report);
        return;
      }
    }
  }

  static std::string counter_text(const Module& module, const Induction& variable) {
    std::string name = counter_name(module, variable);
    return name.empty() ? std::string("the loop counter") : fmt::format("'{}'", name);
  }

  // A workgroup size the host may choose that does not divide `bound`: one
  // and a half times `size` (which divides no power of two), else the next
  // size up that does not.
  static int64_t size_not_dividing(int64_t size, int64_t bound) {
    if (bound % (size * 3 / 2) != 0) return size * 3 / 2;
    int64_t other = size + 1;
    while (bound % other == 0) ++other;
    return other;
  }

  static void add_other_accesses(const Module& module, const std::vector<TailAccess>& accesses,
                                 const TailAccess& reported, DiagnosticBuilder& diagnostic) {
    for (const TailAccess& access : accesses) {
      if (&access == &reported) continue;
      diagnostic.note(module.nearest_location(*access.chain),
                      fmt::format("{} indexes an array of {} the same way", access.index, access.length));
    }
  }

  static void report_tail(const Module& module, const BlockStride& stride, const std::vector<TailAccess>& accesses,
                          const TailAccess& access, Reporter& report) {
    const std::string counter = counter_text(module, *stride.variable);
    const int64_t last = stride.last();
    const int64_t first_out = static_cast<int64_t>(access.length) - last - access.offset;
    auto diagnostic = report.at(
        module.nearest_location(*access.chain),
        fmt::format("index {} goes past the end of an array of {}: on the last iteration ({} = {}) the "
                    "invocations from {} to {} along {} index {} to {}",
                    access.index, access.length, counter, last, first_out, stride.step - 1, "xyz"[stride.axis],
                    access.length, last + access.offset + stride.step - 1));
    diagnostic.about(*stride.loop->merge);
    diagnostic.note(module.nearest_location(*module.def(stride.variable->update)),
                    fmt::format("{} steps by {}, the workgroup size along {}{}, and only it is checked against {}",
                                counter, stride.step, "xyz"[stride.axis],
                                stride.size->spec_id
                                    ? fmt::format(" (specialization constant {}, default)", *stride.size->spec_id)
                                    : std::string(),
                                stride.bound));
    add_other_accesses(module, accesses, access, diagnostic);
    diagnostic.fix_title("check the index against the array's length before the access");
  }

  static void report_other_sizes(const Module& module, const BlockStride& stride,
                                 const std::vector<TailAccess>& accesses, const TailAccess& access,
                                 Reporter& report) {
    const std::string counter = counter_text(module, *stride.variable);
    // The size named is one a run specializes the kernel to, to show it.
    auto diagnostic = report.at(
        module.nearest_location(*access.chain),
        fmt::format("index {} covers an array of {} in steps of the workgroup size along {} (specialization "
                    "constant {}, default {}), and only {} is checked against {}: a size that does not divide "
                    "{}, such as local_size_{} = {}, indexes past the end",
                    access.index, access.length, "xyz"[stride.axis], *stride.size->spec_id, stride.size->value,
                    counter, stride.bound, stride.bound, "xyz"[stride.axis],
                    size_not_dividing(stride.step, stride.bound)));
    diagnostic.severity(Severity::Warning);
    diagnostic.about(*stride.loop->merge);
    diagnostic.note(module.nearest_location(*module.def(stride.variable->update)),
                    fmt::format("{} steps by the workgroup size, which the host sets when it creates the pipeline",
                                counter));
    add_other_accesses(module, accesses, access, diagnostic);
    diagnostic.fix_title("check the index against the array's length before the access");
  }
};

KLINT_REGISTER_RULE(GridStrideTail);

}  // namespace
}  // namespace klint
