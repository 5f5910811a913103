#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <set>
#include <utility>

#include "analyzer/ir/opcodes.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/source_names.h"
#include "analyzer/ssa.h"
#include "rules/rule.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "half-precision-accumulator",
    .category = Category::Correctness,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::WidenedAccumulator,
    .summary = "16-bit float value that accumulates a sum across loop iterations",
    .doc = R"md(
## What it finds
A 16-bit float (GLSL `float16_t`, `f16vec2`..`f16vec4`, a cooperative matrix
of `float16_t`) that a loop adds to on every iteration: `acc += x[i] * w[i]`,
`acc = fma(a, b, acc)`, `acc = mix(acc, x, t)`, whether the compiler keeps the
value in a register or in a local variable or array (`sums[j] += ...` inside a
loop that revisits `sums[j]`). Relaxed-precision floats that accumulate are
found too: HLSL `min16float` and GLSL `mediump float`, which many mobile GPUs
evaluate in 16 bits. (klint compiles HLSL without `-enable-16bit-types`, so
HLSL `half` is a 32-bit float there.)

## Why it matters
A 16-bit float keeps 11 significant bits, about 3 decimal digits. Every
addition rounds the running sum to that precision, so the error grows with
the number of terms, and once the sum is large, small terms no longer change
it at all (at 2048, adding 1 does nothing). A dot product, a matmul tile or a
reduction comes out wrong by 1e-3 or more, which looks like a bug somewhere
else. The usual recipe is to load and store 16-bit data (half the bandwidth)
and to accumulate in 32-bit floats in registers.

## Bad
```glsl
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer X { float16_t x[]; };
layout(binding = 1) readonly buffer W { float16_t w[]; };
layout(binding = 2) writeonly buffer Y { float16_t y[]; };
layout(push_constant) uniform Params { uint n; };
void main() {
    uint row = gl_GlobalInvocationID.x;
    float16_t acc = float16_t(0.0);     // rounded to 11 bits after every term
    for (uint i = 0; i < n; ++i) acc += x[row * n + i] * w[i];
    y[row] = acc;
}
```

## Fix
```glsl
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer X { float16_t x[]; };
layout(binding = 1) readonly buffer W { float16_t w[]; };
layout(binding = 2) writeonly buffer Y { float16_t y[]; };
layout(push_constant) uniform Params { uint n; };
void main() {
    uint row = gl_GlobalInvocationID.x;
    float acc = 0.0;                    // 16-bit loads, 32-bit sum
    for (uint i = 0; i < n; ++i) acc += float(x[row * n + i]) * float(w[i]);
    y[row] = float16_t(acc);            // converted once, at the end
}
```

## Exceptions
16-bit values that are only loaded, stored, converted or recomputed on each
iteration (not derived from their value in the previous iteration) are
silent, as are running minimums and maximums (they never round), products
with no sum, 32-bit accumulators of 16-bit inputs, and 16-bit integers. A
16-bit accumulator may be a deliberate trade of precision for speed over a
short, bounded loop (a few terms of similar magnitude); suppress the finding
there.
)md",
};

using spv::Op;

// Not in every copy of spirv.hpp11 this builds against (SPV_KHR_cooperative_matrix).
using ir::kOpCooperativeMatrixMulAddKHR;
using ir::kOpTypeCooperativeMatrixKHR;

// The float type of a scalar, vector or cooperative matrix, or nullptr.
const ir::Instruction* float_component(const Module& module, uint32_t type_id) {
  const ir::Instruction* type = module.def(type_id);
  if (type && (type->opcode() == Op::OpTypeVector || type->opcode() == kOpTypeCooperativeMatrixKHR ||
               type->opcode() == Op::OpTypeCooperativeMatrixNV)) {
    type = module.def(type->word(1));
  }
  return type && type->opcode() == Op::OpTypeFloat ? type : nullptr;
}

enum class Width { Half, Relaxed };

