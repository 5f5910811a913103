#include "runner/infer_setup.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include "analyzer/symbolic.h"

namespace klint::runner {

using spv::Op;

std::optional<LoadedMember> loaded_member(const Module& module, const ir::Instruction& load) {
  if (load.opcode() != Op::OpLoad) return std::nullopt;
  const ir::Instruction* chain = module.def(load.word(2));
  if (!chain || (chain->opcode() != Op::OpAccessChain && chain->opcode() != Op::OpInBoundsAccessChain) ||
      chain->operands().size() < 4) {
    return std::nullopt;
  }
  const ir::Instruction* variable = module.def(chain->word(2));
  if (!variable || variable->opcode() != Op::OpVariable) return std::nullopt;
  const auto storage = static_cast<spv::StorageClass>(variable->word(2));
  const ir::Instruction* pointer = module.def(variable->type_id());
  if (!pointer) return std::nullopt;
  LoadedMember out;
  if (storage == spv::StorageClass::Uniform) {
    const std::optional<uint32_t> binding = module.decoration(variable->result_id(), spv::Decoration::Binding);
    if (!binding || !module.has_decoration(pointer->word(2), spv::Decoration::Block)) return std::nullopt;
    out.uniform = std::pair{module.decoration(variable->result_id(), spv::Decoration::DescriptorSet).value_or(0),
                            *binding};
  } else if (storage != spv::StorageClass::PushConstant) {
    return std::nullopt;
  }
  uint32_t type = pointer->word(2);
  for (size_t k = 3; k < chain->operands().size(); ++k) {
    const ir::Instruction* struct_type = module.def(type);
    std::optional<uint64_t> member = module.constant_value(chain->word(k));
    if (!struct_type || struct_type->opcode() != Op::OpTypeStruct || !member ||
        *member + 1 >= struct_type->operands().size()) {
      return std::nullopt;
    }
    const std::string name = module.member_name(type, static_cast<uint32_t>(*member));
    if (name.empty()) return std::nullopt;
    out.path.push_back(name);
    type = struct_type->word(static_cast<uint32_t>(*member) + 1);
  }
  return out;
}

namespace {

bool is_ordered_comparison(Op op) {
  switch (op) {
    case Op::OpULessThan: case Op::OpULessThanEqual: case Op::OpUGreaterThan: case Op::OpUGreaterThanEqual:
    case Op::OpSLessThan: case Op::OpSLessThanEqual: case Op::OpSGreaterThan: case Op::OpSGreaterThanEqual:
      return true;
    default:
      return false;
  }
}

// Instructions whose result carries a size it reads on: arithmetic,
// conversions, choices. A member's value is followed through these.
bool carries(Op op) {
  switch (op) {
    case Op::OpIAdd: case Op::OpISub: case Op::OpIMul: case Op::OpUDiv: case Op::OpSDiv: case Op::OpUMod:
    case Op::OpSMod: case Op::OpSRem: case Op::OpShiftLeftLogical: case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic: case Op::OpBitwiseAnd: case Op::OpBitwiseOr: case Op::OpBitcast:
    case Op::OpUConvert: case Op::OpSConvert: case Op::OpCopyObject: case Op::OpSelect: case Op::OpPhi:
    case Op::OpExtInst: case Op::OpSNegate:
      return true;
    default:
      return false;
  }
}

// What one member's uses say, strongest first: a Count beats a Length.
struct Evidence {
  std::optional<MemberRole::Kind> kind;
  std::string why;
  std::optional<size_t> grid_axis;
  int64_t per_workgroup = 1;
  bool strided = false;

  void offer(MemberRole::Kind k, std::string reason, std::optional<size_t> axis = std::nullopt, int64_t per = 1,
             bool stride = false) {
    if (kind && rank(k, axis) <= rank(*kind, grid_axis)) return;
    kind = k;
    why = std::move(reason);
    grid_axis = axis;
    per_workgroup = per;
    strided = stride;
  }

