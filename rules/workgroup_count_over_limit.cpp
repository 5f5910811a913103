#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/builtin_names.h"
#include "analyzer/accesses.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/symbolic.h"
#include "rules/rule.h"
#include "rules/support/target_limits.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "workgroup-count-over-limit",
    .category = Category::Portability,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::DeviceLimit,
    .summary = "one workgroup per index of a run-time count along an axis, which one dispatch cannot exceed 65,535 of",
    .doc = R"md(
## What it finds
A kernel whose workgroups along one axis each take one index of its data (an
element, a row, a batch) where the number of those indices is only known at
run time, so that the host must dispatch one workgroup per index. klint
reports an axis when all of these hold:

- the workgroup covers one index along the axis: the kernel reads
  `gl_WorkGroupID` (HLSL `SV_GroupID`) along it, or `gl_GlobalInvocationID`
  (`SV_DispatchThreadID`) where the workgroup is one invocation wide along
  it, and uses it with a factor of 1, or times a run-time stride
  (`row * p.ncols`), not times a constant tile (`gl_WorkGroupID.y * 16 +
  gl_LocalInvocationID.y` covers 16 rows);
- the count is a run-time quantity: that id indexes a storage buffer's
  run-time sized array, or is compared with a value from a push constant, a
  uniform or storage buffer, or a buffer's length;
- no loop strides over the dispatch along the axis (a step of
  `gl_NumWorkGroups`, or of a run-time value, for a loop that starts at the
  workgroup id);
- no run-time base is added to the id (`gl_WorkGroupID.z + p.base_z`): the
  host that passes one splits the dispatch;
- the id is not folded with another axis' id into one larger index
  (`gl_WorkGroupID.y * 512 + gl_WorkGroupID.x`): the other axes extend it.

It names the targets whose `maxComputeWorkGroupCount` along the axis is
65,535, what Vulkan guarantees; when every target allows more, it says
nothing. It is a warning, against klint's default devices and against the
targets you declare alike: the limit is certain, the count is not, since
klint cannot see how large the data grows.

## Why it matters
`vkCmdDispatch` fails validation, and on many drivers crashes or silently
drops workgroups, when a count exceeds `maxComputeWorkGroupCount`. A batch
of 70,000 matrices, or a tensor of 100,000 rows with one workgroup per row,
needs a dispatch no device that offers only the guarantee can take, and the
kernel has no way to reach the rest.

## Bad
```glsl
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { uint batch_stride; };
void main() {
    uint batch = gl_GlobalInvocationID.z;           // one batch per workgroup along z
    data[batch * batch_stride + gl_LocalInvocationID.x] *= 2.0;
}
```

## Fix
```glsl
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { uint batch_stride; uint base_batch; };
void main() {
    // the host splits the batches over several dispatches and passes the base
    uint batch = gl_WorkGroupID.z + base_batch;
    data[batch * batch_stride + gl_LocalInvocationID.x] *= 2.0;
}
```
A loop over the batches that steps by `gl_NumWorkGroups.z`, or a row index
spread over several axes (`gl_WorkGroupID.y * 512 + gl_WorkGroupID.x`), fixes
it too.

## Exceptions
- A count fixed at compile time (a fixed-size array, a constant bound) is
  silent: it is what it is on every run.
- An offset from a push constant added to the id, as in
  `data[p.offset + gl_WorkGroupID.x]`, reads as the base of a split dispatch
  and is silent, whatever it means.
- klint does not know how large the data grows: a count along z of a few
  attention heads never comes near 65,535. Suppress the finding where the
  count is small by construction.
)md",
};

constexpr std::array<const char*, 3> kAxis{"x", "y", "z"};
constexpr uint32_t kGuaranteedCount = 65535;
constexpr int kMaxDepth = 16;

bool is_workgroup_id(const Symbol& symbol, uint32_t axis) {
  return symbol.kind == Symbol::Kind::WorkgroupId && symbol.id == axis;
}

// The value comes from what the host passes at run time: a push constant, a
// uniform or storage buffer read the same by every invocation, a buffer's
// length, or arithmetic over those and constants.
class RuntimeInputs {
 public:
  RuntimeInputs(const Module& module, const SymbolicValues& values) : module_(module), values_(values) {}