// How the accumulator (a phi or a variable) of this type is declared, when it
// is narrower than 32 bits. Only its own declaration counts: a float sum of
// relaxed-precision products is the fix, even where glslang marks the sum
// itself relaxed.
std::optional<Width> narrow_width(const Module& module, uint32_t type_id, uint32_t accumulator) {
  const ir::Instruction* component = float_component(module, type_id);
  if (!component) return std::nullopt;
  if (component->word(1) == 16) return Width::Half;
  if (component->word(1) != 32) return std::nullopt;
  if (module.has_decoration(accumulator, spv::Decoration::RelaxedPrecision)) return Width::Relaxed;
  return std::nullopt;
}

bool is_glsl_std_450(const ir::Instruction& instruction, std::initializer_list<uint32_t> numbers) {
  if (instruction.opcode() != Op::OpExtInst || instruction.ext_inst_type() != SPV_EXT_INST_TYPE_GLSL_STD_450) {
    return false;
  }
  return std::find(numbers.begin(), numbers.end(), instruction.word(3)) != numbers.end();
}

// Arithmetic that rounds a running sum: the instruction that makes a value
// carried around a loop an accumulator rather than a running min or max.
bool is_rounding_sum(const ir::Instruction& instruction) {
  switch (instruction.opcode()) {
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpDot:
    case Op::OpCooperativeMatrixMulAddNV:
      return true;
    default:
      return instruction.opcode() == kOpCooperativeMatrixMulAddKHR ||
             is_glsl_std_450(instruction, {GLSLstd450Fma, GLSLstd450FMix});
  }
}

// Instructions through which a value keeps depending on its previous iteration.
bool passes_value(const ir::Instruction& instruction) {
  switch (instruction.opcode()) {
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFNegate:
    case Op::OpVectorTimesScalar:
    case Op::OpMatrixTimesScalar:
    case Op::OpCompositeConstruct:
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpVectorShuffle:
    case Op::OpCopyObject:
    case Op::OpSelect:
    case Op::OpPhi:
    case Op::OpFConvert:
      return true;
    case Op::OpExtInst:
      return instruction.ext_inst_type() == SPV_EXT_INST_TYPE_GLSL_STD_450;
    default:
      return is_rounding_sum(instruction);
  }
}

// Walks back from `value` (what the next iteration will see) through the
// arithmetic of one loop and returns the rounding sum nearest to it on a path
// that leads to a definition `reaches_start` accepts, or nullptr.
template <class IsStart>
const ir::Instruction* accumulating_update(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t value,
                                           IsStart&& reaches_start) {
  struct Step {
    uint32_t id;
    const ir::Instruction* update;
  };
  std::vector<Step> work{{value, nullptr}};
  std::set<std::pair<uint32_t, bool>> seen;
  while (!work.empty()) {
    Step step = work.back();
    work.pop_back();
    if (!seen.insert({step.id, step.update != nullptr}).second) continue;
    const ir::Instruction* definition = module.def(step.id);
    if (!definition || !in_loop(module, cfg, loop, *definition)) continue;
    if (reaches_start(*definition)) {
      if (step.update) return step.update;
      continue;
    }
    if (!passes_value(*definition)) continue;
    const ir::Instruction* update = step.update ? step.update : (is_rounding_sum(*definition) ? definition : nullptr);
    for (uint32_t input : definition->input_ids()) work.push_back({input, update});
  }
  return nullptr;
}

// The variable an access chain (or a variable) points into, and its indices.
struct Place {
  const ir::Instruction* variable = nullptr;
  std::vector<uint32_t> indices;
  friend bool operator==(const Place&, const Place&) = default;
};

Place place_of(const Module& module, uint32_t pointer) {
  std::optional<PointerPath> path = pointer_path(module, pointer);
  if (!path || path->element_step) return {};
  return Place{path->variable, std::move(path->indices)};
}