  static int rank(MemberRole::Kind k, const std::optional<size_t>& axis) {
    return k == MemberRole::Kind::Count ? (axis ? 3 : 2) : 1;
  }
};

class RoleFinder {
 public:
  RoleFinder(const Module& module, const ir::Function& function, const reflect::EntryPoint& entry)
      : module_(module), function_(function), values_(module.symbolic(function)) {
    if (entry.workgroup_size) {
      for (size_t axis = 0; axis < 3 && axis < entry.workgroup_size->size(); ++axis) {
        workgroup_[axis] = std::max<int64_t>(static_cast<int64_t>((*entry.workgroup_size)[axis].value), 1);
      }
    }
  }

  // Follows the value `load` from where it is loaded to where it is used,
  // into vectors too: `ivec2(p.width, p.height)` compared with
  // `ivec2(gl_GlobalInvocationID)` compares each part with its own.
  Evidence follow(uint32_t load, bool is_float) {
    Evidence evidence;
    std::set<std::pair<uint32_t, int>> seen{{load, -1}};
    std::vector<std::pair<uint32_t, int>> work{{load, -1}};  // id, and its part where it became one of a vector
    while (!work.empty() && seen.size() < kMaxFollowed) {
      const auto [id, part] = work.back();
      work.pop_back();
      for (const ir::Instruction* use : module_.uses(id)) {
        if (is_float) {
          judge_float(*use, id, evidence);
          // A half's conversion to float (`float(p.seed)`) carries it.
          if (use->opcode() == Op::OpFConvert && seen.insert({use->result_id(), -1}).second) {
            work.emplace_back(use->result_id(), -1);
          }
          continue;
        }
        int next = part;
        if (use->opcode() == Op::OpCompositeConstruct && part < 0 && is_vector(use->type_id())) {
          for (size_t k = 2; k < use->operands().size(); ++k) {
            if (use->word(k) == id) next = static_cast<int>(k - 2);
          }
        } else if (part >= 0 && !(carries(use->opcode()) || is_ordered_comparison(use->opcode()))) {
          continue;
        }
        if (part >= 0 && is_ordered_comparison(use->opcode())) {
          compared_part(*use, use->word(2) == id ? use->word(3) : use->word(2), static_cast<uint32_t>(part),
                        evidence);
        } else if (part < 0) {
          judge(*use, id, evidence);
        }
        const bool onward = carries(use->opcode()) || (use->opcode() == Op::OpCompositeConstruct && next >= 0);
        if (onward && use->result_id() && seen.insert({use->result_id(), next}).second) {
          work.emplace_back(use->result_id(), next);
        }
      }
    }
    return evidence;
  }

 private:
  static constexpr size_t kMaxFollowed = 256;

  std::string at(const ir::Instruction& instruction) const {
    const Location l = module_.nearest_location(instruction);
    return l.has_line() ? fmt::format(" at line {}", l.line) : "";
  }

  void judge(const ir::Instruction& use, uint32_t id, Evidence& evidence) const {
    const Op op = use.opcode();
    if (is_ordered_comparison(op)) {
      const uint32_t other = use.word(2) == id ? use.word(3) : use.word(2);
      compared(use, other, evidence);
    } else if (op == Op::OpIMul) {
      evidence.offer(MemberRole::Kind::Length, "it multiplies an index" + at(use));
    } else if ((op == Op::OpUDiv || op == Op::OpSDiv || op == Op::OpUMod || op == Op::OpSMod) && use.word(3) == id) {
      evidence.offer(MemberRole::Kind::Length, "it divides" + at(use));
    } else if (op == Op::OpPhi) {
      if (const Induction* induction = values_.induction(use.result_id()); induction && induction->update == id) {
        evidence.offer(MemberRole::Kind::Length, "it steps a loop" + at(use));
      }
    }
  }

  void judge_float(const ir::Instruction& use, uint32_t id, Evidence& evidence) const {
    if (use.opcode() == Op::OpFDiv && use.word(3) == id) {
      evidence.offer(MemberRole::Kind::Scale, "it divides" + at(use));
    } else if (use.opcode() == Op::OpFMul || use.opcode() == Op::OpVectorTimesScalar) {
      evidence.offer(MemberRole::Kind::Scale, "it scales a value" + at(use));
    }
  }

