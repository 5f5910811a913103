#include "runner/instrument.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "analyzer/barriers.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/workgroup_memory.h"
#include "runner/module_edits.h"
#include "runner/type_sizes.h"
#include "runner/probe.h"

namespace klint::runner {

using spv::Op;
using spv::StorageClass;

namespace {

// maxBoundDescriptorSets: Vulkan guarantees 4; lavapipe and GPUs give 8 or more.
constexpr uint32_t kMaxSets = 8;

// A pointer followed back to its variable: the indices applied on the way.
struct Chain {
  uint32_t variable = 0;
  std::vector<uint32_t> indices;
};

class Instrumenter {
 public:
  Instrumenter(ir::Module& out, const ::klint::Module& in, const InstrumentOptions& options, Instrumented& result)
      : out_(out), in_(in), options_(options), result_(result) {}

  bool run(std::string* error);

 private:
  // Types, constants and variables.
  uint32_t uint_type() { return out_.find_or_add_global(Op::OpTypeInt, 0, {ir::literal(32), ir::literal(0)}); }
  uint32_t bool_type() { return out_.find_or_add_global(Op::OpTypeBool, 0, {}); }
  uint32_t constant(uint32_t value) {
    return out_.find_or_add_global(Op::OpConstant, uint_type(), {ir::literal(value)});
  }
  uint32_t pointer_type(StorageClass storage, uint32_t pointee) {
    return out_.find_or_add_global(Op::OpTypePointer, 0,
                                   {ir::literal(static_cast<uint32_t>(storage)), ir::id(pointee)});
  }
  void decorate(uint32_t target, spv::Decoration decoration, std::initializer_list<uint32_t> literals);
  uint32_t add_variable(StorageClass storage, uint32_t pointee, uint32_t initializer = 0);
  uint32_t builtin_input(spv::BuiltIn builtin, bool vector);
  void make_log();

  // Code.
  uint32_t emit(Op op, uint32_t type, std::initializer_list<ir::NewOperand> operands);
  void emit_void(Op op, std::initializer_list<ir::NewOperand> operands);
  uint32_t as_uint(uint32_t value_id);
  uint32_t load_builtin(uint32_t variable, bool vector);

  std::optional<Chain> follow(uint32_t pointer) const;
  uint32_t pointee(uint32_t pointer_type_id) const { return in_.def(pointer_type_id)->word(2); }
  uint64_t scalars(uint32_t type) const { return scalar_count(in_, type); }
  std::optional<uint32_t> bytes(uint32_t type) const { return buffer_bytes(in_, type); }
  uint32_t scalar_width(uint32_t type) const { return runner::scalar_width(in_, type); }
  bool orders_workgroup_memory(const ir::Instruction& barrier) const;

  // Emits the element index and the out-of-range mask of a chain; false when
  // its layout is beyond what klint follows (the reason in why).
  bool element(const Chain& chain, bool storage, AccessSite& site, uint32_t* element, uint32_t* out_of_range,
               std::vector<uint32_t>* clamped, std::string* why);
  // The access's element, out-of-range mask and, for a workgroup access with
  // a dynamic array index, a pointer with every such index clamped into its
  // array (0 when there is none to clamp).
  std::optional<uint32_t> site_for(const ir::Instruction& access, uint32_t pointer, AccessKind kind, uint32_t* element,
                                   uint32_t* out_of_range, uint32_t* clamped_pointer);
  void log(uint32_t site, uint32_t element, uint32_t value, uint32_t out_of_range);
  uint32_t add_site(const ir::Instruction& instruction, AccessKind kind);
  void log_group_operation(const ir::Instruction& operation);
  // Appends one record: its first three words are the site, the workgroup
  // and the invocation; `rest` fills the others.
  void append_record(uint32_t site, const std::array<uint32_t, kRecordWords - 3>& rest);
  uint32_t value_of(const ir::Instruction& access, AccessKind kind, AccessSite& site);
  // Logs every access of one instruction around it into `rewritten`.
  void rewrite_access(const ir::Instruction& access, std::vector<ir::Instruction>& rewritten);
  bool place_probes(std::string* error);
  void record_probe(uint32_t probe);
  uint32_t bits_of(uint32_t value, ValueType type);

