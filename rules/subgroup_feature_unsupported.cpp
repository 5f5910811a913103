#include <functional>

#include "analyzer/ir/opcodes.h"
#include "rules/rule.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "subgroup-feature-unsupported",
    .category = Category::Portability,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .summary = "subgroup operation class or arithmetic type that a target device does not support",
    .doc = R"md(
## What it finds
A shader that uses a class of subgroup operations (basic, vote, arithmetic,
ballot, shuffle, shuffle relative, clustered, quad) that a target does not
list in `subgroupSupportedOperations`, subgroup operations on 8-, 16- or 64-bit
types without `shaderSubgroupExtendedTypes`, or 8-, 16- or 64-bit arithmetic
and 8- or 16-bit storage that a target does not offer (`shaderFloat16`,
`shaderInt8`, `shaderInt16`, `shaderInt64`, `shaderFloat64`,
`storageBuffer8BitAccess`, `storageBuffer16BitAccess`). The finding points at
the first instruction that needs the feature and names the targets without it.

## Why it matters
A pipeline whose shader needs a feature the device lacks fails to create, or
is rejected by the validation layers: the kernel that runs on a desktop GPU
does not run on the phone or laptop it ships to. Vulkan requires only basic
subgroup operations in compute shaders.

## Bad
```glsl
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    // sums of 4 neighbouring lanes: lavapipe and Adreno have no clustered operations
    data[gl_GlobalInvocationID.x] = subgroupClusteredAdd(data[gl_GlobalInvocationID.x], 4);
}
```

## Fix
```glsl
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    // the same sums from shuffles, which every target offers
    float x = data[gl_GlobalInvocationID.x];
    x += subgroupShuffleXor(x, 1u);
    x += subgroupShuffleXor(x, 2u);
    data[gl_GlobalInvocationID.x] = x;
}
```

## Exceptions
The rule checks what the shader declares it needs. A shader that takes a
fallback path when a feature is missing must be compiled twice; lint the
variant meant for each device with its own `--target`.
)md",
};

using spv::Op;

// One thing a shader may need and a target may lack.
struct Feature {
  spv::Capability capability;
  const char* description;
  std::function<bool(const Target&)> supported;
  std::function<bool(const Module&, const ir::Instruction&)> uses;  // the instruction that needs it
};

bool is_group_operation(const ir::Instruction& i, std::initializer_list<spv::GroupOperation> operations) {
  auto value = static_cast<uint32_t>(Op::OpGroupNonUniformIAdd);
  auto op = static_cast<uint32_t>(i.opcode());
  if (op < value || op > static_cast<uint32_t>(Op::OpGroupNonUniformLogicalXor) || i.operands().size() < 4) return false;
  for (spv::GroupOperation operation : operations) {
    if (i.word(3) == static_cast<uint32_t>(operation)) return true;
  }
  return false;
}

bool is_one_of(const ir::Instruction& i, std::initializer_list<Op> ops) {
  for (Op op : ops) {
    if (i.opcode() == op) return true;
  }
  return false;
}

// The bit width of a scalar, or of a vector's components; 0 for other types.
uint32_t component_width(const Module& module, uint32_t type_id) {
  const ir::Instruction* type = module.def(type_id);
  if (type && type->opcode() == Op::OpTypeVector) type = module.def(type->word(1));
  if (!type || (type->opcode() != Op::OpTypeInt && type->opcode() != Op::OpTypeFloat)) return 0;
  return type->word(1);
}

// Arithmetic on a type: an instruction computing a value of it, which loads,
// copies and pointer arithmetic do not.
bool produces(const Module& module, const ir::Instruction& i, Op kind, uint32_t width) {
  if (is_one_of(i, {Op::OpLoad, Op::OpAccessChain, Op::OpInBoundsAccessChain, Op::OpPhi, Op::OpCopyObject,
                    Op::OpVariable})) {
    return false;
  }
  const ir::Instruction* type = module.def(i.type_id());
  if (type && type->opcode() == Op::OpTypeVector) type = module.def(type->word(1));
  return type && type->opcode() == kind && type->word(1) == width;
}