  // A member compared with `other`: a count where `other` is made of the
  // workgroup id (directly or as a loop's start), a length where it is made
  // of the local id or a loop's counter.
  void compared(const ir::Instruction& comparison, uint32_t other, Evidence& evidence) const {
    const Polynomial& form = values_.value(other);
    if (form.is_constant()) return;
    if (count_against(form, comparison, "it bounds an id made of the workgroup id", evidence)) return;
    for (const Symbol& symbol : form.symbols()) {
      if (symbol.kind != Symbol::Kind::Induction) continue;
      const Induction* induction = values_.induction(symbol.id);
      if (induction && count_against(values_.value(induction->initial), comparison,
                                     "it bounds a loop over the workgroups' elements", evidence, true)) {
        return;
      }
      evidence.offer(MemberRole::Kind::Length, "it bounds a loop" + at(comparison));
      return;
    }
    for (const Symbol& symbol : form.symbols()) {
      if (symbol.kind == Symbol::Kind::LocalId || symbol.kind == Symbol::Kind::SubgroupLane) {
        evidence.offer(MemberRole::Kind::Length, "it bounds the local id" + at(comparison));
        return;
      }
    }
    evidence.offer(MemberRole::Kind::Length, "it bounds a value" + at(comparison));
  }

  bool is_vector(uint32_t type) const {
    const ir::Instruction* t = module_.def(type);
    return t && t->opcode() == Op::OpTypeVector;
  }

  // A member compared as part `part` of a vector with the same part of
  // `other`: that part followed back through shuffles, conversions and
  // constructs to a scalar (judged as compared() does) or to a built-in id
  // vector.
  void compared_part(const ir::Instruction& comparison, uint32_t other, uint32_t part, Evidence& evidence) const {
    for (int steps = 0; steps < 16; ++steps) {
      const ir::Instruction* def = module_.def(other);
      if (!def) break;
      const Op op = def->opcode();
      if (op == Op::OpCompositeConstruct) {
        if (2 + part >= def->operands().size()) break;
        const uint32_t scalar = def->word(2 + part);
        const ir::Instruction* extract = module_.def(scalar);
        if (extract && extract->opcode() == Op::OpCompositeExtract && extract->operands().size() == 4) {
          other = extract->word(2);  // `ivec2(id.x, id.y)`: the part of a vector again
          part = extract->word(3);
          continue;
        }
        compared(comparison, scalar, evidence);
        return;
      }
      if (op == Op::OpVectorShuffle) {
        const ir::Instruction* first = module_.def(module_.def(def->word(2)) ? module_.def(def->word(2))->type_id() : 0);
        if (!first || first->opcode() != Op::OpTypeVector || 4 + part >= def->operands().size()) break;
        const uint32_t chosen = def->word(4 + part);
        const uint32_t width = first->word(2);
        other = chosen < width ? def->word(2) : def->word(3);
        part = chosen < width ? chosen : chosen - width;
        continue;
      }
      if (op == Op::OpBitcast || op == Op::OpUConvert || op == Op::OpSConvert || op == Op::OpCopyObject) {
        other = def->word(2);
        continue;
      }
      if (op == Op::OpLoad && part < 3) {
        const std::optional<spv::BuiltIn> builtin = module_.builtin(def->word(2));
        const std::string why = "it bounds an id made of the workgroup id" + at(comparison);
        if (builtin == spv::BuiltIn::GlobalInvocationId) {
          evidence.offer(MemberRole::Kind::Count, why, part, workgroup_[part]);
          return;
        }
        if (builtin == spv::BuiltIn::WorkgroupId) {
          evidence.offer(MemberRole::Kind::Count, why, part, 1);
          return;
        }
        if (builtin == spv::BuiltIn::LocalInvocationId) {
          evidence.offer(MemberRole::Kind::Length, "it bounds the local id" + at(comparison));
          return;
        }
      }
      break;
    }
    evidence.offer(MemberRole::Kind::Length, "it bounds a value" + at(comparison));
  }

  bool count_against(const Polynomial& form, const ir::Instruction& comparison, std::string_view what,
                     Evidence& evidence, bool strided = false) const {
    for (size_t axis = 0; axis < 3; ++axis) {
      const Symbol workgroup{Symbol::Kind::WorkgroupId, static_cast<uint32_t>(axis)};
      if (!form.mentions(workgroup)) continue;
      const int64_t per = form.coefficient(workgroup);
      evidence.offer(MemberRole::Kind::Count, std::string(what) + at(comparison),
                     per > 0 ? std::optional<size_t>(axis) : std::nullopt, std::max<int64_t>(per, 1), strided);
      return true;
    }
    return false;
  }

