#include "runner/probe.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "analyzer/pointers.h"
#include "runner/shadow.h"

namespace klint::runner {

using spv::Op;
using spv::StorageClass;

namespace {

struct ValueShape {
  ValueType type = ValueType::None;
  uint32_t components = 1;
};

// 32-bit scalars and their vectors, and bools: what a record's words hold.
std::optional<ValueShape> probeable(const Module& module, uint32_t type_id) {
  const ir::Instruction* type = module.def(type_id);
  ValueShape shape;
  if (type && type->opcode() == Op::OpTypeVector) {
    shape.components = type->word(2);
    if (shape.components > 4) return std::nullopt;
    type = module.def(type->word(1));
  }
  if (!type) return std::nullopt;
  if (type->opcode() == Op::OpTypeBool) {
    shape.type = ValueType::Bool;
  } else if (type->opcode() == Op::OpTypeFloat && type->word(1) == 32) {
    shape.type = ValueType::Float;
  } else if (type->opcode() == Op::OpTypeInt && type->word(1) == 32) {
    shape.type = type->word(2) ? ValueType::Int : ValueType::Uint;
  } else {
    return std::nullopt;
  }
  return shape;
}

// The name of a variable a probe can name: a Function, Private or Workgroup
// one with an OpName. Empty otherwise.
std::string variable_name(const Module& module, const ir::Instruction* variable) {
  if (!variable) return "";
  const auto storage = static_cast<StorageClass>(variable->word(2));
  if (storage != StorageClass::Function && storage != StorageClass::Private && storage != StorageClass::Workgroup) {
    return "";
  }
  std::string name = module.name(variable->result_id());
  return name.starts_with('%') ? "" : name;
}

// What a store writes to, for headings: the variable's name, else its type's
// (a buffer's block); "memory" when neither has one.
std::string memory_name(const Module& module, const ir::Instruction* variable) {
  if (!variable) return "memory";
  for (uint32_t id : {variable->result_id(), module.def(variable->type_id()) ? module.def(variable->type_id())->word(2) : 0}) {
    std::string name = module.name(id);
    if (!name.empty() && !name.starts_with('%')) return name;
  }
  return "memory";
}

std::string own_name(const Module& module, uint32_t id) {
  std::string name = module.name(id);
  return name.starts_with('%') ? "" : name;
}

std::string opcode_name(Op op) { return fmt::format("Op{}", spvOpcodeString(static_cast<uint32_t>(op))); }

// One instruction of the line that a probe could record.
struct Candidate {
  const ir::Instruction* instruction = nullptr;
  uint32_t value = 0;
  ValueShape shape;
  bool store = false;
  bool load = false;
  std::string variable;  // the named variable stored to or loaded from
  std::string stored_to; // for a store, what it writes to
  std::string name;      // the instruction's own OpName
};

ProbeTarget target_of(const Candidate& c, std::string what) {
  return ProbeTarget{c.instruction, c.value, c.shape.type, c.shape.components, std::move(what)};
}

}  // namespace

std::optional<ProbeTarget> select_probe(const Module& module, const ProbeRequest& request, std::string* error) {
  const std::string where = fmt::format("{}:{}", request.file, request.line);
  std::vector<Candidate> candidates;
  std::vector<std::string> names;  // what the line names, in order, once each
  bool any_code = false;
  auto mention = [&](const std::string& name) {
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const ir::Function& function : module.functions()) {
    for (const ir::Block& block : function.blocks) {
      for (const ir::Instruction& i : block.instructions) {
        if (i.is_debug_line()) continue;
        const Location at = module.nearest_location(i);
        if (at.line != request.line || at.file != request.file) continue;
        any_code = true;
        Candidate c;
        c.instruction = &i;
        if (i.opcode() == Op::OpStore) {
          c.store = true;
          c.value = i.word(1);
          const ir::Instruction* root = pointer_variable(module, i.word(0));
          c.variable = variable_name(module, root);
          c.stored_to = memory_name(module, root);
          const ir::Instruction* def = module.def(c.value);
          std::optional<ValueShape> shape = def ? probeable(module, def->type_id()) : std::nullopt;
          mention(c.variable);
          if (!shape) continue;
          c.shape = *shape;
        } else if (i.result_id() && i.type_id()) {
          std::optional<ValueShape> shape = probeable(module, i.type_id());
          if (i.opcode() == Op::OpLoad) {
            c.load = true;
            c.variable = variable_name(module, pointer_variable(module, i.word(2)));
            mention(c.variable);
          }
          c.name = own_name(module, i.result_id());
          mention(c.name);
          if (!shape) continue;
          c.value = i.result_id();
          c.shape = *shape;
        } else {
          continue;
        }
        candidates.push_back(std::move(c));
      }
    }
  }
  auto last = [&](auto&& match) -> const Candidate* {
    auto it = std::find_if(candidates.rbegin(), candidates.rend(), match);
    return it == candidates.rend() ? nullptr : &*it;
  };
  if (!request.name.empty()) {
    const std::string& name = request.name;
    if (const Candidate* c = last([&](const Candidate& c) { return c.store && c.variable == name; })) {
      return target_of(*c, fmt::format("the value stored to {}", name));
    }
    if (const Candidate* c = last([&](const Candidate& c) { return !c.store && c.name == name; })) {
      return target_of(*c, fmt::format("{} (OpName of the result of {})", name, opcode_name(c->instruction->opcode())));
    }
    if (const Candidate* c = last([&](const Candidate& c) { return c.load && c.variable == name; })) {
      return target_of(*c, fmt::format("the value of {} as the line reads it", name));
    }
    std::string there;
    for (const std::string& n : names) there += (there.empty() ? "" : ", ") + n;
    *error = !any_code      ? fmt::format("no value named '{}' at {}: no code is on that line", name, where)
             : names.empty() ? fmt::format("no value named '{}' at {}; the line names no variable", name, where)
                             : fmt::format("no value named '{}' at {}; names there: {}", name, where, there);
    return std::nullopt;
  }
  if (const Candidate* c = last([](const Candidate& c) { return c.store; })) {
    return target_of(*c, fmt::format("the value stored to {}", c->stored_to));
  }
  if (!candidates.empty()) {
    const Candidate& c = candidates.back();
    return target_of(c, c.name.empty() ? fmt::format("the result of {}", opcode_name(c.instruction->opcode()))
                                       : fmt::format("{} (the result of {})", c.name, opcode_name(c.instruction->opcode())));
  }
  *error = any_code ? fmt::format("no value to probe at {}: the line computes no 32-bit scalar or vector", where)
                    : fmt::format("no code at {}: nothing on that line runs", where);
  return std::nullopt;
}

ProbeLog read_probes(const Instrumented& instrumented, std::span<const uint8_t> log) {
  ProbeLog result;
  auto word = [&](size_t index) {
    uint32_t value = 0;
    if ((index + 1) * 4 <= log.size()) std::memcpy(&value, log.data() + index * 4, 4);
    return value;
  };
  result.logged = word(0);
  const uint64_t stored = std::min<uint64_t>(result.logged, instrumented.capacity);
  result.truncated = result.logged > instrumented.capacity;
  for (uint64_t r = 0; r < stored; ++r) {
    const size_t at = kLogHeaderWords + r * kRecordWords;
    const uint32_t site = word(at);
    if (!(site & kProbeSite) || (site & ~kProbeSite) >= instrumented.probes.size()) continue;
    result.records.push_back({site & ~kProbeSite, word(at + 1), word(at + 2), word(at + 3),
                              {word(at + 4), word(at + 5), word(at + 6), word(at + 7)}});
  }
  return result;
}

std::optional<ProbedKernel> probe_kernel(const std::vector<uint32_t>& spirv, const ModuleOrigin& origin,
                                         const std::vector<ProbeRequest>& probes, const Harness& harness,
                                         std::string* error) {
  InstrumentOptions options;
  options.probes = probes;
  options.accesses = false;
  options.specialization = harness.specialization;
  std::optional<Instrumented> instrumented = instrument(spirv, origin, options, error);
  if (!instrumented) return std::nullopt;
  ProbedKernel kernel{std::move(*instrumented), harness};
  kernel.harness.buffers.push_back(log_buffer(kernel.instrumented));
  return kernel;
}

std::string probe_value_text(const ProbeSite& site, const ProbeRecord& record) {
  auto scalar = [&](uint32_t bits) {
    std::string text = value_text(site.value, bits);
    return text.empty() ? fmt::format("0x{:08x}", bits) : text;
  };
  if (site.components == 1) return scalar(record.components[0]);
  std::string text = "(";
  for (uint32_t k = 0; k < site.components && k < 4; ++k) text += (k ? "," : "") + scalar(record.components[k]);
  return text + ")";
}

}  // namespace klint::runner