auto subgroup(uint32_t bit) {
  return [bit](const Target& t) { return t.subgroup_supported_in_compute && (t.subgroup_supported_operations & bit); };
}

const std::vector<Feature>& features() {
  using C = spv::Capability;
  using G = spv::GroupOperation;
  static const std::vector<Feature> kFeatures{
      {C::GroupNonUniform, "basic subgroup operations (GL_KHR_shader_subgroup_basic)", subgroup(kSubgroupBasic),
       [](const Module&, const ir::Instruction& i) { return ir::is_subgroup_operation(i.opcode()); }},
      {C::GroupNonUniformVote, "subgroup vote operations (GL_KHR_shader_subgroup_vote)", subgroup(kSubgroupVote),
       [](const Module&, const ir::Instruction& i) {
         return is_one_of(i, {Op::OpGroupNonUniformAll, Op::OpGroupNonUniformAny, Op::OpGroupNonUniformAllEqual});
       }},
      {C::GroupNonUniformArithmetic, "subgroup arithmetic (GL_KHR_shader_subgroup_arithmetic)",
       subgroup(kSubgroupArithmetic),
       [](const Module&, const ir::Instruction& i) {
         return is_group_operation(i, {G::Reduce, G::InclusiveScan, G::ExclusiveScan});
       }},
      {C::GroupNonUniformBallot, "subgroup ballot operations (GL_KHR_shader_subgroup_ballot)", subgroup(kSubgroupBallot),
       [](const Module&, const ir::Instruction& i) {
         return is_one_of(i, {Op::OpGroupNonUniformBroadcast, Op::OpGroupNonUniformBroadcastFirst,
                              Op::OpGroupNonUniformBallot, Op::OpGroupNonUniformInverseBallot,
                              Op::OpGroupNonUniformBallotBitExtract, Op::OpGroupNonUniformBallotBitCount,
                              Op::OpGroupNonUniformBallotFindLSB, Op::OpGroupNonUniformBallotFindMSB});
       }},
      {C::GroupNonUniformShuffle, "subgroup shuffles (GL_KHR_shader_subgroup_shuffle)", subgroup(kSubgroupShuffle),
       [](const Module&, const ir::Instruction& i) {
         return is_one_of(i, {Op::OpGroupNonUniformShuffle, Op::OpGroupNonUniformShuffleXor});
       }},
      {C::GroupNonUniformShuffleRelative, "relative subgroup shuffles (GL_KHR_shader_subgroup_shuffle_relative)",
       subgroup(kSubgroupShuffleRelative),
       [](const Module&, const ir::Instruction& i) {
         return is_one_of(i, {Op::OpGroupNonUniformShuffleUp, Op::OpGroupNonUniformShuffleDown});
       }},
      {C::GroupNonUniformClustered, "clustered subgroup operations (GL_KHR_shader_subgroup_clustered)",
       subgroup(kSubgroupClustered),
       [](const Module&, const ir::Instruction& i) { return is_group_operation(i, {G::ClusteredReduce}); }},
      {C::GroupNonUniformQuad, "quad subgroup operations (GL_KHR_shader_subgroup_quad)", subgroup(kSubgroupQuad),
       [](const Module&, const ir::Instruction& i) {
         return is_one_of(i, {Op::OpGroupNonUniformQuadBroadcast, Op::OpGroupNonUniformQuadSwap});
       }},
      {C::Float16, "16-bit float arithmetic (shaderFloat16)", [](const Target& t) { return t.features.shader_float16 != false; },
       [](const Module& m, const ir::Instruction& i) { return produces(m, i, Op::OpTypeFloat, 16); }},
      {C::Float64, "64-bit float arithmetic (shaderFloat64)", [](const Target& t) { return t.features.shader_float64 != false; },
       [](const Module& m, const ir::Instruction& i) { return produces(m, i, Op::OpTypeFloat, 64); }},
      {C::Int8, "8-bit integer arithmetic (shaderInt8)", [](const Target& t) { return t.features.shader_int8 != false; },
       [](const Module& m, const ir::Instruction& i) { return produces(m, i, Op::OpTypeInt, 8); }},
      {C::Int16, "16-bit integer arithmetic (shaderInt16)", [](const Target& t) { return t.features.shader_int16 != false; },
       [](const Module& m, const ir::Instruction& i) { return produces(m, i, Op::OpTypeInt, 16); }},
      {C::Int64, "64-bit integer arithmetic (shaderInt64)", [](const Target& t) { return t.features.shader_int64 != false; },
       [](const Module& m, const ir::Instruction& i) { return produces(m, i, Op::OpTypeInt, 64); }},
      {C::StorageBuffer16BitAccess, "16-bit types in storage buffers (storageBuffer16BitAccess)",
       [](const Target& t) { return t.features.storage_buffer_16bit_access != false; },
       [](const Module& m, const ir::Instruction& i) {
         return i.opcode() == Op::OpLoad && component_width(m, i.type_id()) == 16;
       }},
      {C::StorageBuffer8BitAccess, "8-bit types in storage buffers (storageBuffer8BitAccess)",
       [](const Target& t) { return t.features.storage_buffer_8bit_access != false; },
       [](const Module& m, const ir::Instruction& i) {
         return i.opcode() == Op::OpLoad && component_width(m, i.type_id()) == 8;
       }},
  };
  return kFeatures;
}