// Whether `id` is computed, inside the loop, from a value the loop header
// defines anew each iteration (a loop counter): then each iteration touches
// another element, and nothing accumulates in one of them.
bool varies_per_iteration(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t id) {
  std::vector<uint32_t> work{id};
  std::set<uint32_t> seen;
  while (!work.empty()) {
    uint32_t next = work.back();
    work.pop_back();
    if (!seen.insert(next).second) continue;
    const ir::Instruction* definition = module.def(next);
    if (!definition || !in_loop(module, cfg, loop, *definition)) continue;
    if (uint32_t copied = copied_value(module, next); copied != next) {
      work.push_back(copied);
      continue;
    }
    if (definition->opcode() == Op::OpPhi && block_index(module, cfg, *definition) == static_cast<int>(loop.header)) {
      return true;
    }
    for (uint32_t input : definition->input_ids()) work.push_back(input);
  }
  return false;
}

// A Function variable a value was stored to: glslang's stores of a local
// survive its promotion to SSA and keep its name. 0 when there is none.
uint32_t variable_stored_from(const Module& module, uint32_t value) {
  for (const ir::Instruction* use : module.uses(value)) {
    if (use->opcode() != Op::OpStore || use->word(1) != value) continue;
    const ir::Instruction* pointer = module.def(use->word(0));
    if (pointer && pointer->opcode() == Op::OpVariable) return pointer->result_id();
  }
  return 0;
}

struct Accumulator {
  uint32_t variable = 0;  // 0 when no variable names it
  // What holds the sum from one iteration to the next: a loop header's phi,
  // or the Function variable of a sum kept in memory. A run widens it.
  const ir::Instruction* carried = nullptr;
  Width width = Width::Half;
  const Loop* loop = nullptr;
  const ir::Instruction* update = nullptr;
  // The branch that leaves the loop, where one does: how often a run took
  // it each way says how many terms were summed.
  const ir::Instruction* exit = nullptr;
};

const ir::Instruction* exit_branch(const ir::Function& function, const Loop& loop) {
  const uint32_t merge = loop.merge->word(0);
  for (size_t b = 0; b < loop.body.size() && b < function.blocks.size(); ++b) {
    if (!loop.body[b]) continue;
    const ir::Instruction& branch = function.blocks[b].terminator();
    if (branch.opcode() == Op::OpBranchConditional && (branch.word(1) == merge || branch.word(2) == merge)) {
      return &branch;
    }
  }
  return nullptr;
}

// The first store to a variable outside a loop: usually its initialisation.
const ir::Instruction* store_before(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t variable) {
  for (const ir::Instruction* use : module.uses(variable)) {
    if (use->opcode() == Op::OpStore && !in_loop(module, cfg, loop, *use)) return use;
  }
  return nullptr;
}