  bool symbol(const Symbol& symbol) const {
    return symbol.kind == Symbol::Kind::Value && !values_.per_invocation(symbol) && input(symbol.id, 0) == Input::Runtime;
  }
  // A form that is not constant and whose every symbol is a run-time input.
  bool form(const Polynomial& form) const {
    if (form.is_constant()) return false;
    for (const Symbol& s : form.symbols()) {
      if (!symbol(s)) return false;
    }
    return true;
  }

 private:
  enum class Input { Constant, Runtime, Other };

  Input input(uint32_t id, int depth) const {
    if (depth > kMaxDepth) return Input::Other;
    if (module_.constant_value(id)) return Input::Constant;
    const ir::Instruction* def = module_.def(id);
    if (!def) return Input::Other;
    switch (def->opcode()) {
      case spv::Op::OpArrayLength: return Input::Runtime;
      case spv::Op::OpLoad: {
        std::optional<spv::StorageClass> storage = module_.storage_class(def->word(2));
        if (storage == spv::StorageClass::PushConstant || storage == spv::StorageClass::Uniform ||
            storage == spv::StorageClass::StorageBuffer || storage == spv::StorageClass::UniformConstant) {
          return Input::Runtime;
        }
        return Input::Other;
      }
      case spv::Op::OpCopyObject: case spv::Op::OpBitcast: case spv::Op::OpUConvert: case spv::Op::OpSConvert:
      case spv::Op::OpCompositeExtract:
        return input(def->word(2), depth + 1);
      case spv::Op::OpIAdd: case spv::Op::OpISub: case spv::Op::OpIMul: case spv::Op::OpUDiv: case spv::Op::OpSDiv:
      case spv::Op::OpUMod: case spv::Op::OpSMod: case spv::Op::OpShiftLeftLogical:
      case spv::Op::OpShiftRightLogical: case spv::Op::OpShiftRightArithmetic: case spv::Op::OpBitwiseAnd:
      case spv::Op::OpBitwiseOr: {
        Input a = input(def->word(2), depth + 1), b = input(def->word(3), depth + 1);
        if (a == Input::Other || b == Input::Other) return Input::Other;
        return a == Input::Runtime || b == Input::Runtime ? Input::Runtime : Input::Constant;
      }
      case spv::Op::OpExtInst: {
        // GLSL.std.450 min / max / clamp of inputs.
        Input out = Input::Constant;
        for (size_t k = 4; k < def->operands().size(); ++k) {
          Input in = input(def->word(k), depth + 1);
          if (in == Input::Other) return Input::Other;
          if (in == Input::Runtime) out = Input::Runtime;
        }
        return out;
      }
      default: return Input::Other;
    }
  }

  const Module& module_;
  const SymbolicValues& values_;
};

// The forms an integer value takes as klint follows it: its own, and where
// that hides arithmetic behind an opaque value (a division by a constant
// that does not divide every term, a sum grown past what a form holds), the
// forms of that value's operands.
void collect_forms(const Module& module, const SymbolicValues& values, uint32_t id, int depth,
                   std::set<uint32_t>& seen, std::vector<Polynomial>& out) {
  if (depth > kMaxDepth || !seen.insert(id).second) return;
  const Polynomial& form = values.value(id);
  out.push_back(form);
  for (const Symbol& symbol : form.symbols()) {
    if (symbol.kind == Symbol::Kind::Induction) {
      if (const Induction* induction = values.induction(symbol.id)) {
        collect_forms(module, values, induction->initial, depth + 1, seen, out);
      }
      continue;
    }
    if (symbol.kind != Symbol::Kind::Value) continue;
    const ir::Instruction* def = module.def(symbol.id);
    if (!def) continue;
    switch (def->opcode()) {
      case spv::Op::OpUDiv: case spv::Op::OpSDiv: case spv::Op::OpShiftRightLogical:
      case spv::Op::OpShiftRightArithmetic:
        // Dividing by a constant changes the unit, not which ids the index follows.
        if (module.constant_value(def->word(3))) collect_forms(module, values, def->word(2), depth + 1, seen, out);
        break;
      case spv::Op::OpIAdd: case spv::Op::OpISub: case spv::Op::OpIMul: case spv::Op::OpCopyObject:
      case spv::Op::OpBitcast: case spv::Op::OpUConvert: case spv::Op::OpSConvert:
        for (uint32_t k = 2; k < def->operands().size(); ++k) {
          collect_forms(module, values, def->word(k), depth + 1, seen, out);
        }
        break;
      default: break;
    }
  }
}