  const Module& module_;
  const ir::Function& function_;
  const SymbolicValues& values_;
  std::array<int64_t, 3> workgroup_{1, 1, 1};
};

// The integer members a size fits in, 16 bits and up: narrower ones hold
// flags and small codes more often than sizes, and 4096 would not fit them.
bool is_size_type(std::string_view type) {
  return type == "uint" || type == "int" || type == "uint64_t" || type == "int64_t" || type == "uint16_t" ||
         type == "int16_t";
}

bool sized(const MemberRole& role) { return role.kind != MemberRole::Kind::Scale; }

uint64_t invocations(const reflect::EntryPoint& entry) {
  uint64_t count = 1;
  if (entry.workgroup_size) {
    for (const reflect::WorkgroupDimension& d : *entry.workgroup_size) count *= std::max<uint64_t>(d.value, 1);
  }
  return count;
}

std::string role_text(const MemberRole& role) {
  switch (role.kind) {
    case MemberRole::Kind::Count: return "a count: " + role.why;
    case MemberRole::Kind::Length: return "a size: " + role.why;
    case MemberRole::Kind::Scale: return role.why + ", and 0 would make it degenerate";
  }
  return role.why;
}

// "push constant cols", "uniform 0.0 global_ubo.width".
std::string what(const MemberRole& role) {
  return role.uniform ? fmt::format("uniform {}.{} {}", role.uniform->first, role.uniform->second,
                                    fmt::join(role.path, "."))
                      : "push constant " + role.member;
}

}  // namespace

std::vector<MemberRole> infer_roles(const Module& module, const reflect::EntryPoint& entry) {
  std::vector<MemberRole> roles;
  auto own = std::find_if(module.entry_points().begin(), module.entry_points().end(),
                          [&](const EntryPoint& e) { return e.name == entry.name && e.function; });
  if (own == module.entry_points().end()) return roles;
  const ir::Function& function = *own->function;
  RoleFinder finder(module, function, entry);
  // Per member, keyed by where it lives and its path: what its uses say.
  struct Found {
    MemberRole role;
    Evidence evidence;
  };
  std::map<std::pair<std::optional<std::pair<uint32_t, uint32_t>>, std::vector<std::string>>, Found> found;
  for (const ir::Block& block : function.blocks) {
    for (const ir::Instruction& instruction : block.instructions) {
      std::optional<LoadedMember> loaded = loaded_member(module, instruction);
      if (!loaded || loaded->path.empty()) continue;
      const reflect::Member* reflected = nullptr;
      uint32_t offset = 0;
      if (!loaded->uniform) {
        // The push constants are set member by member, at the top level.
        if (!entry.push_constants || loaded->path.size() != 1) continue;
        reflected = member_at(entry.push_constants->block.members, loaded->path, &offset);
      } else {
        auto binding = std::find_if(entry.bindings.begin(), entry.bindings.end(), [&](const reflect::Binding& b) {
          return b.set == loaded->uniform->first && b.binding == loaded->uniform->second &&
                 b.type == reflect::DescriptorType::UniformBuffer && b.array_size == 1 && b.block;
        });
        if (binding == entry.bindings.end()) continue;
        reflected = member_at(binding->block->members, loaded->path, &offset);
      }
      if (!reflected) continue;
      const bool is_float = reflected->type == "float" || reflected->type == "float16_t";
      if (!is_float && !is_size_type(reflected->type)) continue;
      Evidence evidence = finder.follow(instruction.result_id(), is_float);
      if (!evidence.kind) continue;
      auto [it, fresh] = found.try_emplace({loaded->uniform, loaded->path});
      if (fresh) {
        MemberRole& role = it->second.role;
        role.member = loaded->path.back();
        role.uniform = loaded->uniform;
        role.path = loaded->path;
        role.offset = offset;
        role.type = reflected->type;
        it->second.evidence = std::move(evidence);
      } else {
        it->second.evidence.offer(*evidence.kind, evidence.why, evidence.grid_axis, evidence.per_workgroup,
                                  evidence.strided);
      }
    }
  }
  // The push constants first, in member order, then each uniform block's
  // members by offset; a name already taken (the manifest's variables are
  // names) keeps its first member.
  std::vector<Found*> order;
  for (auto& [key, f] : found) order.push_back(&f);
  std::stable_sort(order.begin(), order.end(), [](const Found* a, const Found* b) {
    return std::tie(a->role.uniform, a->role.offset) < std::tie(b->role.uniform, b->role.offset);
  });
  std::set<std::string> names;
  for (Found* f : order) {
    if (!names.insert(f->role.member).second) continue;
    MemberRole role = std::move(f->role);
    role.kind = *f->evidence.kind;
    role.why = f->evidence.why;
    role.grid_axis = f->evidence.grid_axis;
    role.per_workgroup = f->evidence.per_workgroup;
    role.strided = f->evidence.strided;
    roles.push_back(std::move(role));
  }
  return roles;
}

namespace {

// Calls `scan` with each finding's message and each of its notes'.
template <class Scan>
void each_text(std::span<const Diagnostic* const> findings, Scan&& scan) {
  for (const Diagnostic* finding : findings) {
    scan(finding->message);
    for (const Note& note : finding->notes) scan(note.message);
  }
}

}  // namespace

std::vector<std::pair<std::string, int64_t>> named_values(std::span<const Diagnostic* const> findings,
                                                          const std::vector<MemberRole>& roles) {
  static const std::regex kAssignment(R"(([A-Za-z_][A-Za-z0-9_.]*) = (-?[0-9]{1,9})\b)");
  constexpr int64_t kMostNamed = 1 << 20;
  std::vector<std::pair<std::string, int64_t>> named;
  auto scan = [&](const std::string& text) {
    for (std::sregex_iterator it(text.begin(), text.end(), kAssignment), end; it != end; ++it) {
      std::string name = (*it)[1].str();
      name = name.substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
      const int64_t value = std::stoll((*it)[2].str());
      const bool known = std::any_of(roles.begin(), roles.end(),
                                     [&](const MemberRole& r) { return r.member == name && sized(r); });
      if (!known || value < 1 || value > kMostNamed) continue;
      if (std::find(named.begin(), named.end(), std::pair{name, value}) == named.end()) named.emplace_back(name, value);
    }
  };
  each_text(findings, scan);
  return named;
}

std::vector<std::pair<size_t, uint32_t>> named_workgroup_sizes(std::span<const Diagnostic* const> findings) {
  static const std::regex kSize(R"(\blocal_size_([xyz]) = ([0-9]{1,5})\b)");
  std::vector<std::pair<size_t, uint32_t>> named;
  auto scan = [&](const std::string& text) {
    for (std::sregex_iterator it(text.begin(), text.end(), kSize), end; it != end; ++it) {
      const std::pair<size_t, uint32_t> size{static_cast<size_t>((*it)[1].str()[0] - 'x'),
                                             static_cast<uint32_t>(std::stoul((*it)[2].str()))};
      if (size.second > 0 && std::find(named.begin(), named.end(), size) == named.end()) named.push_back(size);
    }
  };
  each_text(findings, scan);
  return named;
}

std::optional<KernelManifest> inferred_manifest(const std::vector<MemberRole>& roles,
                                                const std::vector<std::pair<std::string, int64_t>>& named,
                                                const reflect::EntryPoint& entry, const std::string& path) {
  if (roles.empty()) return std::nullopt;
  KernelManifest manifest;
  manifest.config_path = path;
  manifest.inferred = true;
  manifest.entry_point = entry.name;
  for (const MemberRole& role : roles) {
    if (sized(role)) manifest.variables.push_back(role.member);
  }
  for (const MemberRole& role : roles) {
    Expression value = Expression::constant(1.0);
    if (sized(role)) {
      ExpressionError error;
      std::optional<Expression> variable = Expression::parse(role.member, manifest.variables, &error);
      if (!variable) return std::nullopt;
      value = *variable;
    }
    if (role.uniform) {
      manifest.uniforms.push_back(ManifestSetting{fmt::format("{}", fmt::join(role.path, ".")), value, {}, {}});
    } else {
      manifest.push_constants.push_back(ManifestSetting{role.member, value, {}, {}});
    }
  }
  // Shapes: the findings' values first.
  const int64_t wg = static_cast<int64_t>(invocations(entry));
  std::vector<std::vector<Number>> matrix;
  auto add = [&](std::vector<Number> row) {
    if (std::find(matrix.begin(), matrix.end(), row) == matrix.end()) matrix.push_back(std::move(row));
  };
  for (const auto& [name, value] : named) {
    std::vector<Number> row;
    for (const std::string& variable : manifest.variables) row.emplace_back(variable == name ? value : wg);
    add(std::move(row));
  }
  const bool counts = std::any_of(roles.begin(), roles.end(),
                                  [](const MemberRole& r) { return r.kind == MemberRole::Kind::Count; });
  const bool lengths = std::any_of(roles.begin(), roles.end(),
                                   [](const MemberRole& r) { return r.kind == MemberRole::Kind::Length; });
  if (counts && lengths) {
    // The seeds' row-wise matrix, (rows, cols), without its widest row.
    const std::vector<std::vector<Number>>& seeds = default_two_variable_matrix();
    for (size_t i = 0; i + 1 < seeds.size(); ++i) {
      std::vector<Number> row;
      for (const MemberRole& role : roles) {
        if (sized(role)) row.push_back(seeds[i][role.kind == MemberRole::Kind::Count ? 0 : 1]);
      }
      add(std::move(row));
    }
  } else if (!manifest.variables.empty()) {
    // Around the workgroup and the subgroup width: a workgroup and a bit,
    // one short of it, one past 32 lanes, one.
    for (int64_t value : {wg + 1, wg - 1, int64_t{33}, int64_t{1}}) {
      if (value >= 1) add(std::vector<Number>(manifest.variables.size(), Number{value}));
    }
  }
  // A loop that strides over the grid runs once per invocation at the
  // counts above, which the grid covers: last, a count the grid (cut to half
  // of it, below) covers twice and a bit.
  for (const MemberRole& role : roles) {
    if (!role.strided) continue;
    std::vector<Number> row;
    for (const std::string& variable : manifest.variables) {
      row.emplace_back(variable == role.member ? 4 * role.per_workgroup + 1 : wg);
    }
    add(std::move(row));
  }
  if (matrix.empty()) matrix.emplace_back();
  manifest.matrix = std::move(matrix);
  // The grid: enough workgroups to cover each count along its axis, at least
  // two along x so that accesses of different workgroups can meet.
  for (size_t axis = 0; axis < 3; ++axis) {
    std::string cover;
    for (const MemberRole& role : roles) {
      if (role.kind != MemberRole::Kind::Count || role.grid_axis != axis) continue;
      const std::string term =
          fmt::format("ceildiv({}, {})", role.member, role.per_workgroup * (role.strided ? 2 : 1));
      cover = cover.empty() ? term : fmt::format("max({}, {})", cover, term);
    }
    const int64_t least = axis == 0 ? 2 : 1;
    const int64_t most = axis == 0 ? kMaxInferredWorkgroups : 8;
    const std::string text = cover.empty() ? std::to_string(least)
                                           : fmt::format("max({}, min({}, {}))", least, most, cover);
    ExpressionError error;
    std::optional<Expression> grid = Expression::parse(text, manifest.variables, &error);
    manifest.grid.push_back(ManifestValue{grid ? *grid : Expression::constant(least), {}});
  }
  return manifest;
}

std::vector<std::string> describe_inferred(const std::vector<MemberRole>& roles,
                                           const std::vector<std::pair<std::string, int64_t>>& named,
                                           const Shape& shape) {
  std::vector<std::string> lines;
  for (const MemberRole& role : roles) {
    if (!sized(role)) {
      lines.push_back(fmt::format("{} = 1.0 ({})", what(role), role_text(role)));
      continue;
    }
    auto value = std::find_if(shape.begin(), shape.end(), [&](const auto& v) { return v.first == role.member; });
    if (value == shape.end()) continue;
    const int64_t* integer = std::get_if<int64_t>(&value->second);
    const bool from_finding =
        integer && std::find(named.begin(), named.end(), std::pair{role.member, *integer}) != named.end();
    lines.push_back(fmt::format("{} = {}{} ({})", what(role), to_string(value->second),
                                from_finding ? ", the value the finding names" : "", role_text(role)));
  }
  return lines;
}

}  // namespace klint::runner
