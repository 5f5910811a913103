#include "rules/support/device_features.h"

#include <fmt/core.h>

#include "analyzer/ir/opcodes.h"

namespace klint {
namespace {

using spv::Op;

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

auto declares(spv::Capability capability) {
  return [capability](const Module& module) {
    for (const ir::Instruction& i : module.ir().globals) {
      if (i.opcode() == Op::OpCapability && i.word(0) == static_cast<uint32_t>(capability)) return true;
    }
    return false;
  };
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

// Subgroup operations on 8-, 16- and 64-bit values need one more feature,
// which no capability names.
bool uses_extended_types(const Module& module, const ir::Instruction& i) {
  if (!ir::is_subgroup_operation(i.opcode()) || i.type_id() == 0) return false;
  uint32_t width = component_width(module, i.type_id());
  return width != 0 && width != 32;
}

std::string joined(const std::vector<const Target*>& targets) {
  std::string out;
  for (size_t i = 0; i < targets.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == targets.size() ? " and " : ", ") + targets[i]->name;
  }
  return out;
}

}  // namespace

const std::vector<DeviceFeature>& subgroup_features() {
  using C = spv::Capability;
  using G = spv::GroupOperation;
  static const std::vector<DeviceFeature> kFeatures{
      {"basic subgroup operations (GL_KHR_shader_subgroup_basic)", subgroup(kSubgroupBasic),
       declares(C::GroupNonUniform),
       [](const Module&, const ir::Instruction& i) { return ir::is_subgroup_operation(i.opcode()); }},
      {"subgroup vote operations (GL_KHR_shader_subgroup_vote)", subgroup(kSubgroupVote),
       declares(C::GroupNonUniformVote),
       [](const Module&, const ir::Instruction& i) {
         return is_one_of(i, {Op::OpGroupNonUniformAll, Op::OpGroupNonUniformAny, Op::OpGroupNonUniformAllEqual});
       }},
      {"subgroup arithmetic (GL_KHR_shader_subgroup_arithmetic)", subgroup(kSubgroupArithmetic),
       declares(C::GroupNonUniformArithmetic),
       [](const Module&, const ir::Instruction& i) {
         return is_group_operation(i, {G::Reduce, G::InclusiveScan, G::ExclusiveScan});
       }},
      {"subgroup ballot operations (GL_KHR_shader_subgroup_ballot)", subgroup(kSubgroupBallot),
       declares(C::GroupNonUniformBallot),
       [](const Module&, const ir::Instruction& i) {
         return is_one_of(i, {Op::OpGroupNonUniformBroadcast, Op::OpGroupNonUniformBroadcastFirst,
                              Op::OpGroupNonUniformBallot, Op::OpGroupNonUniformInverseBallot,
                              Op::OpGroupNonUniformBallotBitExtract, Op::OpGroupNonUniformBallotBitCount,
                              Op::OpGroupNonUniformBallotFindLSB, Op::OpGroupNonUniformBallotFindMSB});
       }},
      {"subgroup shuffles (GL_KHR_shader_subgroup_shuffle)", subgroup(kSubgroupShuffle),
       declares(C::GroupNonUniformShuffle),
       [](const Module&, const ir::Instruction& i) {
         return is_one_of(i, {Op::OpGroupNonUniformShuffle, Op::OpGroupNonUniformShuffleXor});
       }},
      {"relative subgroup shuffles (GL_KHR_shader_subgroup_shuffle_relative)", subgroup(kSubgroupShuffleRelative),
       declares(C::GroupNonUniformShuffleRelative),
       [](const Module&, const ir::Instruction& i) {
         return is_one_of(i, {Op::OpGroupNonUniformShuffleUp, Op::OpGroupNonUniformShuffleDown});
       }},
      {"clustered subgroup operations (GL_KHR_shader_subgroup_clustered)", subgroup(kSubgroupClustered),
       declares(C::GroupNonUniformClustered),
       [](const Module&, const ir::Instruction& i) { return is_group_operation(i, {G::ClusteredReduce}); }},
      {"quad subgroup operations (GL_KHR_shader_subgroup_quad)", subgroup(kSubgroupQuad),
       declares(C::GroupNonUniformQuad),
       [](const Module&, const ir::Instruction& i) {
         return is_one_of(i, {Op::OpGroupNonUniformQuadBroadcast, Op::OpGroupNonUniformQuadSwap});
       }},
      {"subgroup operations on 8-, 16- or 64-bit types (shaderSubgroupExtendedTypes)",
       [](const Target& t) { return t.features.subgroup_extended_types != false; },
       [](const Module& m) { return first_use(m, uses_extended_types) != nullptr; }, uses_extended_types},
  };
  return kFeatures;
}

const std::vector<DeviceFeature>& shader_features() {
  using C = spv::Capability;
  static const std::vector<DeviceFeature> kFeatures{
      {"16-bit float arithmetic (shaderFloat16)", [](const Target& t) { return t.features.shader_float16 != false; },
       declares(C::Float16),
       [](const Module& m, const ir::Instruction& i) { return produces(m, i, Op::OpTypeFloat, 16); }},
      {"64-bit float arithmetic (shaderFloat64)", [](const Target& t) { return t.features.shader_float64 != false; },
       declares(C::Float64),
       [](const Module& m, const ir::Instruction& i) { return produces(m, i, Op::OpTypeFloat, 64); }},
      {"8-bit integer arithmetic (shaderInt8)", [](const Target& t) { return t.features.shader_int8 != false; },
       declares(C::Int8), [](const Module& m, const ir::Instruction& i) { return produces(m, i, Op::OpTypeInt, 8); }},
      {"16-bit integer arithmetic (shaderInt16)", [](const Target& t) { return t.features.shader_int16 != false; },
       declares(C::Int16),
       [](const Module& m, const ir::Instruction& i) { return produces(m, i, Op::OpTypeInt, 16); }},
      {"64-bit integer arithmetic (shaderInt64)", [](const Target& t) { return t.features.shader_int64 != false; },
       declares(C::Int64),
       [](const Module& m, const ir::Instruction& i) { return produces(m, i, Op::OpTypeInt, 64); }},
      {"16-bit types in storage buffers (storageBuffer16BitAccess)",
       [](const Target& t) { return t.features.storage_buffer_16bit_access != false; },
       declares(C::StorageBuffer16BitAccess),
       [](const Module& m, const ir::Instruction& i) {
         return i.opcode() == Op::OpLoad && component_width(m, i.type_id()) == 16;
       }},
      {"8-bit types in storage buffers (storageBuffer8BitAccess)",
       [](const Target& t) { return t.features.storage_buffer_8bit_access != false; },
       declares(C::StorageBuffer8BitAccess),
       [](const Module& m, const ir::Instruction& i) {
         return i.opcode() == Op::OpLoad && component_width(m, i.type_id()) == 8;
       }},
  };
  return kFeatures;
}

void report_missing_features(const Module& module, const RuleOptions& options,
                             const std::vector<DeviceFeature>& features, Reporter& report) {
  // Against the default set the module's needs are its host's to check.
  if (!options.targets_declared) return;
  for (const DeviceFeature& feature : features) {
    if (!feature.needed(module)) continue;
    std::vector<const Target*> lacking;
    for (const Target* target : options.targets) {
      if (!feature.supported(*target)) lacking.push_back(target);
    }
    if (lacking.empty()) continue;
    std::string message = fmt::format("the shader uses {}, which {} {} not support", feature.description,
                                      joined(lacking), lacking.size() == 1 ? "does" : "do");
    const ir::Instruction* use = first_use(module, feature.uses);
    Location at = use ? module.location(*use) : Location{module.path()};
    if (!use && !module.entry_points().empty() && module.entry_points().front().function) {
      at = module.location(module.entry_points().front().function->definition);
    }
    report.at(std::move(at), std::move(message))
        .fix_title("avoid the feature, or lint the variant built for these devices with its own --target");
  }
}

}  // namespace klint