std::vector<Polynomial> forms_of(const Module& module, const SymbolicValues& values, uint32_t id) {
  std::set<uint32_t> seen;
  std::vector<Polynomial> out;
  collect_forms(module, values, id, 0, seen, out);
  return out;
}

bool contains_all(const Polynomial::Monomial& whole, const Polynomial::Monomial& part) {
  return std::includes(whole.begin(), whole.end(), part.begin(), part.end());
}

// What the kernel's forms say of one axis.
struct Axis {
  bool one_index = false;  // a form takes the workgroup id with a factor of 1 or a run-time stride
  bool spread = false;     // a form shows a workgroup covering more: a tile, a fold, a base, a stride
  const ir::Instruction* site = nullptr;  // the first access or comparison of one index
  uint32_t index = 0;                     // the value there that the id flows into
  uint32_t pointer = 0;                   // the access's pointer, for an access
  Polynomial form;                        // the form of the index that takes the id
  bool compared = false;                  // the site is a comparison with a run-time count
};

class AxisJudge {
 public:
  explicit AxisJudge(const RuntimeInputs& inputs) : inputs_(inputs) {}

  // Whether `form` takes the workgroup id along `axis` as one index; marks
  // the axis spread where it shows otherwise.
  bool judge(const Polynomial& form, uint32_t axis, Axis& out) const {
    bool one = false;
    for (const auto& [monomial, coefficient] : form.terms()) {
      auto id = std::find_if(monomial.begin(), monomial.end(), [&](const Symbol& s) { return is_workgroup_id(s, axis); });
      if (id == monomial.end()) continue;
      Polynomial::Monomial rest = monomial;
      rest.erase(rest.begin() + (id - monomial.begin()));
      bool stride = (coefficient == 1 || coefficient == -1) &&
                    std::all_of(rest.begin(), rest.end(), [&](const Symbol& s) { return inputs_.symbol(s); });
      if (!stride) {
        out.spread = true;  // a constant tile, or a factor that grows with the dispatch or the invocation
        continue;
      }
      if (folded(form, axis, rest) || based(form, rest)) {
        out.spread = true;
        continue;
      }
      one = true;
    }
    out.one_index = out.one_index || one;
    return one;
  }

 private:
  // Another axis' id steps over whole runs of this one's: `W.y * 512 + W.x`.
  static bool folded(const Polynomial& form, uint32_t axis, const Polynomial::Monomial& rest) {
    for (const auto& [monomial, coefficient] : form.terms()) {
      for (uint32_t other = 0; other < 3; ++other) {
        if (other == axis) continue;
        auto id = std::find_if(monomial.begin(), monomial.end(), [&](const Symbol& s) { return is_workgroup_id(s, other); });
        if (id == monomial.end()) continue;
        Polynomial::Monomial other_rest = monomial;
        other_rest.erase(other_rest.begin() + (id - monomial.begin()));
        if (contains_all(other_rest, rest)) return true;
      }
    }
    return false;
  }

  // A run-time base is added to the id: `(W.z + p.base) * stride`.
  bool based(const Polynomial& form, const Polynomial::Monomial& rest) const {
    for (const auto& [monomial, coefficient] : form.terms()) {
      if (monomial.size() <= rest.size() || !contains_all(monomial, rest)) continue;
      Polynomial::Monomial extra;
      std::set_difference(monomial.begin(), monomial.end(), rest.begin(), rest.end(), std::back_inserter(extra));
      if (std::all_of(extra.begin(), extra.end(), [&](const Symbol& s) { return inputs_.symbol(s); })) return true;
    }
    return false;
  }

