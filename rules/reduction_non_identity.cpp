#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "rules/rule.h"

namespace klint {
namespace {

using spv::Op;

constexpr RuleInfo kInfo{
    .id = "reduction-non-identity",
    .category = Category::Correctness,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .summary = "invocations feed a subgroup reduction a constant that is not the identity of its operation",
    .doc = R"md(
## What it finds
A subgroup reduction or scan (`subgroupMax`, `subgroupAdd`, HLSL
`WaveActiveMax`, `WavePrefixSum`, ...) whose input is, for some invocations,
a constant that is not the identity of the operation: `0.0` into a maximum or
minimum of floats, `1` into a sum, `0` into a product. The constant comes in
two ways: invocations outside the range take it (`v = i < n ? x[i] : 0.0`,
or an `if` that skips the load), or an accumulator starts from it before a
loop folds the invocation's elements in (`float m = 0.0; for (...) m =
max(m, x[i]);`), which also holds it when the loop runs no iteration.

## Why it matters
The identity is the value that leaves the result alone: `-inf` for a
maximum, `+inf` for a minimum, 0 for a sum, 1 for a product. Any other
constant takes part: a row of negative numbers gets a maximum of 0, a softmax
built on it subtracts the wrong value and overflows or underflows. The kernel
passes every test whose data is positive.

## Bad
```glsl
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float row_max[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    float m = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < n; i += 64u) m = max(m, x[i]);
    m = subgroupMax(m);
    if (subgroupElect()) row_max[gl_SubgroupID] = m;
}
```

## Fix
```glsl
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float row_max[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    float m = -1.0 / 0.0;  // -inf: the identity of max
    for (uint i = gl_LocalInvocationID.x; i < n; i += 64u) m = max(m, x[i]);
    m = subgroupMax(m);
    if (subgroupElect()) row_max[gl_SubgroupID] = m;
}
```

## Exceptions
0 into a maximum is the identity when every value it meets is at least 0:
klint takes `abs`, `exp`, `exp2`, `sqrt`, `length`, a square (`v * v`) and a
`max` with 0 to be so, and stays silent. A constant chosen by a condition on
the data (`x > t ? x : 0.0`) is a computation, not an idle invocation's
value, and is not reported; so is the constant of an `if` klint cannot trace
to the invocation ids.
)md",
};

// GLSL.std.450 instruction numbers.
constexpr uint32_t kFAbs = 4, kSAbs = 5, kExp = 27, kExp2 = 29, kSqrt = 31, kFMin = 37, kUMin = 38, kSMin = 39,
                   kFMax = 40, kUMax = 41, kSMax = 42, kLength = 66, kNMin = 79, kNMax = 80;

enum class Fold { Max, Min, Add, Multiply };

struct Reduction {
  Fold fold;
  bool is_float;
  bool is_signed;
  const char* name;  // as GLSL spells the operation
};

std::optional<Reduction> reduction_of(Op op) {
  switch (op) {
    case Op::OpGroupNonUniformFMax: return Reduction{Fold::Max, true, true, "max"};
    case Op::OpGroupNonUniformSMax: return Reduction{Fold::Max, false, true, "max"};
    case Op::OpGroupNonUniformUMax: return Reduction{Fold::Max, false, false, "max"};
    case Op::OpGroupNonUniformFMin: return Reduction{Fold::Min, true, true, "min"};
    case Op::OpGroupNonUniformSMin: return Reduction{Fold::Min, false, true, "min"};
    case Op::OpGroupNonUniformUMin: return Reduction{Fold::Min, false, false, "min"};
    case Op::OpGroupNonUniformFAdd: return Reduction{Fold::Add, true, true, "sum"};
    case Op::OpGroupNonUniformIAdd: return Reduction{Fold::Add, false, true, "sum"};
    case Op::OpGroupNonUniformFMul: return Reduction{Fold::Multiply, true, true, "product"};
    case Op::OpGroupNonUniformIMul: return Reduction{Fold::Multiply, false, true, "product"};
    default: return std::nullopt;
  }
}

// A scalar constant's value as a double, through its type.
std::optional<double> constant_number(const Module& module, uint32_t id, bool is_signed) {
  const ir::Instruction* constant = module.def(id);
  if (!constant) return std::nullopt;
  if (constant->opcode() == Op::OpConstantNull) return 0.0;
  if (constant->opcode() != Op::OpConstant) return std::nullopt;
  const ir::Instruction* type = module.def(constant->type_id());
  if (!type) return std::nullopt;
  const uint32_t bits = constant->word(2);
  if (type->opcode() == Op::OpTypeFloat && type->word(1) == 32) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  if (type->opcode() == Op::OpTypeInt && type->word(1) == 32) {
    return is_signed ? static_cast<double>(static_cast<int32_t>(bits)) : static_cast<double>(bits);
  }
  return std::nullopt;
}

bool is_identity(const Reduction& reduction, double value) {
  switch (reduction.fold) {
    case Fold::Add: return value == 0.0;
    case Fold::Multiply: return value == 1.0;
    case Fold::Max:
      if (reduction.is_float) return value <= -3.0e38;  // -inf, or the lowest float
      return reduction.is_signed ? value <= -2147483648.0 : value == 0.0;
    case Fold::Min:
      if (reduction.is_float) return value >= 3.0e38;
      return reduction.is_signed ? value >= 2147483647.0 : value >= 4294967295.0;
  }
  return false;
}

// Whether the value is at least 0 by how it is made: 0 is then the identity
// of a maximum of it.
bool non_negative(const Module& module, uint32_t id, int depth) {
  const ir::Instruction* value = module.def(id);
  if (!value || depth > 8) return false;
  switch (value->opcode()) {
    case Op::OpFMul:
    case Op::OpIMul: return value->word(2) == value->word(3) || (non_negative(module, value->word(2), depth + 1) &&
                                                                 non_negative(module, value->word(3), depth + 1));
    case Op::OpFAdd: return non_negative(module, value->word(2), depth + 1) &&
                            non_negative(module, value->word(3), depth + 1);
    case Op::OpConstant:
    case Op::OpConstantNull: return constant_number(module, id, true).value_or(-1.0) >= 0.0;
    case Op::OpExtInst: {
      const uint32_t instruction = value->word(3);
      if (instruction == kFAbs || instruction == kSAbs || instruction == kExp || instruction == kExp2 ||
          instruction == kSqrt || instruction == kLength) {
        return true;
      }
      if (instruction == kFMax || instruction == kNMax || instruction == kSMax) {
        return non_negative(module, value->word(4), depth + 1) || non_negative(module, value->word(5), depth + 1);
      }
      return false;
    }
    default: return false;
  }
}

// The fold an accumulator's update applies: `m = max(m, v)`, `s += v`.
std::optional<Fold> fold_of(const ir::Instruction& update, uint32_t accumulator) {
  const auto operands = update.input_ids();
  if (std::find(operands.begin(), operands.end(), accumulator) == operands.end()) return std::nullopt;
  switch (update.opcode()) {
    case Op::OpFAdd:
    case Op::OpIAdd: return Fold::Add;
    case Op::OpFMul:
    case Op::OpIMul: return Fold::Multiply;
    case Op::OpExtInst:
      switch (update.word(3)) {
        case kFMax: case kNMax: case kSMax: case kUMax: return Fold::Max;
        case kFMin: case kNMin: case kSMin: case kUMin: return Fold::Min;
        default: return std::nullopt;
      }
    default: return std::nullopt;
  }
}

// Whether a pointer names one fixed element (`p.n`, `header.count`): every
// index on its way to the variable is a constant.
bool fixed_element(const Module& module, uint32_t pointer) {
  std::optional<PointerPath> path = pointer_path(module, pointer);
  return path && !path->element_step && std::all_of(path->indices.begin(), path->indices.end(), [&](uint32_t index) {
    return module.constant_value(index).has_value();
  });
}

// Whether a condition is decided by the invocation ids, loop counters and
// sizes alone: it reaches a built-in, and loads nothing but built-ins and
// fixed fields of push constants or buffers (the sizes that bound a range).
bool decided_by_ids(const Module& module, uint32_t id, int depth, bool& reaches_id, std::set<uint32_t>& seen) {
  if (depth > 24) return false;
  if (!seen.insert(id).second) return true;
  const ir::Instruction* value = module.def(id);
  if (!value) return false;
  if (value->opcode() == Op::OpConstant || value->opcode() == Op::OpConstantTrue ||
      value->opcode() == Op::OpConstantFalse || value->opcode() == Op::OpConstantComposite ||
      value->opcode() == Op::OpSpecConstant || value->opcode() == Op::OpSpecConstantOp) {
    return true;
  }
  if (value->opcode() == Op::OpLoad) {
    const auto storage = module.storage_class(value->word(2));
    if (storage == spv::StorageClass::Input) {
      reaches_id = true;
      return true;
    }
    // A function's variable stored once, whole (HLSL's copy of an entry
    // point's parameter): what was stored.
    if (storage == spv::StorageClass::Function) {
      const ir::Instruction* root = pointer_variable(module, value->word(2));
      if (!root || !fixed_element(module, value->word(2))) return false;
      const uint32_t variable = root->result_id();
      uint32_t stored = 0;
      int stores = 0;
      for (const ir::Instruction* use : module.uses(variable)) {
        if (use->opcode() == Op::OpStore && use->word(0) == variable) stored = use->word(1), ++stores;
        if (use->opcode() != Op::OpAccessChain) continue;
        for (const ir::Instruction* part : module.uses(use->result_id())) {
          if (part->opcode() != Op::OpLoad) stores += 2;  // written in parts: not followed
        }
      }
      return stores == 1 && decided_by_ids(module, stored, depth + 1, reaches_id, seen);
    }
    return fixed_element(module, value->word(2));
  }
  if (value->opcode() != Op::OpPhi && !is_pure(value->opcode())) return false;
  for (uint32_t input : value->input_ids()) {
    if (!decided_by_ids(module, input, depth + 1, reaches_id, seen)) return false;
  }
  return true;
}

bool idle_condition(const Module& module, uint32_t condition) {
  bool reaches_id = false;
  std::set<uint32_t> seen;
  return decided_by_ids(module, condition, 0, reaches_id, seen) && reaches_id;
}

// A constant the reduction's input takes for some invocations.
struct Feed {
  const ir::Instruction* where;  // the phi or select that picks it
  double value;
  bool accumulator;  // the initial value of a loop's accumulator
};

// How a shared array is reduced: a store of max(s[a], s[b]) (or min, +, *)
// of two of its own elements, as a tree reduction does.
std::optional<Reduction> shared_fold(const Module& module, uint32_t variable, const ir::Instruction*& fold_store) {
  auto loaded_from = [&](uint32_t id) {
    const ir::Instruction* load = module.def(id);
    return load && load->opcode() == Op::OpLoad && pointer_variable(module, load->word(2)) == module.def(variable);
  };
  for (const ir::Instruction* use : module.uses(variable)) {
    if (use->opcode() != Op::OpAccessChain && use->opcode() != Op::OpInBoundsAccessChain) continue;
    for (const ir::Instruction* store : module.uses(use->result_id())) {
      if (store->opcode() != Op::OpStore || store->word(0) != use->result_id()) continue;
      const ir::Instruction* value = module.def(store->word(1));
      if (!value) continue;
      std::optional<Reduction> reduction;
      uint32_t a = 0, b = 0;
      if (value->opcode() == Op::OpExtInst && value->operands().size() == 6) {
        a = value->word(4), b = value->word(5);
        switch (value->word(3)) {
          case kFMax: case kNMax: reduction = Reduction{Fold::Max, true, true, "max"}; break;
          case kSMax: reduction = Reduction{Fold::Max, false, true, "max"}; break;
          case kUMax: reduction = Reduction{Fold::Max, false, false, "max"}; break;
          case kFMin: case kNMin: reduction = Reduction{Fold::Min, true, true, "min"}; break;
          case kSMin: reduction = Reduction{Fold::Min, false, true, "min"}; break;
          case kUMin: reduction = Reduction{Fold::Min, false, false, "min"}; break;
          default: break;
        }
      } else if (value->opcode() == Op::OpFAdd || value->opcode() == Op::OpIAdd) {
        a = value->word(2), b = value->word(3);
        reduction = Reduction{Fold::Add, value->opcode() == Op::OpFAdd, true, "sum"};
      } else if (value->opcode() == Op::OpFMul || value->opcode() == Op::OpIMul) {
        a = value->word(2), b = value->word(3);
        reduction = Reduction{Fold::Multiply, value->opcode() == Op::OpFMul, true, "product"};
      }
      if (reduction && loaded_from(a) && loaded_from(b)) {
        fold_store = store;
        return reduction;
      }
    }
  }
  return std::nullopt;
}

class ReductionNonIdentity final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    for (const ir::Function& function : module.ir().functions) {
      for (const ir::Block& block : function.blocks) {
        for (const ir::Instruction& instruction : block.instructions) {
          auto reduction = reduction_of(instruction.opcode());
          if (!reduction || instruction.operands().size() < 5) continue;
          const auto operation = static_cast<spv::GroupOperation>(instruction.word(3));
          if (operation != spv::GroupOperation::Reduce && operation != spv::GroupOperation::InclusiveScan &&
              operation != spv::GroupOperation::ExclusiveScan) {
            continue;
          }
          std::optional<Feed> feed = find_feed(module, function, *reduction, instruction.word(4));
          if (feed) report_feed(module, report, instruction, *reduction, *feed, nullptr);
        }
      }
    }
    check_shared(module, report);
  }

 private:
  // Tree reductions in shared memory: the values stored into the array
  // before it is folded.
  static void check_shared(const Module& module, Reporter& report) {
    for (const ir::Instruction& variable : module.ir().globals) {
      if (variable.opcode() != Op::OpVariable || module.storage_class(variable.result_id()) != spv::StorageClass::Workgroup) {
        continue;
      }
      const ir::Instruction* fold_store = nullptr;
      std::optional<Reduction> reduction = shared_fold(module, variable.result_id(), fold_store);
      if (!reduction) continue;
      for (const ir::Instruction* use : module.uses(variable.result_id())) {
        if (use->opcode() != Op::OpAccessChain && use->opcode() != Op::OpInBoundsAccessChain) continue;
        for (const ir::Instruction* store : module.uses(use->result_id())) {
          if (store->opcode() != Op::OpStore || store == fold_store || store->word(0) != use->result_id()) continue;
          const ir::Block* block = module.block_of(*store);
          const ir::Function* function = block ? module.function_of(*block) : nullptr;
          if (!function) continue;
          if (auto feed = find_feed(module, *function, *reduction, store->word(1))) {
            report_feed(module, report, *store, *reduction, *feed, fold_store);
            return;
          }
        }
      }
    }
  }

  static std::optional<Feed> find_feed(const Module& module, const ir::Function& function, const Reduction& reduction,
                                       uint32_t input) {
    const ir::Instruction* value = module.def(input);
    if (!value) return std::nullopt;
    std::vector<uint32_t> data;
    std::optional<Feed> feed;
    auto consider = [&](uint32_t leaf, const ir::Instruction& where, bool accumulator) {
      if (auto number = constant_number(module, leaf, reduction.is_signed)) {
        if (!is_identity(reduction, *number) && !feed) feed = Feed{&where, *number, accumulator};
      } else {
        data.push_back(leaf);
      }
    };
    if (value->opcode() == Op::OpSelect) {
      if (!idle_condition(module, value->word(2))) return std::nullopt;
      consider(value->word(3), *value, false);
      consider(value->word(4), *value, false);
    } else if (value->opcode() == Op::OpPhi) {
      const ir::Block* block = module.block_of(*value);
      const bool header = block && block->merge() && block->merge()->opcode() == Op::OpLoopMerge;
      if (header) {
        // An accumulator: the constant it starts from, and the fold each
        // iteration applies, which must be the reduction's own.
        for (size_t k = 2; k + 1 < value->operands().size(); k += 2) {
          const ir::Instruction* incoming = module.def(value->word(k));
          if (!incoming || constant_number(module, value->word(k), reduction.is_signed)) {
            consider(value->word(k), *value, true);
            continue;
          }
          if (fold_of(*incoming, value->result_id()) != reduction.fold) return std::nullopt;
          const size_t first = incoming->opcode() == Op::OpExtInst ? 4 : 2;
          for (size_t w = first; w < incoming->operands().size(); ++w) {
            if (incoming->word(w) != value->result_id()) data.push_back(incoming->word(w));
          }
        }
      } else {
        if (!decided_by_id_branch(module, function, *value)) return std::nullopt;
        for (size_t k = 2; k + 1 < value->operands().size(); k += 2) consider(value->word(k), *value, false);
      }
    } else {
      return std::nullopt;
    }
    if (!feed || data.empty()) return std::nullopt;
    // 0 into a maximum of values that are never negative leaves it alone.
    if (reduction.fold == Fold::Max && feed->value == 0.0 &&
        std::all_of(data.begin(), data.end(), [&](uint32_t id) { return non_negative(module, id, 0); })) {
      return std::nullopt;
    }
    return feed;
  }

  // The branch that decides which value a phi takes is the one that ends
  // its block's immediate dominator; it must test the invocation ids.
  static bool decided_by_id_branch(const Module& module, const ir::Function& function, const ir::Instruction& phi) {
    const ir::Block* block = module.block_of(phi);
    if (!block) return false;
    const Cfg& cfg = module.cfg(function);
    const int index = cfg.index_of(block->id());
    if (index < 0) return false;
    const int idom = module.dominators(function).idom(static_cast<uint32_t>(index));
    if (idom < 0) return false;
    const ir::Block& decider = function.blocks[static_cast<uint32_t>(idom)];
    if (decider.instructions.empty() || decider.instructions.back().opcode() != Op::OpBranchConditional) return false;
    return idle_condition(module, decider.instructions.back().word(0));
  }

  static std::string number_text(const Reduction& reduction, double value) {
    if (reduction.is_float) return fmt::format("{:g}", value);
    return fmt::format("{}", static_cast<int64_t>(value));
  }

  static std::string identity_text(const Reduction& reduction) {
    switch (reduction.fold) {
      case Fold::Add: return "0";
      case Fold::Multiply: return "1";
      case Fold::Max: return reduction.is_float ? "-inf" : reduction.is_signed ? "the lowest int" : "0";
      case Fold::Min: return reduction.is_float ? "+inf" : reduction.is_signed ? "the largest int" : "the largest uint";
    }
    return "";
  }

  static void report_feed(const Module& module, Reporter& report, const ir::Instruction& operation,
                          const Reduction& reduction, const Feed& feed, const ir::Instruction* fold) {
    const std::string value = number_text(reduction, feed.value);
    const std::string what = fold ? fmt::format("the {} of shared '{}'", reduction.name,
                                                module.variable_name(pointer_variable(module, operation.word(0))->result_id()))
                                  : fmt::format("the subgroup {}", reduction.name);
    auto diagnostic = report.at(
        module.nearest_location(operation), fmt::format("{} takes {} from {}, and {} is not the identity of a {} ({} is): "
                               "it can change the result",
                               what, value,
                               feed.accumulator ? "invocations whose accumulator keeps its starting value"
                                                : "the invocations that take no element",
                               value, reduction.name, identity_text(reduction)));
    diagnostic.note(module.nearest_location(*feed.where),
                    feed.accumulator
                        ? fmt::format("the accumulator starts at {}, and every iteration folds it into the {}", value,
                                      reduction.name)
                        : fmt::format("{} is chosen here for the invocations outside the range", value));
    diagnostic.about(operation);
    if (fold) {
      diagnostic.note(module.nearest_location(*fold),
                      fmt::format("the array is folded here with {}", reduction.name));
    }
    if (reduction.fold == Fold::Max || reduction.fold == Fold::Min) {
      diagnostic.note(module.nearest_location(*feed.where),
                      fmt::format("klint assumes the values can be {} than {}; if they never are, {} is an identity",
                                  reduction.fold == Fold::Max ? "lower" : "higher", value, value));
    }
    diagnostic.fix_title(fmt::format("start from {}, the identity of the {}", identity_text(reduction), reduction.name));
  }
};

KLINT_REGISTER_RULE(ReductionNonIdentity);

}  // namespace
}  // namespace klint