class HalfPrecisionAccumulator final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }
  bool needs_workgroup_size() const override { return false; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    SourceText source = source_text(module);
    for (const ir::Function& function : module.functions()) {
      const Cfg& cfg = module.cfg(function);
      std::vector<Loop> loops = find_loops(module, function);
      std::vector<Accumulator> found;
      for (const Loop& loop : loops) find_carried_values(module, cfg, function, loop, found);
      for (const ir::Block& block : function.blocks) {
        for (const ir::Instruction& store : block.instructions) {
          if (store.opcode() == Op::OpStore) find_memory_accumulator(module, cfg, loops, store, found);
        }
      }
      for (Accumulator& accumulator : found) accumulator.exit = exit_branch(function, *accumulator.loop);
      std::set<const void*> reported;
      for (const Accumulator& accumulator : found) {
        const void* key = accumulator.variable ? static_cast<const void*>(module.def(accumulator.variable))
                                               : static_cast<const void*>(accumulator.update);
        if (reported.insert(key).second) report_accumulator(module, cfg, source, accumulator, report);
      }
    }
  }

 private:
  // Phis of a loop header whose back-edge value is a rounded sum of the phi.
  static void find_carried_values(const Module& module, const Cfg& cfg, const ir::Function& function,
                                  const Loop& loop, std::vector<Accumulator>& found) {
    for (const ir::Instruction& phi : function.blocks[loop.header].instructions) {
      if (phi.opcode() != Op::OpPhi) continue;
      for (size_t i = 2; i + 1 < phi.operands().size(); i += 2) {
        int from = cfg.index_of(phi.word(i + 1));
        if (from < 0 || !loop.body[static_cast<uint32_t>(from)]) continue;
        uint32_t value = phi.word(i);
        auto is_phi = [&](const ir::Instruction& definition) { return &definition == &phi; };
        const ir::Instruction* update = accumulating_update(module, cfg, loop, value, is_phi);
        if (!update) continue;
        auto width = narrow_width(module, phi.type_id(), phi.result_id());
        if (!width) continue;
        uint32_t variable = variable_stored_from(module, value);
        if (!variable) variable = variable_stored_from(module, update->result_id());
        found.push_back({variable, &phi, *width, &loop, update});
        break;
      }
    }
  }

  // A store in a loop of a rounded sum of a load of the same element, when
  // the element stays the same from one iteration to the next.
  static void find_memory_accumulator(const Module& module, const Cfg& cfg, const std::vector<Loop>& loops,
                                      const ir::Instruction& store, std::vector<Accumulator>& found) {
    Place target = place_of(module, store.word(0));
    if (!target.variable || module.storage_class(target.variable->result_id()) != spv::StorageClass::Function) return;
    const ir::Instruction* value = module.def(store.word(1));
    if (!value || !float_component(module, value->type_id())) return;
    for (const Loop& loop : loops) {
      if (!in_loop(module, cfg, loop, store)) continue;
      bool revisited = std::none_of(target.indices.begin(), target.indices.end(),
                                    [&](uint32_t index) { return varies_per_iteration(module, cfg, loop, index); });
      if (!revisited) continue;
      auto loads_target = [&](const ir::Instruction& definition) {
        return definition.opcode() == Op::OpLoad && place_of(module, definition.word(2)) == target;
      };
      const ir::Instruction* update = accumulating_update(module, cfg, loop, value->result_id(), loads_target);
      if (!update) continue;
      auto width = narrow_width(module, value->type_id(), target.variable->result_id());
      if (!width) return;
      found.push_back({target.variable->result_id(), target.variable, *width, &loop, update});
      return;
    }
  }

  static void report_accumulator(const Module& module, const Cfg& cfg, const SourceText& source,
                                 const Accumulator& accumulator, Reporter& report) {
    std::string name;
    if (accumulator.variable) {
      const ir::Instruction* initialisation = store_before(module, cfg, *accumulator.loop, accumulator.variable);
      name = variable_name(module, source, accumulator.variable, false, {initialisation, accumulator.update});
    }
    Location loop = module.nearest_location(*accumulator.loop->merge);
    Location at = module.nearest_location(*accumulator.update);
    if (auto declared = declaration_line(source, name, loop)) at = *declared;
    at.token = name;
    std::string quoted = name.empty() ? "value" : fmt::format("'{}'", name);
    std::string it = name.empty() ? "the value" : quoted;
    bool half = accumulator.width == Width::Half;
    std::string message =
        half ? fmt::format("16-bit float {} accumulates across loop iterations; precision loss grows with the trip count",
                           quoted)
             : fmt::format("relaxed-precision float {} accumulates across loop iterations; where it runs in 16 bits, "
                           "precision loss grows with the trip count",
                           quoted);
    DiagnosticBuilder finding = report.at(std::move(at), std::move(message));
    finding
        .note(std::move(loop), fmt::format("this loop carries {} from one iteration to the next", it))
        .note(module.nearest_location(*accumulator.update),
              half ? fmt::format("each iteration adds to {} here and rounds the sum to 11 significant bits", it)
                   : fmt::format("each iteration adds to {} here, and relaxed precision lets the GPU round the sum "
                                 "to 11 significant bits",
                                 it))
        .about(*accumulator.carried)
        .about(*accumulator.update)
        .fix_title("accumulate in float (32-bit) and convert once at the end");
    if (accumulator.exit) finding.about(*accumulator.exit);
  }
};

KLINT_REGISTER_RULE(HalfPrecisionAccumulator);

}  // namespace
}  // namespace klint