  const RuntimeInputs& inputs_;
};

// The index of the run-time sized array the pointer selects in, or 0.
uint32_t runtime_array_index(const Module& module, uint32_t pointer) {
  std::optional<PointerPath> path = pointer_path(module, pointer);
  if (!path || path->element_step) return 0;
  const ir::Instruction* pointer_type = module.def(path->variable->type_id());
  const ir::Instruction* type = pointer_type ? module.def(pointer_type->word(2)) : nullptr;
  for (uint32_t index : path->indices) {
    if (!type) return 0;
    switch (type->opcode()) {
      case spv::Op::OpTypeStruct: {
        std::optional<uint64_t> member = module.constant_value(index);
        if (!member || 1 + *member >= type->operands().size()) return 0;
        type = module.def(type->word(1 + static_cast<size_t>(*member)));
        break;
      }
      case spv::Op::OpTypeRuntimeArray: return index;
      case spv::Op::OpTypeArray: type = module.def(type->word(1)); break;
      default: return 0;
    }
  }
  return 0;
}

// Every array index the pointer takes (for the forms that show a spread).
std::vector<uint32_t> array_indices(const Module& module, uint32_t pointer) {
  std::optional<PointerPath> path = pointer_path(module, pointer);
  std::vector<uint32_t> out;
  if (!path) return out;
  for (uint32_t index : path->indices) {
    if (!module.constant_value(index)) out.push_back(index);
  }
  return out;
}

bool is_ordered_integer_comparison(spv::Op op) {
  switch (op) {
    case spv::Op::OpULessThan: case spv::Op::OpULessThanEqual: case spv::Op::OpUGreaterThan:
    case spv::Op::OpUGreaterThanEqual: case spv::Op::OpSLessThan: case spv::Op::OpSLessThanEqual:
    case spv::Op::OpSGreaterThan: case spv::Op::OpSGreaterThanEqual:
      return true;
    default: return false;
  }
}

// The built-in gl_WorkGroupID or gl_GlobalInvocationID the value reads.
const ir::Instruction* builtin_id(const Module& module, uint32_t pointer) {
  const ir::Instruction* variable = pointer_variable(module, pointer);
  auto builtin = variable ? module.builtin(variable->result_id()) : std::nullopt;
  return builtin == spv::BuiltIn::WorkgroupId || builtin == spv::BuiltIn::GlobalInvocationId ? variable : nullptr;
}

// The load of the workgroup id along `axis` (or of the global invocation id)
// that `value` is computed from: the first in the source, where several are.
const ir::Instruction* id_read(const Module& module, uint32_t value, uint32_t axis) {
  std::vector<uint32_t> work{value};
  std::set<uint32_t> seen;
  const ir::Instruction* found = nullptr;
  auto take = [&](const ir::Instruction& load) {
    if (!found || module.nearest_location(load).line < module.nearest_location(*found).line) found = &load;
  };
  while (!work.empty() && seen.size() < 4096) {
    uint32_t next = work.back();
    work.pop_back();
    if (!seen.insert(next).second) continue;
    const ir::Instruction* def = module.def(next);
    if (!def || def->opcode() == spv::Op::OpLabel) continue;
    if (def->opcode() == spv::Op::OpLoad && builtin_id(module, def->word(2))) {
      // One component, through an access chain: only the axis' own.
      std::optional<PointerPath> path = pointer_path(module, def->word(2));
      if (path && !path->indices.empty() && module.constant_value(path->indices.back()) != axis) continue;
      take(*def);
      continue;
    }
    if (def->opcode() == spv::Op::OpCompositeExtract && def->operands().size() == 4) {
      const ir::Instruction* vector = module.def(def->word(2));
      if (vector && vector->opcode() == spv::Op::OpLoad && builtin_id(module, vector->word(2))) {
        if (def->word(3) == axis) take(*vector);
        continue;
      }
    }
    if (def->opcode() == spv::Op::OpVariable) {
      for (const ir::Instruction* use : module.uses(next)) {
        if (use->opcode() == spv::Op::OpStore && use->word(0) == next) work.push_back(use->word(1));
      }
      continue;
    }
    for (uint32_t input : def->input_ids()) work.push_back(input);
  }
  return found;
}