  ir::Module& out_;
  const ::klint::Module& in_;
  const InstrumentOptions& options_;
  Instrumented& result_;
  std::vector<ir::Instruction>* code_ = nullptr;  // where emit() appends
  uint32_t log_ = 0, epoch_ = 0, local_index_ = 0, workgroup_id_ = 0, workgroups_ = 0;
  bool ballot_capability_ = false;  // whether a group operation was logged yet
  uint32_t lane_ = 0, subgroup_size_ = 0;
  uint32_t atomic_scope_ = static_cast<uint32_t>(spv::Scope::Device);
  bool in_loop_ = false;                                 // whether the block being rewritten is in a loop
  std::vector<uint32_t> workgroup_vars_, storage_vars_;  // by target index
  // Per probe: the value it records and its Private count of executions.
  std::vector<ProbeTarget> probe_targets_;
  std::vector<uint32_t> probe_counters_;
  std::unordered_map<const ir::Instruction*, std::vector<uint32_t>> probes_after_;
};

void Instrumenter::decorate(uint32_t target, spv::Decoration decoration, std::initializer_list<uint32_t> literals) {
  const auto d = ir::literal(static_cast<uint32_t>(decoration));
  out_.add_global(literals.size() == 0 ? ir::make_instruction(Op::OpDecorate, 0, 0, {ir::id(target), d})
                                       : ir::make_instruction(Op::OpDecorate, 0, 0,
                                                              {ir::id(target), d, ir::literal(*literals.begin())}));
}

uint32_t Instrumenter::add_variable(StorageClass storage, uint32_t pointee, uint32_t initializer) {
  const uint32_t type = pointer_type(storage, pointee);
  const uint32_t id = out_.allocate_id();
  if (initializer) {
    out_.add_global(ir::make_instruction(Op::OpVariable, type, id,
                                         {ir::literal(static_cast<uint32_t>(storage)), ir::id(initializer)}));
  } else {
    out_.add_global(ir::make_instruction(Op::OpVariable, type, id, {ir::literal(static_cast<uint32_t>(storage))}));
  }
  const bool interface = out_.header.version >= 0x10400 || storage == StorageClass::Input;
  if (interface) {
    for (const EntryPoint& entry : in_.entry_points()) out_.add_entry_point_interface(entry.function->id(), id);
  }
  return id;
}

// The module's own variable for a built-in where it has one: an entry point
// may not declare the same built-in twice.
uint32_t Instrumenter::builtin_input(spv::BuiltIn builtin, bool vector) {
  for (const ir::Instruction& i : in_.ir().globals) {
    if (i.opcode() == Op::OpVariable && i.word(2) == static_cast<uint32_t>(StorageClass::Input) &&
        in_.decoration(i.result_id(), spv::Decoration::BuiltIn) == static_cast<uint32_t>(builtin)) {
      for (const EntryPoint& entry : in_.entry_points())
        out_.add_entry_point_interface(entry.function->id(), i.result_id());
      return i.result_id();
    }
  }
  const uint32_t type =
      vector ? out_.find_or_add_global(Op::OpTypeVector, 0, {ir::id(uint_type()), ir::literal(3)}) : uint_type();
  const uint32_t id = add_variable(StorageClass::Input, type);
  decorate(id, spv::Decoration::BuiltIn, {static_cast<uint32_t>(builtin)});
  return id;
}

void Instrumenter::make_log() {
  const uint32_t u = uint_type();
  const uint32_t records = out_.allocate_id();
  out_.add_global(ir::make_instruction(Op::OpTypeRuntimeArray, 0, records, {ir::id(u)}));
  decorate(records, spv::Decoration::ArrayStride, {4});
  const uint32_t block = out_.allocate_id();
  out_.add_global(ir::make_instruction(Op::OpTypeStruct, 0, block, {ir::id(u), ir::id(u), ir::id(records)}));
  decorate(block, spv::Decoration::Block, {});
  for (uint32_t m = 0; m < 3; ++m) {
    out_.add_global(
        ir::make_instruction(Op::OpMemberDecorate, 0, 0,
                             {ir::id(block), ir::literal(m),
                              ir::literal(static_cast<uint32_t>(spv::Decoration::Offset)), ir::literal(4 * m)}));
  }
  if (out_.header.version < 0x10300) {
    out_.add_global(ir::make_instruction(Op::OpExtension, 0, 0, {ir::string("SPV_KHR_storage_buffer_storage_class")}));
  }
  log_ = add_variable(StorageClass::StorageBuffer, block);
  decorate(log_, spv::Decoration::DescriptorSet, {result_.log_set});
  decorate(log_, spv::Decoration::Binding, {0});
  out_.add_global(ir::make_instruction(Op::OpName, 0, 0, {ir::id(log_), ir::string("klint_log")}));
  epoch_ = add_variable(StorageClass::Private, u, constant(0));
  out_.add_global(ir::make_instruction(Op::OpName, 0, 0, {ir::id(epoch_), ir::string("klint_epoch")}));
  local_index_ = builtin_input(spv::BuiltIn::LocalInvocationIndex, false);
  workgroup_id_ = builtin_input(spv::BuiltIn::WorkgroupId, true);
  workgroups_ = builtin_input(spv::BuiltIn::NumWorkgroups, true);
  for (const ir::Instruction& i : out_.globals) {
    if (i.opcode() == Op::OpMemoryModel && i.word(1) == static_cast<uint32_t>(spv::MemoryModel::Vulkan)) {
      atomic_scope_ =
          static_cast<uint32_t>(spv::Scope::QueueFamily);  // Device scope needs a capability of its own there
    }
  }
}

uint32_t Instrumenter::emit(Op op, uint32_t type, std::initializer_list<ir::NewOperand> operands) {
  const uint32_t id = out_.allocate_id();
  code_->push_back(ir::make_instruction(op, type, id, operands));
  return id;
}

void Instrumenter::emit_void(Op op, std::initializer_list<ir::NewOperand> operands) {
  code_->push_back(ir::make_instruction(op, 0, 0, operands));
}

// Any integer as a 32-bit unsigned one: signed indices keep their bits, so a
// negative one becomes a huge index, which is out of range as it should be.
uint32_t Instrumenter::as_uint(uint32_t value) {
  const ir::Instruction* type = in_.def(in_.def(value) ? in_.def(value)->type_id() : 0);
  if (!type || type->opcode() != Op::OpTypeInt) return value;
  const uint32_t width = type->word(1);
  const bool is_signed = type->word(2) != 0;
  if (width == 32) return is_signed ? emit(Op::OpBitcast, uint_type(), {ir::id(value)}) : value;
  if (is_signed) {
    // SConvert keeps the sign (a negative index stays huge); then the bits.
    const uint32_t int32 = out_.find_or_add_global(Op::OpTypeInt, 0, {ir::literal(32), ir::literal(1)});
    return emit(Op::OpBitcast, uint_type(), {ir::id(emit(Op::OpSConvert, int32, {ir::id(value)}))});
  }
  return emit(Op::OpUConvert, uint_type(), {ir::id(value)});
}

uint32_t Instrumenter::load_builtin(uint32_t variable, bool vector) {
  const ir::Instruction* var = in_.def(variable);
  const uint32_t type =
      var ? pointee(var->type_id())
          : (vector ? out_.find_or_add_global(Op::OpTypeVector, 0, {ir::id(uint_type()), ir::literal(3)})
                    : uint_type());
  const uint32_t loaded = emit(Op::OpLoad, type, {ir::id(variable)});
  const ir::Instruction* t = in_.def(type);
  const bool is_signed = t && ((t->opcode() == Op::OpTypeInt && t->word(2)) ||
                               (t->opcode() == Op::OpTypeVector && in_.def(t->word(1))->word(2)));
  if (!is_signed) return loaded;
  const uint32_t unsigned_type =
      vector ? out_.find_or_add_global(Op::OpTypeVector, 0, {ir::id(uint_type()), ir::literal(3)}) : uint_type();
  return emit(Op::OpBitcast, unsigned_type, {ir::id(loaded)});
}

// The variable a pointer leads to and the indices on the way; an element
// step of OpPtrAccessChain leaves klint no element to log.
std::optional<Chain> Instrumenter::follow(uint32_t pointer) const {
  std::optional<PointerPath> path = pointer_path(in_, pointer);
  if (!path || path->element_step) return std::nullopt;
  return Chain{path->variable->result_id(), std::move(path->indices)};
}

// The barriers the insufficient-barrier rule calls sufficient: they make the
// workgroup wait and order its workgroup memory. Semantics klint cannot read
// count, as the rule trusts them.
bool Instrumenter::orders_workgroup_memory(const ir::Instruction& instruction) const {
  std::optional<Barrier> barrier = barrier_of(in_, instruction);
  return barrier && may(barrier->synchronizes_workgroup_memory());
}

bool Instrumenter::element(const Chain& chain, bool storage, AccessSite& site, uint32_t* element,
                           uint32_t* out_of_range, std::vector<uint32_t>* clamped, std::string* why) {
  uint32_t type = pointee(in_.def(chain.variable)->type_id());
  uint64_t offset = 0;
  uint32_t sum = 0, mask = 0;  // ids of the dynamic part, 0 while there is none
  std::optional<uint32_t> matrix_stride;
  bool row_major = false;
  for (uint32_t index : chain.indices) {
    const ir::Instruction* t = in_.def(type);
    const std::optional<uint64_t> fixed = in_.constant_value(index);
    uint64_t stride = 0;
    std::optional<uint64_t> length;
    uint32_t next = 0;
    switch (t ? t->opcode() : Op::OpNop) {
      case Op::OpTypeStruct: {
        if (!fixed) {
          *why = "a struct member chosen at run time";
          return false;
        }
        const uint32_t member = static_cast<uint32_t>(*fixed);
        if (storage) {
          std::optional<uint32_t> at = in_.member_decoration(type, member, spv::Decoration::Offset);
          if (!at) {
            *why = "a block member without an offset";
            return false;
          }
          offset += *at;
          matrix_stride = in_.member_decoration(type, member, spv::Decoration::MatrixStride);
          row_major = in_.member_decoration(type, member, spv::Decoration::RowMajor).has_value();
        } else {
          for (uint32_t m = 0; m < member; ++m) offset += scalars(t->word(1 + m));
        }
        type = t->word(1 + member);
        continue;
      }
      case Op::OpTypeArray:
        length = in_.constant_value(t->word(2));
        [[fallthrough]];
      case Op::OpTypeRuntimeArray:
        next = t->word(1);
        if (storage) {
          std::optional<uint32_t> array_stride = in_.decoration(type, spv::Decoration::ArrayStride);
          if (!array_stride) {
            *why = "an array without a stride";
            return false;
          }
          stride = *array_stride;
        } else {
          stride = scalars(next);
        }
        break;
      case Op::OpTypeVector:
        next = t->word(1);
        length = t->word(2);
        stride = storage ? bytes(next).value_or(0) : 1;
        break;
      case Op::OpTypeMatrix:
        next = t->word(1);
        length = t->word(2);
        if (storage && (!matrix_stride || row_major)) {
          *why = "a row-major matrix";
          return false;
        }
        stride = storage ? *matrix_stride : scalars(next);
        break;
      default:
        *why = "an access chain into a type klint does not follow";
        return false;
    }
    type = next;
    if (fixed) {
      offset += *fixed * stride;
      clamped->push_back(index);
      continue;
    }
    const uint32_t value = as_uint(index);
    const uint32_t term =
        emit(Op::OpIMul, uint_type(), {ir::id(value), ir::id(constant(static_cast<uint32_t>(stride)))});
    sum = sum ? emit(Op::OpIAdd, uint_type(), {ir::id(sum), ir::id(term)}) : term;
    if (length && site.lengths.size() < 32) {
      const uint32_t bit = 1u << site.lengths.size();
      site.lengths.push_back(*length);
      const uint32_t bad =
          emit(Op::OpUGreaterThanEqual, bool_type(), {ir::id(value), ir::id(constant(static_cast<uint32_t>(*length)))});
      const uint32_t flag = emit(Op::OpSelect, uint_type(), {ir::id(bad), ir::id(constant(bit)), ir::id(constant(0))});
      mask = mask ? emit(Op::OpBitwiseOr, uint_type(), {ir::id(mask), ir::id(flag)}) : flag;
      const uint32_t last = constant(static_cast<uint32_t>(*length - 1));
      clamped->push_back(emit(Op::OpSelect, uint_type(), {ir::id(bad), ir::id(last), ir::id(value)}));
    } else {
      clamped->push_back(index);
    }
  }
  if (storage) {
    std::optional<uint32_t> size = bytes(type);
    if (!size) {
      *why = "an access to a whole struct, array or matrix in a buffer";
      return false;
    }
    site.count = *size;
  } else {
    site.count = static_cast<uint32_t>(scalars(type));
  }
  const uint32_t base = constant(static_cast<uint32_t>(offset));
  *element = !sum ? base : offset ? emit(Op::OpIAdd, uint_type(), {ir::id(sum), ir::id(base)}) : sum;
  *out_of_range = mask ? mask : constant(0);
  return true;
}

std::optional<uint32_t> Instrumenter::site_for(const ir::Instruction& access, uint32_t pointer, AccessKind kind,
                                               uint32_t* element_id, uint32_t* out_of_range,
                                               uint32_t* clamped_pointer) {
  const std::optional<StorageClass> storage_class = in_.storage_class(pointer);
  if (!storage_class) return std::nullopt;
  const std::optional<Chain> chain = follow(pointer);
  const Location location = in_.nearest_location(access);
  auto skip = [&](const std::string& why) {
    result_.skipped.push_back(location.file + ":" + std::to_string(location.line) + ": " + why);
    return std::nullopt;
  };
  bool storage = false;
  if (*storage_class == StorageClass::Workgroup) {
    if (!options_.workgroup) return std::nullopt;
    if (!chain) return skip("an access through a pointer klint cannot follow to its workgroup variable");
  } else {
    // Loads only inside loops: what a grid-stride loop reads twice shows
    // that its workgroups redo each other's elements.
    const bool named = std::find(options_.storage_accesses.begin(), options_.storage_accesses.end(),
                                 in_.ordinal(access)) != options_.storage_accesses.end();
    if ((kind != AccessKind::Write && !(kind == AccessKind::Read && (in_loop_ || named))) || !chain) {
      return std::nullopt;
    }
    if (!options_.storage && !named) return std::nullopt;
    const uint32_t block = pointee(in_.def(chain->variable)->type_id());
    const bool buffer =
        *storage_class == StorageClass::StorageBuffer ||
        (*storage_class == StorageClass::Uniform && in_.has_decoration(block, spv::Decoration::BufferBlock));
    if (!buffer) return std::nullopt;
    storage = true;
    kind = kind == AccessKind::Write ? AccessKind::StorageWrite : AccessKind::StorageRead;
  }

  AccessSite site;
  site.kind = kind;
  site.location = location;
  site.instruction = in_.ordinal(access);
  std::vector<uint32_t>& vars = storage ? storage_vars_ : workgroup_vars_;
  auto known = std::find(vars.begin(), vars.end(), chain->variable);
  site.target = static_cast<uint32_t>(known - vars.begin());
  std::string why;
  std::vector<uint32_t> clamped;
  if (!element(*chain, storage, site, element_id, out_of_range, &clamped, &why)) return skip(why);
  if (!storage) site.scalar_bytes = scalar_width(pointee(in_.def(pointer)->type_id()));
  // An index out of range writes over whatever the driver keeps beside the
  // array (lavapipe: its heap) and can end the run before the log shows why.
  // The run goes on with the index clamped; the log keeps the real one.
  *clamped_pointer = 0;
  if (!storage && !site.lengths.empty()) {
    const uint32_t id = out_.allocate_id();
    std::vector<uint32_t> words{static_cast<uint32_t>(Op::OpAccessChain), in_.def(pointer)->type_id(), id,
                                chain->variable};
    words.insert(words.end(), clamped.begin(), clamped.end());
    code_->push_back(instruction_from(words));
    *clamped_pointer = id;
  }
  if (known == vars.end()) {
    vars.push_back(chain->variable);
    if (storage) {
      std::string name = in_.name(chain->variable);
      if (name.empty() || name.starts_with('%')) name = in_.name(pointee(in_.def(chain->variable)->type_id()));
      result_.storage.push_back({in_.decoration(chain->variable, spv::Decoration::DescriptorSet).value_or(0),
                                 in_.decoration(chain->variable, spv::Decoration::Binding).value_or(0), name});
    } else {
      const uint32_t type = pointee(in_.def(chain->variable)->type_id());
      const ir::Instruction* t = in_.def(type);
      const bool scalar_array = t->opcode() == Op::OpTypeArray && scalars(t->word(1)) == 1;
      result_.workgroup.push_back(
          {in_.name(chain->variable), scalars(type), scalar_array, in_.declaration(chain->variable)});
    }
  }
  result_.sites.push_back(std::move(site));
  return static_cast<uint32_t>(result_.sites.size() - 1);
}

// A site for an instruction that touches no memory (a barrier, a branch).
uint32_t Instrumenter::add_site(const ir::Instruction& instruction, AccessKind kind) {
  AccessSite site;
  site.kind = kind;
  site.location = in_.nearest_location(instruction);
  site.instruction = in_.ordinal(instruction);
  result_.sites.push_back(std::move(site));
  return static_cast<uint32_t>(result_.sites.size() - 1);
}

// The lanes a subgroup operation works on: 4 for quad operations, the
// cluster size of a clustered one, 0 for the whole subgroup.
uint32_t group_lanes(const ::klint::Module& module, const ir::Instruction& operation) {
  if (operation.opcode() == Op::OpGroupNonUniformQuadBroadcast || operation.opcode() == Op::OpGroupNonUniformQuadSwap) {
    return 4;
  }
  // Reductions: scope, group operation, value[, cluster size].
  if (operation.operands().size() == 4 && operation.word(1) == static_cast<uint32_t>(spv::GroupOperation::ClusteredReduce)) {
    return static_cast<uint32_t>(module.constant_value(operation.word(3)).value_or(0));
  }
  return 0;
}

// Logs the lanes active at a subgroup operation: its lane, the subgroup's
// size and the ballot of the active lanes.
void Instrumenter::log_group_operation(const ir::Instruction& operation) {
  const uint32_t site = add_site(operation, AccessKind::GroupOperation);
  result_.sites.back().count = group_lanes(in_, operation);
  if (!ballot_capability_) {
    ballot_capability_ = true;
    bool has = false;
    for (const ir::Instruction& i : out_.globals) {
      has |= i.opcode() == Op::OpCapability && i.word(0) == static_cast<uint32_t>(spv::Capability::GroupNonUniformBallot);
    }
    if (!has) {
      out_.add_global(ir::make_instruction(
          Op::OpCapability, 0, 0, {ir::literal(static_cast<uint32_t>(spv::Capability::GroupNonUniformBallot))}));
    }
    lane_ = builtin_input(spv::BuiltIn::SubgroupLocalInvocationId, false);
    subgroup_size_ = builtin_input(spv::BuiltIn::SubgroupSize, false);
  }
  const uint32_t u = uint_type();
  const uint32_t uvec4 = out_.find_or_add_global(Op::OpTypeVector, 0, {ir::id(u), ir::literal(4)});
  const uint32_t ballot =
      emit(Op::OpGroupNonUniformBallot, uvec4,
           {ir::id(constant(static_cast<uint32_t>(spv::Scope::Subgroup))),
            ir::id(out_.find_or_add_global(Op::OpConstantTrue, bool_type(), {}))});
  auto word = [&](uint32_t k) { return emit(Op::OpCompositeExtract, u, {ir::id(ballot), ir::literal(k)}); };
  append_record(constant(site),
                {load_builtin(lane_, false), load_builtin(subgroup_size_, false), word(0), word(1), word(2)});
}

// The access's 32-bit value as uint bits, or the constant 0.
uint32_t Instrumenter::value_of(const ir::Instruction& access, AccessKind kind, AccessSite& site) {
  uint32_t value = 0;
  if (kind == AccessKind::Write || kind == AccessKind::StorageWrite) {
    value = access.word(1);
  } else if (access.result_id()) {
    value = access.result_id();
  } else if (access.opcode() == Op::OpAtomicStore) {
    value = access.word(3);
  }
  const ir::Instruction* def = value ? in_.def(value) : nullptr;
  const ir::Instruction* type = in_.def(def ? def->type_id() : access.type_id());
  if (!type) return constant(0);
  if (type->opcode() == Op::OpTypeBool) {
    site.value = ValueType::Bool;
    return emit(Op::OpSelect, uint_type(), {ir::id(value), ir::id(constant(1)), ir::id(constant(0))});
  }
  if ((type->opcode() != Op::OpTypeInt && type->opcode() != Op::OpTypeFloat) || type->word(1) != 32) return constant(0);
  if (type->opcode() == Op::OpTypeFloat) {
    site.value = ValueType::Float;
  } else {
    site.value = type->word(2) ? ValueType::Int : ValueType::Uint;
    if (!type->word(2)) return value;
  }
  return emit(Op::OpBitcast, uint_type(), {ir::id(value)});
}

void Instrumenter::log(uint32_t site, uint32_t element, uint32_t value, uint32_t out_of_range) {
  const uint32_t epoch = emit(Op::OpLoad, uint_type(), {ir::id(epoch_)});
  append_record(constant(site), {element, epoch, value, out_of_range, constant(0)});
}

void Instrumenter::append_record(uint32_t site, const std::array<uint32_t, kRecordWords - 3>& rest) {
  const uint32_t u = uint_type();
  const uint32_t id = load_builtin(workgroup_id_, true);
  const uint32_t n = load_builtin(workgroups_, true);
  auto part = [&](uint32_t vector, uint32_t k) {
    return emit(Op::OpCompositeExtract, u, {ir::id(vector), ir::literal(k)});
  };
  const uint32_t z = emit(Op::OpIMul, u, {ir::id(part(id, 2)), ir::id(part(n, 1))});
  const uint32_t yz =
      emit(Op::OpIMul, u, {ir::id(emit(Op::OpIAdd, u, {ir::id(part(id, 1)), ir::id(z)})), ir::id(part(n, 0))});
  const uint32_t workgroup = emit(Op::OpIAdd, u, {ir::id(part(id, 0)), ir::id(yz)});
  const uint32_t invocation = load_builtin(local_index_, false);
  const uint32_t word_pointer = pointer_type(StorageClass::StorageBuffer, u);
  const uint32_t counter = emit(Op::OpAccessChain, word_pointer, {ir::id(log_), ir::id(constant(0))});
  const uint32_t slot =
      emit(Op::OpAtomicIAdd, u,
           {ir::id(counter), ir::id(constant(atomic_scope_)), ir::id(constant(0)), ir::id(constant(1))});
  const uint32_t fits = emit(Op::OpULessThan, bool_type(), {ir::id(slot), ir::id(constant(result_.capacity))});
  const uint32_t record = emit(Op::OpSelect, u, {ir::id(fits), ir::id(slot), ir::id(constant(result_.capacity))});
  const uint32_t base = emit(Op::OpIMul, u, {ir::id(record), ir::id(constant(kRecordWords))});
  const uint32_t words[kRecordWords] = {site, workgroup, invocation, rest[0], rest[1], rest[2], rest[3], rest[4]};
  for (uint32_t k = 0; k < kRecordWords; ++k) {
    const uint32_t at = k == 0 ? base : emit(Op::OpIAdd, u, {ir::id(base), ir::id(constant(k))});
    const uint32_t pointer = emit(Op::OpAccessChain, word_pointer, {ir::id(log_), ir::id(constant(2)), ir::id(at)});
    emit_void(Op::OpStore, {ir::id(pointer), ir::id(words[k])});
  }
}

// A 32-bit scalar or bool as uint bits.
uint32_t Instrumenter::bits_of(uint32_t value, ValueType type) {
  switch (type) {
    case ValueType::Uint:
      return value;
    case ValueType::Bool:
      return emit(Op::OpSelect, uint_type(), {ir::id(value), ir::id(constant(1)), ir::id(constant(0))});
    default:
      return emit(Op::OpBitcast, uint_type(), {ir::id(value)});
  }
}

// Finds each probe's instruction and gives the probe its counter.
bool Instrumenter::place_probes(std::string* error) {
  for (const ProbeRequest& request : options_.probes) {
    std::optional<ProbeTarget> target = select_probe(in_, request, error);
    if (!target) return false;
    const auto index = static_cast<uint32_t>(probe_targets_.size());
    result_.probes.push_back(
        {request, target->type, target->components, target->what, in_.nearest_location(*target->after)});
    probes_after_[target->after].push_back(index);
    probe_counters_.push_back(add_variable(StorageClass::Private, uint_type(), constant(0)));
    probe_targets_.push_back(std::move(*target));
  }
  return true;
}

void Instrumenter::record_probe(uint32_t probe) {
  const ProbeTarget& target = probe_targets_[probe];
  const uint32_t u = uint_type();
  const uint32_t iteration = emit(Op::OpLoad, u, {ir::id(probe_counters_[probe])});
  emit_void(Op::OpStore,
            {ir::id(probe_counters_[probe]), ir::id(emit(Op::OpIAdd, u, {ir::id(iteration), ir::id(constant(1))}))});
  std::array<uint32_t, kRecordWords - 3> rest{iteration, constant(0), constant(0), constant(0), constant(0)};
  if (target.components == 1) {
    rest[1] = bits_of(target.value, target.type);
  } else {
    const uint32_t vector_type = in_.def(target.value)->type_id();
    const uint32_t component_type = in_.def(vector_type)->word(1);
    for (uint32_t k = 0; k < target.components; ++k) {
      const uint32_t component = emit(Op::OpCompositeExtract, component_type, {ir::id(target.value), ir::literal(k)});
      rest[1 + k] = bits_of(component, target.type);
    }
  }
  append_record(constant(kProbeSite | probe), rest);
}

void Instrumenter::rewrite_access(const ir::Instruction& access, std::vector<ir::Instruction>& rewritten) {
  const uint32_t pointer = accessed_pointer(access);
  if (access.opcode() == Op::OpCopyMemory || access.opcode() == Op::OpCopyMemorySized) {
    if (in_.storage_class(access.word(0)) == StorageClass::Workgroup ||
        in_.storage_class(access.word(1)) == StorageClass::Workgroup) {
      const Location at = in_.nearest_location(access);
      result_.skipped.push_back(at.file + ":" + std::to_string(at.line) + ": a memory copy");
    }
  }
  if (!pointer) {
    if (std::optional<Barrier> barrier = barrier_of(in_, access);
        options_.barriers && barrier && may(barrier->waits_for_workgroup())) {
      code_ = &rewritten;
      log(add_site(access, AccessKind::Barrier), constant(0), constant(0), constant(0));
    } else if ((options_.all_group_operations && ir::is_subgroup_operation(access.opcode())) ||
               std::find(options_.group_operations.begin(), options_.group_operations.end(),
                         in_.ordinal(access)) != options_.group_operations.end()) {
      code_ = &rewritten;
      log_group_operation(access);
    } else if (access.opcode() == Op::OpBranchConditional &&
               std::find(options_.branches.begin(), options_.branches.end(), in_.ordinal(access)) !=
                   options_.branches.end()) {
      // Before the merge instruction that must come right before the branch.
      std::vector<ir::Instruction> merge;
      while (!rewritten.empty() && (rewritten.back().opcode() == Op::OpSelectionMerge ||
                                    rewritten.back().opcode() == Op::OpLoopMerge || rewritten.back().is_debug_line())) {
        merge.insert(merge.begin(), std::move(rewritten.back()));
        rewritten.pop_back();
      }
      code_ = &rewritten;
      const uint32_t taken = add_site(access, AccessKind::Branch);
      result_.sites.back().value = ValueType::Bool;
      log(taken, constant(0), bits_of(access.word(0), ValueType::Bool), constant(0));
      rewritten.insert(rewritten.end(), merge.begin(), merge.end());
    }
    rewritten.push_back(access);
    if (orders_workgroup_memory(access)) {
      code_ = &rewritten;
      const uint32_t before = emit(Op::OpLoad, uint_type(), {ir::id(epoch_)});
      const uint32_t after = emit(Op::OpIAdd, uint_type(), {ir::id(before), ir::id(constant(1))});
      emit_void(Op::OpStore, {ir::id(epoch_), ir::id(after)});
    }
    return;
  }
  const AccessKind kind = is_atomic(access.opcode())      ? AccessKind::Atomic
                          : access.opcode() == Op::OpLoad ? AccessKind::Read
                                                          : AccessKind::Write;
  std::vector<ir::Instruction> before, after;
  code_ = &before;
  uint32_t element = 0, out_of_range = 0, clamped_pointer = 0;
  const std::optional<uint32_t> site = site_for(access, pointer, kind, &element, &out_of_range, &clamped_pointer);
  if (!site) {
    rewritten.push_back(access);
    return;
  }
  const bool logs_after = access.result_id() != 0;
  code_ = logs_after ? &after : &before;
  const uint32_t value = value_of(access, result_.sites[*site].kind, result_.sites[*site]);
  log(*site, element, value, out_of_range);
  rewritten.insert(rewritten.end(), before.begin(), before.end());
  rewritten.push_back(clamped_pointer ? with_pointer(access, clamped_pointer) : access);
  rewritten.insert(rewritten.end(), after.begin(), after.end());
}

bool Instrumenter::run(std::string* error) {
  uint32_t sets = 0;
  for (const ir::Instruction& i : in_.ir().globals) {
    if (i.opcode() == Op::OpDecorate && i.word(1) == static_cast<uint32_t>(spv::Decoration::DescriptorSet)) {
      sets = std::max(sets, i.word(2) + 1);
    }
  }
  if (sets >= kMaxSets) {
    *error = "the kernel uses descriptor set " + std::to_string(sets - 1) + ", leaving none for klint's log";
    return false;
  }
  result_.log_set = sets;
  result_.capacity = options_.capacity;
  result_.spreads = options_.spreads;
  make_log();

  for (const EntryPoint& entry : in_.entry_points()) {
    if (entry.model != spv::ExecutionModel::GLCompute || !entry.workgroup_size) continue;
    for (size_t axis = 0; axis < 3; ++axis)
      result_.workgroup_size[axis] = static_cast<uint32_t>((*entry.workgroup_size)[axis].value);
    break;
  }
  if (!place_probes(error)) return false;

  for (size_t f = 0; f < in_.functions().size(); ++f) {
    std::vector<bool> looped(in_.functions()[f].blocks.size(), false);
    for (const Loop& loop : find_loops(in_, in_.functions()[f])) {
      for (size_t b = 0; b < loop.body.size() && b < looped.size(); ++b) looped[b] = looped[b] || loop.body[b];
    }
    for (size_t b = 0; b < in_.functions()[f].blocks.size(); ++b) {
      in_loop_ = looped[b];
      const std::vector<ir::Instruction>& source = in_.functions()[f].blocks[b].instructions;
      std::vector<ir::Instruction> rewritten;
      rewritten.reserve(source.size());
      // Probes of OpPhi results wait for the block's last OpPhi.
      std::vector<uint32_t> after_phis;
      for (const ir::Instruction& instruction : source) {
        if (!after_phis.empty() && instruction.opcode() != Op::OpPhi && !instruction.is_debug_line()) {
          code_ = &rewritten;
          for (uint32_t probe : after_phis) record_probe(probe);
          after_phis.clear();
        }
        if (options_.accesses) {
          rewrite_access(instruction, rewritten);
        } else {
          rewritten.push_back(instruction);
        }
        auto probed = probes_after_.find(&instruction);
        if (probed == probes_after_.end()) continue;
        if (instruction.opcode() == Op::OpPhi) {
          after_phis.insert(after_phis.end(), probed->second.begin(), probed->second.end());
          continue;
        }
        code_ = &rewritten;
        for (uint32_t probe : probed->second) record_probe(probe);
      }
      out_.functions[f].blocks[b].instructions = std::move(rewritten);
    }
  }
  return true;
}

}  // namespace

std::optional<Instrumented> instrument(std::span<const uint32_t> spirv, const ModuleOrigin& origin,
                                       const InstrumentOptions& options, std::string* error) {
  ir::DecodeError decode_error;
  std::optional<ir::Module> decoded = ir::decode(spirv, &decode_error);
  if (!decoded) {
    *error = "cannot decode the module: " + decode_error.message;
    return std::nullopt;
  }
  specialize(*decoded, options.specialization);
  ModuleOrigin where = origin;
  bool renumbered = false;
  if (has_workgroup_pointer_parameters(::klint::Module(*decoded, origin))) {
    renumbered = true;
    std::optional<std::vector<uint32_t>> inlined = inline_calls(ir::encode(*decoded), error);
    if (!inlined) return std::nullopt;
    decoded = ir::decode(*inlined, &decode_error);
    if (!decoded) {
      *error = "cannot decode the inlined module: " + decode_error.message;
      return std::nullopt;
    }
    where.assembly_lines.clear();  // instruction ordinals changed
  }
  const ::klint::Module in(*decoded, where);
  if (has_explicit_layout_workgroup_blocks(in)) {
    // The shadow memory indexes shared variables by element; blocks that
    // alias one memory have members where it expects elements.
    *error = "klint's runs do not log explicit-layout workgroup blocks yet";
    return std::nullopt;
  }
  ir::Module out = std::move(*decoded);
  Instrumented result;
  InstrumentOptions used = options;
  if (renumbered) {  // their ordinals name other instructions now
    used.branches.clear();
    used.group_operations.clear();
    // Without the names, every storage access is logged rather than none.
    used.storage |= !used.storage_accesses.empty();
    used.storage_accesses.clear();
  }
  if (!Instrumenter(out, in, used, result).run(error)) return std::nullopt;
  if (renumbered) {
    for (AccessSite& site : result.sites) site.instruction = 0;
  }
  result.spirv = ir::encode(out);
  return result;
}


BufferSpec log_buffer(const Instrumented& instrumented) {
  BufferSpec buffer;
  buffer.set = instrumented.log_set;
  buffer.binding = 0;
  buffer.kind = BufferKind::Storage;
  buffer.name = "klint_log";
  // One spare record past the capacity takes the records that do not fit.
  buffer.data.assign((kLogHeaderWords + (size_t{instrumented.capacity} + 1) * kRecordWords) * 4, 0);
  std::memcpy(buffer.data.data() + 4, &instrumented.capacity, 4);
  return buffer;
}

}  // namespace klint::runner