// Subgroup operations on 8-, 16- and 64-bit values need one more feature,
// which no capability names.
bool uses_extended_types(const Module& module, const ir::Instruction& i) {
  if (!ir::is_subgroup_operation(i.opcode()) || i.type_id() == 0) return false;
  uint32_t width = component_width(module, i.type_id());
  return width != 0 && width != 32;
}

bool declares(const Module& module, spv::Capability capability) {
  for (const ir::Instruction& i : module.ir().globals) {
    if (i.opcode() == Op::OpCapability && i.word(0) == static_cast<uint32_t>(capability)) return true;
  }
  return false;
}

const ir::Instruction* first_use(const Module& module,
                                 const std::function<bool(const Module&, const ir::Instruction&)>& uses) {
  for (const ir::Function& function : module.functions()) {
    for (const ir::Block& block : function.blocks) {
      for (const ir::Instruction& i : block.instructions) {
        if (uses(module, i)) return &i;
      }
    }
  }
  return nullptr;
}

std::string joined(const std::vector<const Target*>& targets) {
  std::string out;
  for (size_t i = 0; i < targets.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == targets.size() ? " and " : ", ") + targets[i]->name;
  }
  return out;
}

class SubgroupFeatureUnsupported final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    for (const Feature& feature : features()) {
      if (!declares(module, feature.capability)) continue;
      check_feature(module, options, feature.description, feature.supported, feature.uses, report);
    }
    if (first_use(module, uses_extended_types)) {
      check_feature(module, options, "subgroup operations on 8-, 16- or 64-bit types (shaderSubgroupExtendedTypes)",
                    [](const Target& t) { return t.features.subgroup_extended_types != false; }, uses_extended_types, report);
    }
  }

 private:
  static void check_feature(const Module& module, const RuleOptions& options, const char* description,
                            const std::function<bool(const Target&)>& supported,
                            const std::function<bool(const Module&, const ir::Instruction&)>& uses,
                            Reporter& report) {
    // Only known absence counts: a feature no report verified (nullopt in the
    // target) is taken as present.
    std::vector<const Target*> lacking;
    for (const Target* target : options.targets) {
      if (!supported(*target)) lacking.push_back(target);
    }
    if (lacking.empty()) return;
    std::string message = fmt::format("the shader uses {}, which {} {} not support", description, joined(lacking),
                                      lacking.size() == 1 ? "does" : "do");
    const ir::Instruction* use = first_use(module, uses);
    Location at = use ? module.location(*use) : Location{module.path()};
    if (!use && !module.entry_points().empty() && module.entry_points().front().function) {
      at = module.location(module.entry_points().front().function->definition);
    }
    report.at(std::move(at), std::move(message))
        .fix_title("avoid the feature, or lint the variant built for these devices with its own --target");
  }
};

KLINT_REGISTER_RULE(SubgroupFeatureUnsupported);

}  // namespace
}  // namespace klint