bool is_global_id(const Module& module, const ir::Instruction& load) {
  const ir::Instruction* variable = pointer_variable(module, load.word(2));
  return variable && module.builtin(variable->result_id()) == spv::BuiltIn::GlobalInvocationId;
}

std::string thousands(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

class WorkgroupCountOverLimit final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function) continue;
      std::array<Axis, 3> axes = judge_axes(module, *entry.function);
      for (uint32_t axis = 0; axis < 3; ++axis) {
        if (!axes[axis].site || axes[axis].spread) continue;
        // gl_GlobalInvocationID is the workgroup id only where the workgroup
        // is one invocation wide for certain, not at a specialization
        // constant's default the host may override.
        const ir::Instruction* read = id_read(module, axes[axis].index, axis);
        if (read && is_global_id(module, *read) && entry.workgroup_size && (*entry.workgroup_size)[axis].spec_id) {
          continue;
        }
        report_axis(module, options, *entry.function, axis, axes[axis], report);
      }
    }
  }

 private:
  static std::array<Axis, 3> judge_axes(const Module& module, const ir::Function& function) {
    const SymbolicValues& values = module.symbolic(function);
    const Accesses& accesses = module.accesses(function);
    RuntimeInputs inputs(module, values);
    AxisJudge judge(inputs);
    std::array<Axis, 3> axes;
    auto note_site = [&](Axis& axis, const ir::Instruction& site, uint32_t index, uint32_t pointer,
                         const Polynomial& form) {
      if (axis.site && module.nearest_location(*axis.site).line <= module.nearest_location(site).line) return;
      axis.site = &site;
      axis.index = index;
      axis.pointer = pointer;
      axis.form = form;
      axis.compared = pointer == 0;
    };

    // Loops that stride over the dispatch along an axis cover any count.
    for (const Loop& loop : module.loops(function)) {
      for (const ir::Instruction& phi : function.blocks[loop.header].instructions) {
        if (phi.opcode() != spv::Op::OpPhi) continue;
        const Induction* induction = values.induction(phi.result_id());
        if (!induction || !induction->step_value) continue;
        for (uint32_t a = 0; a < 3; ++a) {
          for (const Polynomial& step : forms_of(module, values, induction->step_value)) {
            if (step.mentions(Symbol{Symbol::Kind::NumWorkgroups, a})) axes[a].spread = true;
          }
          // A counter that starts at the workgroup id itself strides over
          // the workgroups, whatever its step: a count the host passes (HLSL
          // has no gl_NumWorkGroups) or a number of workgroups it assumes.
          for (const Polynomial& start : forms_of(module, values, induction->initial)) {
            if (start.coefficient(Symbol{Symbol::Kind::WorkgroupId, a}) != 0) axes[a].spread = true;
          }
        }
      }
    }

    for (const MemoryAccess& access : accesses.all()) {
      if (access.storage != spv::StorageClass::StorageBuffer) continue;
      const uint32_t runtime_index = runtime_array_index(module, access.pointer);
      for (uint32_t index : array_indices(module, access.pointer)) {
        for (const Polynomial& form : forms_of(module, values, index)) {
          for (uint32_t a = 0; a < 3; ++a) {
            if (judge.judge(form, a, axes[a]) && index == runtime_index) {
              note_site(axes[a], *access.instruction, index, access.pointer, form);
            }
          }
        }
      }
    }

    for (const ir::Block& block : function.blocks) {
      for (const ir::Instruction& comparison : block.instructions) {
        if (!is_ordered_integer_comparison(comparison.opcode())) continue;
        const uint32_t sides[2] = {comparison.word(2), comparison.word(3)};
        for (int side = 0; side < 2; ++side) {
          const bool bound = inputs.form(values.value(sides[1 - side]));
          for (const Polynomial& form : forms_of(module, values, sides[side])) {
            for (uint32_t a = 0; a < 3; ++a) {
              if (judge.judge(form, a, axes[a]) && bound) note_site(axes[a], comparison, sides[side], 0, form);
            }
          }
        }
      }
    }
    return axes;
  }

  static void report_axis(const Module& module, const RuleOptions& options, const ir::Function& function,
                          uint32_t axis, const Axis& found, Reporter& report) {
    std::vector<std::string> names;
    for (const Target* target : options.targets) {
      const uint32_t count = target->max_compute_work_group_count[axis];
      // A limit no source gives (0) is never reported on.
      if (count != 0 && count <= kGuaranteedCount) names.push_back(target->name);
    }
    if (names.empty()) return;
    const bool hlsl = module.is_hlsl();
    const SymbolicValues& values = module.symbolic(function);
    const char* a = kAxis[axis];
    const ir::Instruction* read = id_read(module, found.index, axis);
    const bool global = read && is_global_id(module, *read);
    std::string builtin =
        builtin_name(module, global ? spv::BuiltIn::GlobalInvocationId : spv::BuiltIn::WorkgroupId);
    std::string id = global ? fmt::format("{}.{} with {} = 1", builtin, a,
                                          hlsl ? fmt::format("numthreads {}", a) : fmt::format("local_size_{}", a))
                            : fmt::format("{}.{}", builtin, a);
    Location at = builtin_origin(module, global ? spv::BuiltIn::GlobalInvocationId : spv::BuiltIn::WorkgroupId,
                                 read ? module.nearest_location(*read) : module.nearest_location(*found.site));

    std::string what;
    if (found.compared) {
      what = "a count the host passes";
    } else {
      std::optional<PointerPath> path = pointer_path(module, found.pointer);
      what = fmt::format("'{}'", path ? buffer_name(module, *path) : std::string("the buffer"));
    }
    std::string stride = hlsl ? fmt::format("a loop over the group count along {}", a)
                              : fmt::format("gl_NumWorkGroups.{}", a);
    auto diagnostic = report.at(
        at, fmt::format("each workgroup along {} covers one index of {} ({}), and nothing strides over {}: one "
                        "dispatch reaches at most {} of them",
                        a, what, id, hlsl ? fmt::format("the groups along {}", a) : stride,
                        thousands(kGuaranteedCount)));
    diagnostic.about(*found.site);
    if (read) diagnostic.about(*read);
    // Forms that name values klint cannot see through read as SSA ids: left out.
    std::string form = values.describe(found.form);
    form = form.find('%') == std::string::npos ? ": " + form : "";
    diagnostic.note(*found.site, found.compared ? "the id is compared with a value the host passes" + form
                                                : "the id indexes the run-time sized array here" + form);
    std::string list;
    for (size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
    diagnostic.note(at, fmt::format("maxComputeWorkGroupCount.{} is {} on {}", a, thousands(kGuaranteedCount), list));
    judge_limit(diagnostic, options, at, fmt::format("{} workgroups along each axis", thousands(kGuaranteedCount)));
    diagnostic.fix_title(hlsl ? fmt::format("add a base offset from a constant buffer and split the dispatch, or "
                                            "loop over the group count along {}",
                                            a)
                              : fmt::format("add a base offset from a push constant and split the dispatch, or loop "
                                            "over gl_NumWorkGroups.{}",
                                            a));
  }

  // The buffer's member (`data`, for an anonymous `buffer B { float data[]; }`)
  // or variable.
  static std::string buffer_name(const Module& module, const PointerPath& path) {
    std::string name = module.variable_name(path.variable->result_id());
    const ir::Instruction* pointer_type = module.def(path.variable->type_id());
    const ir::Instruction* type = pointer_type ? module.def(pointer_type->word(2)) : nullptr;
    if (type && type->opcode() == spv::Op::OpTypeStruct && !path.indices.empty()) {
      if (std::optional<uint64_t> member = module.constant_value(path.indices.front())) {
        std::string member_name = module.member_name(type->result_id(), static_cast<uint32_t>(*member));
        // HLSL's buffers keep their element in a member of the compiler's naming.
        if (!module.is_hlsl() && !member_name.empty()) return member_name;
      }
    }
    return name;
  }
};

KLINT_REGISTER_RULE(WorkgroupCountOverLimit);

}  // namespace
}  // namespace klint
