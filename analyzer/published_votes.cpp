#include "analyzer/published_votes.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "analyzer/barriers.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/ssa.h"
#include "analyzer/subgroup_facts.h"
#include "analyzer/value_ranges.h"

namespace klint {
namespace {

using spv::Op;

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Vulkan's subgroup sizes: powers of two up to 128.
constexpr uint32_t kWidestSubgroup = 128;
// Integers past this lose precision as doubles; such constants are not read.
constexpr double kExactInteger = 9007199254740992.0;  // 2^53

using Domain = NumberDomain;
using Range = ValueRange;

// A GLSL.std.450 max or min: its domain, and whether it ignores a NaN operand
// by definition (NMax, NMin).
struct Extremum {
  bool max;
  Domain domain;
  bool ignores_nan = false;
};

std::optional<Extremum> extremum_of(const ir::Instruction& instruction) {
  if (instruction.opcode() != Op::OpExtInst || instruction.ext_inst_type() != SPV_EXT_INST_TYPE_GLSL_STD_450 ||
      instruction.operands().size() != 6) {
    return std::nullopt;
  }
  switch (static_cast<GLSLstd450>(instruction.word(3))) {
    case GLSLstd450FMax: return Extremum{true, Domain::Float};
    case GLSLstd450NMax: return Extremum{true, Domain::Float, true};
    case GLSLstd450UMax: return Extremum{true, Domain::Unsigned};
    case GLSLstd450SMax: return Extremum{true, Domain::Signed};
    case GLSLstd450FMin: return Extremum{false, Domain::Float};
    case GLSLstd450NMin: return Extremum{false, Domain::Float, true};
    case GLSLstd450UMin: return Extremum{false, Domain::Unsigned};
    case GLSLstd450SMin: return Extremum{false, Domain::Signed};
    default: return std::nullopt;
  }
}

double half_to_double(uint32_t bits) {
  int exponent = static_cast<int>((bits >> 10) & 0x1F);
  double mantissa = bits & 0x3FF;
  double magnitude = exponent == 0    ? std::ldexp(mantissa, -24)
                     : exponent == 31 ? (mantissa == 0 ? kInfinity : std::nan(""))
                                      : std::ldexp(mantissa + 1024, exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

// The bits of a scalar number constant, and its type: an OpConstant, an
// OpConstantNull, or an OpBitcast of one (`uintBitsToFloat(0xFEFFFFFF)`). A
// specialization constant may be anything.
struct Bits {
  const ir::Instruction* type = nullptr;
  uint64_t bits = 0;
};

std::optional<Bits> constant_bits(const Module& module, uint32_t id) {
  const ir::Instruction* definition = module.def(copied_value(module, id));
  if (!definition) return std::nullopt;
  const ir::Instruction* type = module.def(definition->type_id());
  if (!type || (type->opcode() != Op::OpTypeFloat && type->opcode() != Op::OpTypeInt)) return std::nullopt;
  if (type->word(1) > 64) return std::nullopt;
  switch (definition->opcode()) {
    case Op::OpConstantNull:
      return Bits{type, 0};
    case Op::OpConstant: {
      uint64_t bits = definition->word(2);
      if (definition->operands()[2].num_words == 2) {
        bits |= uint64_t{definition->words()[definition->operands()[2].offset + 1]} << 32;
      }
      return Bits{type, bits};
    }
    case Op::OpBitcast: {
      auto source = constant_bits(module, definition->word(2));
      if (!source || source->type->word(1) != type->word(1)) return std::nullopt;
      return Bits{type, source->bits};
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

struct PublishedVotes::Evaluation {
  enum class Case { AllInformative, SomeOther } outcome;
  // How the device's FMax and FMin treat a NaN operand: they return the
  // other operand (IEEE maxNum), or NaN.
  enum class NanRule { Ignored, Returned } rule;
  Domain domain;
  uint32_t width = 32;  // of the integers compared
  const UniformSoFar& uniform;
  const Vote* vote = nullptr;  // the vote every fold in the value reads
};


PublishedVotes::PublishedVotes(const Module& module, const ir::Function& function)
    : module_(module), function_(function) {
  find_votes();
}

void PublishedVotes::find_votes() {
  for (const ir::Block& block : function_.blocks) {
    for (const ir::Instruction& instruction : block.instructions) {
      if (instruction.opcode() != Op::OpStore) continue;
      if (module_.storage_class(instruction.word(0)) != spv::StorageClass::Workgroup) continue;
      if (auto vote = vote_stored_by(instruction)) votes_.push_back(*vote);
    }
  }
}

std::optional<PublishedVotes::Vote> PublishedVotes::vote_stored_by(const ir::Instruction& store) const {
  Access access = access_of(module_, store.word(0));
  if (!access.variable || access.indices.size() != 1 || !indexes_subgroup(access.indices.front())) {
    return std::nullopt;
  }
  // slots[index] = vote ? a : b
  const ir::Instruction* select = module_.def(copied_value(module_, store.word(1)));
  if (!select || select->opcode() != Op::OpSelect) return std::nullopt;
  bool flipped = false;
  const ir::Instruction* vote = module_.def(copied_value(module_, select->word(2)));
  while (vote && vote->opcode() == Op::OpLogicalNot) {
    flipped = !flipped;
    vote = module_.def(copied_value(module_, vote->word(2)));
  }
  if (!vote || (vote->opcode() != Op::OpGroupNonUniformAll && vote->opcode() != Op::OpGroupNonUniformAny) ||
      module_.constant_value(vote->word(2)) != static_cast<uint64_t>(spv::Scope::Subgroup)) {
    return std::nullopt;
  }
  uint32_t when_true = select->word(flipped ? 4 : 3), when_false = select->word(flipped ? 3 : 4);
  // The predicate: `x relation bound`, or its negation.
  bool negated = false;
  const ir::Instruction* predicate = module_.def(copied_value(module_, vote->word(3)));
  while (predicate && predicate->opcode() == Op::OpLogicalNot) {
    negated = !negated;
    predicate = module_.def(copied_value(module_, predicate->word(2)));
  }
  if (!predicate || !ir::is_comparison(predicate->opcode())) return std::nullopt;
  Op holds = predicate->opcode();
  uint32_t voted = copied_value(module_, predicate->word(2)), bound = predicate->word(3);
  auto is_constant = [&](uint32_t id) { return constant_bits(module_, id).has_value(); };
  if (is_constant(voted)) {
    std::swap(voted, bound);
    voted = copied_value(module_, voted);
    holds = ir::swapped_comparison(holds);
  }
  if (is_constant(voted) || !is_constant(bound)) return std::nullopt;
  if (negated) holds = ir::negated_comparison(holds);
  Vote out;
  out.store = &store;
  out.variable = access.variable;
  out.vote = vote;
  out.voted = voted;
  out.bound = bound;
  // subgroupAll true says the predicate of every x of the subgroup; subgroupAny
  // false says its negation.
  bool all = vote->opcode() == Op::OpGroupNonUniformAll;
  out.holds = all ? holds : ir::negated_comparison(holds);
  out.informative = all ? when_true : when_false;
  out.other = all ? when_false : when_true;
  int block = block_index(module_, module_.cfg(function_), store);
  if (block < 0) return std::nullopt;
  out.guard = election(static_cast<uint32_t>(block));
  return out;
}

int PublishedVotes::election(uint32_t block) const {
  // The block of the branch whose election decides whether `block` runs:
  // `if (subgroupElect())`, `if (gl_SubgroupInvocationID == 0)`, with the
  // block on the elected side. -1 when no election decides it (the
  // uniformity of the block then says whether every invocation stores).
  const std::vector<uint32_t>& controllers = module_.control_dependence(function_).controllers(block);
  if (controllers.size() != 1) return -1;
  uint32_t guard = controllers.front();
  const ir::Instruction& branch = function_.blocks[guard].terminator();
  if (branch.opcode() != Op::OpBranchConditional) return -1;
  const ir::Instruction* condition = module_.def(copied_value(module_, branch.word(0)));
  if (!condition) return -1;
  bool elects = condition->opcode() == Op::OpGroupNonUniformElect &&
                module_.constant_value(condition->word(2)) == static_cast<uint64_t>(spv::Scope::Subgroup);
  if (condition->opcode() == Op::OpIEqual) {
    for (int side = 0; side < 2; ++side) {
      auto lane = loaded_builtin(module_, condition->word(2 + side));
      elects |= lane && lane->builtin == spv::BuiltIn::SubgroupLocalInvocationId &&
                literal_value(module_, condition->word(3 - side)) == 0u;
    }
  }
  if (!elects) return -1;
  // On the elected side: the true edge leads there and nothing else does.
  const Cfg& cfg = module_.cfg(function_);
  const DominatorTree& dominators = module_.dominators(function_);
  int elected = cfg.index_of(branch.word(1));
  if (elected < 0 || branch.word(1) == branch.word(2) || cfg.predecessors(elected).size() != 1 ||
      !dominators.dominates(static_cast<uint32_t>(elected), block)) {
    return -1;
  }
  return static_cast<int>(guard);
}

bool PublishedVotes::indexes_subgroup(uint32_t id) const {
  // gl_SubgroupID, or an invocation index divided by the subgroup size.
  id = copied_value(module_, id);
  if (auto builtin = loaded_builtin(module_, id)) return builtin->builtin == spv::BuiltIn::SubgroupId;
  const ir::Instruction* division = module_.def(id);
  if (!division || division->opcode() != Op::OpUDiv) return false;
  auto size = loaded_builtin(module_, division->word(3));
  auto index = loaded_builtin(module_, division->word(2));
  if (!size || size->builtin != spv::BuiltIn::SubgroupSize || !index) return false;
  if (index->builtin == spv::BuiltIn::LocalInvocationIndex) return true;
  if (index->builtin != spv::BuiltIn::LocalInvocationId || index->component != 0 ||
      !module_.workgroup_size_declared()) {
    return false;
  }
  // gl_LocalInvocationID.x is the index of a one-row workgroup.
  bool one_row = false;
  for (const EntryPoint& entry : module_.entry_points()) {
    if (entry.model != spv::ExecutionModel::GLCompute) continue;
    if (!entry.workgroup_size) return false;
    const auto& size3 = *entry.workgroup_size;
    if (size3[1].spec_id || size3[2].spec_id || size3[1].value * size3[2].value != 1) return false;
    one_row = true;
  }
  return one_row;
}

bool PublishedVotes::covers_subgroups(uint32_t count, bool exactly) const {
  // A loop `s < count` from 0 reads every subgroup's slot: count is
  // gl_NumSubgroups, or at least ceil(invocations / size) at every subgroup
  // size of a workgroup whose size is known.
  auto builtin = loaded_builtin(module_, count);
  if (builtin && builtin->builtin == spv::BuiltIn::NumSubgroups) return true;
  if (!module_.workgroup_size_declared()) return false;
  std::optional<uint64_t> invocations;
  for (const EntryPoint& entry : module_.entry_points()) {
    if (entry.model != spv::ExecutionModel::GLCompute) continue;
    if (!entry.workgroup_size) return false;
    uint64_t total = 1;
    for (const WorkgroupDimension& dimension : *entry.workgroup_size) {
      if (dimension.spec_id) return false;
      total *= dimension.value;
    }
    if (invocations && *invocations != total) return false;
    invocations = total;
  }
  if (!invocations) return false;
  for (uint64_t width = 1; width <= kWidestSubgroup; width *= 2) {
    uint64_t subgroups = (*invocations + width - 1) / width;
    std::function<std::optional<int64_t>(uint32_t, int)> value = [&](uint32_t id, int depth) -> std::optional<int64_t> {
      if (depth > 8) return std::nullopt;
      id = copied_value(module_, id);
      if (auto literal = literal_value(module_, id)) return static_cast<int64_t>(*literal);
      if (auto loaded = loaded_builtin(module_, id)) {
        if (loaded->builtin == spv::BuiltIn::SubgroupSize) return static_cast<int64_t>(width);
        if (loaded->builtin == spv::BuiltIn::NumSubgroups) return static_cast<int64_t>(subgroups);
        return std::nullopt;
      }
      const ir::Instruction* definition = module_.def(id);
      if (!definition || definition->operands().size() != 4) return std::nullopt;
      auto a = value(definition->word(2), depth + 1), b = value(definition->word(3), depth + 1);
      if (!a || !b || *a < 0 || *b < 0 || *a > (1 << 20) || *b > (1 << 20)) return std::nullopt;
      switch (definition->opcode()) {
        case Op::OpIAdd: return *a + *b;
        case Op::OpISub: return *a - *b;
        case Op::OpIMul: return *a * *b;
        case Op::OpUDiv: return *b == 0 ? std::nullopt : std::optional<int64_t>(*a / *b);
        case Op::OpShiftRightLogical: return *b >= 32 ? std::nullopt : std::optional<int64_t>(*a >> *b);
        default: return std::nullopt;
      }
    };
    auto read = value(count, 0);
    if (!read || *read < static_cast<int64_t>(subgroups)) return false;
    if (exactly && *read != static_cast<int64_t>(subgroups)) return false;
  }
  return true;
}

std::vector<bool> PublishedVotes::forward(uint32_t block, bool backward) const {
  // The blocks a path from (to) `block` takes that crosses no loop's back
  // edge: within one iteration.
  const Cfg& cfg = module_.cfg(function_);
  const DominatorTree& dominators = module_.dominators(function_);
  std::vector<bool> seen(cfg.size(), false);
  std::vector<uint32_t> work{block};
  while (!work.empty()) {
    uint32_t next = work.back();
    work.pop_back();
    if (seen[next]) continue;
    seen[next] = true;
    for (uint32_t neighbour : backward ? cfg.predecessors(next) : cfg.successors(next)) {
      bool back_edge = backward ? dominators.dominates(next, neighbour) : dominators.dominates(neighbour, next);
      if (!back_edge) work.push_back(neighbour);
    }
  }
  return seen;
}

bool PublishedVotes::writes(const ir::Instruction& instruction, uint32_t variable) const {
  uint32_t pointer = 0;
  Op op = instruction.opcode();
  if (op == Op::OpStore || op == Op::OpAtomicStore || op == Op::OpCopyMemory || op == Op::OpCopyMemorySized) {
    pointer = instruction.word(0);
  } else if (ir::is_atomic_read_modify_write(op)) {
    pointer = instruction.word(2);
  } else {
    return false;
  }
  if (const ir::Instruction* target = pointer_variable(module_, pointer)) return target->result_id() == variable;
  return module_.storage_class(pointer) == spv::StorageClass::Workgroup;  // somewhere unknown
}

bool PublishedVotes::published(const Vote& vote, const ir::Instruction& load, const UniformSoFar& uniform) const {
  // Every invocation votes; one invocation of each subgroup (or every one)
  // stores the subgroup's vote; a barrier stands between the store and the
  // load; and nothing else writes the slots from the election to the load.
  const Cfg& cfg = module_.cfg(function_);
  const DominatorTree& dominators = module_.dominators(function_);
  int vote_block = block_index(module_, cfg, *vote.vote);
  int store_block = block_index(module_, cfg, *vote.store);
  int load_block = block_index(module_, cfg, load);
  if (vote_block < 0 || store_block < 0 || load_block < 0) return false;
  auto start = static_cast<uint32_t>(vote.guard >= 0 ? vote.guard : store_block);
  auto target = static_cast<uint32_t>(load_block);
  auto vote_at = static_cast<uint32_t>(vote_block);
  if (!uniform.block(vote_at) || !uniform.block(start)) return false;
  std::vector<bool> from_start = forward(start, false), to_load = forward(target, true);
  if (!dominators.dominates(vote_at, start) || !dominators.dominates(start, target) || !from_start[target] ||
      !forward(vote_at, false)[start]) {
    return false;
  }

  // No other write on a path from the election (or the store) to the load.
  for (uint32_t block = 0; block < cfg.size(); ++block) {
    if (!from_start[block] || !to_load[block]) continue;
    // Nothing in the election's block comes after it; in the store's, what
    // follows the store.
    bool scanning = block != start;
    for (const ir::Instruction& instruction : function_.blocks[block].instructions) {
      if (&instruction == &load) break;
      if (&instruction == vote.store) {
        scanning = true;
      } else if (scanning && writes(instruction, vote.variable)) {
        return false;
      }
    }
  }

  // A barrier on every path from the store to the load, and none of the
  // invocations that run on past the load, until a barrier, writes the slots.
  auto found = [&](const ir::Instruction& instruction) { return &instruction == &load; };
  auto written = [&](const ir::Instruction& instruction) { return writes(instruction, vote.variable); };
  return !before_barrier(*vote.store, false, found) && !before_barrier(load, true, written);
}

bool PublishedVotes::before_barrier(const ir::Instruction& from, bool back_edges,
                                    const std::function<bool(const ir::Instruction&)>& found) const {
  // Whether an instruction that `found` accepts follows `from` on a path
  // with no workgroup barrier, taking loops' back edges or not.
  const Cfg& cfg = module_.cfg(function_);
  const DominatorTree& dominators = module_.dominators(function_);
  int first = block_index(module_, cfg, from);
  if (first < 0) return true;
  auto synchronizes = [&](const ir::Instruction& instruction) {
    std::optional<Barrier> barrier = barrier_of(module_, instruction);
    return barrier && barrier->control && may(barrier->synchronizes_workgroup_memory());
  };
  std::vector<bool> seen(cfg.size(), false);
  std::vector<uint32_t> work;
  // Scans a block from `start` on; false where a barrier ends the path.
  auto scan = [&](uint32_t block, const ir::Instruction* start, bool& hit) {
    bool scanning = start == nullptr;
    for (const ir::Instruction& instruction : function_.blocks[block].instructions) {
      if (!scanning) {
        scanning = &instruction == start;
        continue;
      }
      if (found(instruction)) {
        hit = true;
        return false;
      }
      if (synchronizes(instruction)) return false;
    }
    return true;
  };
  auto follow = [&](uint32_t block) {
    for (uint32_t next : cfg.successors(block)) {
      if (back_edges || !dominators.dominates(next, block)) work.push_back(next);
    }
  };
  bool hit = false;
  if (scan(static_cast<uint32_t>(first), &from, hit)) follow(static_cast<uint32_t>(first));
  while (!work.empty() && !hit) {
    uint32_t block = work.back();
    work.pop_back();
    if (seen[block]) continue;
    seen[block] = true;
    if (scan(block, nullptr, hit)) follow(block);
  }
  return hit;
}

std::optional<PublishedVotes::Fold> PublishedVotes::fold(uint32_t phi, const UniformSoFar& uniform) const {
  // m = phi(initial, op(m, slots[s])) in the header of a loop that runs s
  // from 0 by 1 while s < count, count covering every subgroup.
  std::optional<SlotLoop> loop = slot_loop(phi);
  if (!loop) return std::nullopt;
  auto operation = extremum_of(*loop->update);
  if (!operation) return std::nullopt;
  const ir::Instruction* load = module_.def(loop->update->word(4) == phi   ? loop->update->word(5)
                                            : loop->update->word(5) == phi ? loop->update->word(4)
                                                                           : 0);
  if (!load || load->opcode() != Op::OpLoad) return std::nullopt;
  Access access = access_of(module_, load->word(2));
  if (!access.variable || access.indices.size() != 1) return std::nullopt;
  const ir::Instruction* counter = module_.def(copied_value(module_, access.indices.front()));
  std::optional<uint32_t> count = counter ? loop_count(*loop, *counter, 0, *load, uniform) : std::nullopt;
  if (!count || !covers_subgroups(*count)) return std::nullopt;

  const Vote* found = nullptr;
  for (const Vote& vote : votes_) {
    if (vote.variable != access.variable || !published(vote, *load, uniform)) continue;
    if (found) return std::nullopt;
    found = &vote;
  }
  if (!found) return std::nullopt;
  return Fold{found, loop->initial, operation->max, operation->domain, operation->ignores_nan};
}

std::optional<PublishedVotes::SlotLoop> PublishedVotes::slot_loop(uint32_t phi) const {
  const ir::Instruction* definition = module_.def(phi);
  if (!definition || definition->opcode() != Op::OpPhi || definition->operands().size() != 6) return std::nullopt;
  const Cfg& cfg = module_.cfg(function_);
  int header = block_index(module_, cfg, *definition);
  for (const Loop& candidate : module_.loops(function_)) {
    if (static_cast<int>(candidate.header) != header) continue;
    SlotLoop loop{&candidate, static_cast<uint32_t>(header), 0, nullptr};
    auto values = incoming(loop, *definition);
    if (!values) return std::nullopt;
    loop.initial = values->first;
    loop.update = module_.def(values->second);
    if (!loop.update) return std::nullopt;
    return loop;
  }
  return std::nullopt;
}

std::optional<std::pair<uint32_t, uint32_t>> PublishedVotes::incoming(const SlotLoop& loop,
                                                                     const ir::Instruction& header_phi) const {
  // The two incoming values of a header phi: from before the loop, and back.
  const Cfg& cfg = module_.cfg(function_);
  auto inside = [&](uint32_t label) {
    int block = cfg.index_of(label);
    return block >= 0 && loop.loop->body[static_cast<uint32_t>(block)];
  };
  bool first_inside = inside(header_phi.word(3)), second_inside = inside(header_phi.word(5));
  if (first_inside == second_inside) return std::nullopt;
  return first_inside ? std::pair(header_phi.word(4), header_phi.word(2))
                      : std::pair(header_phi.word(2), header_phi.word(4));
}

std::optional<uint32_t> PublishedVotes::loop_count(const SlotLoop& loop, const ir::Instruction& counter,
                                                   uint64_t start, const ir::Instruction& load,
                                                   const UniformSoFar& uniform) const {
  // The counter: phi(start, s + 1) in the loop's header.
  const Cfg& cfg = module_.cfg(function_);
  const DominatorTree& dominators = module_.dominators(function_);
  if (counter.opcode() != Op::OpPhi || counter.operands().size() != 6 ||
      block_index(module_, cfg, counter) != static_cast<int>(loop.header)) {
    return std::nullopt;
  }
  auto steps = incoming(loop, counter);
  if (!steps || literal_value(module_, steps->first) != start) return std::nullopt;
  const ir::Instruction* step = module_.def(steps->second);
  if (!step || step->opcode() != Op::OpIAdd) return std::nullopt;
  bool adds_one = (step->word(2) == counter.result_id() && literal_value(module_, step->word(3)) == 1u) ||
                  (step->word(3) == counter.result_id() && literal_value(module_, step->word(2)) == 1u);
  if (!adds_one) return std::nullopt;

  // One way out: `s < count` failing, tested before the slot is read.
  const std::vector<bool>& body = loop.loop->body;
  std::optional<uint32_t> exit;
  for (uint32_t block = 0; block < cfg.size(); ++block) {
    if (!body[block]) continue;
    if (cfg.is_exit(block)) return std::nullopt;
    for (uint32_t next : cfg.successors(block)) {
      if (body[next]) continue;
      if (exit && *exit != block) return std::nullopt;
      exit = block;
    }
  }
  if (!exit) return std::nullopt;
  const ir::Instruction& branch = function_.blocks[*exit].terminator();
  if (branch.opcode() != Op::OpBranchConditional || !uniform.value(branch.word(0))) return std::nullopt;
  const ir::Instruction* test = module_.def(copied_value(module_, branch.word(0)));
  if (!test || !ir::is_comparison(test->opcode())) return std::nullopt;
  int stays_at = cfg.index_of(branch.word(1));
  bool stays_inside = stays_at >= 0 && body[static_cast<uint32_t>(stays_at)];
  Op stays = stays_inside ? test->opcode() : ir::negated_comparison(test->opcode());
  uint32_t count = test->word(3);
  if (copied_value(module_, test->word(3)) == counter.result_id()) {
    stays = ir::swapped_comparison(stays);
    count = test->word(2);
  } else if (copied_value(module_, test->word(2)) != counter.result_id()) {
    return std::nullopt;
  }
  if (stays != Op::OpULessThan && stays != Op::OpSLessThan) return std::nullopt;
  int load_block = block_index(module_, cfg, load);
  int update_block = block_index(module_, cfg, *loop.update);
  if (load_block < 0 || update_block < 0 || !dominators.dominates(*exit, static_cast<uint32_t>(load_block))) {
    return std::nullopt;
  }
  // The update runs on every iteration that goes round.
  for (uint32_t latch : cfg.predecessors(loop.header)) {
    if (body[latch] && !dominators.dominates(static_cast<uint32_t>(update_block), latch)) return std::nullopt;
  }
  return count;
}

bool PublishedVotes::same_in_subgroup(uint32_t id, const UniformSoFar& uniform, int depth) const {
  // Built from subgroup-wide results, subgroup built-ins and values the same
  // in the whole workgroup, by arithmetic.
  if (depth > 16) return false;
  id = copied_value(module_, id);
  if (uniform.value(id) || indexes_subgroup(id)) return true;
  if (auto builtin = loaded_builtin(module_, id)) {
    return builtin->builtin == spv::BuiltIn::SubgroupId || builtin->builtin == spv::BuiltIn::SubgroupSize ||
           builtin->builtin == spv::BuiltIn::NumSubgroups;
  }
  const ir::Instruction* definition = module_.def(id);
  if (!definition) return false;
  if (is_subgroup_wide(*definition)) return true;
  switch (definition->opcode()) {
    case Op::OpIAdd: case Op::OpISub: case Op::OpIMul: case Op::OpShiftLeftLogical: case Op::OpShiftRightLogical:
    case Op::OpBitwiseAnd: case Op::OpBitwiseOr: case Op::OpBitwiseXor: case Op::OpCompositeExtract:
    case Op::OpNot: case Op::OpBitcast: case Op::OpUConvert:
      for (uint32_t input : definition->input_ids()) {
        if (!module_.def(input) || module_.def(input)->opcode() == Op::OpConstant) continue;
        if (!same_in_subgroup(input, uniform, depth + 1)) return false;
      }
      return true;
    default: return false;
  }
}

bool PublishedVotes::power_of_two_workgroup() const {
  // gl_NumSubgroups is a power of two at every subgroup size when the
  // workgroup's size is, and then i ^ s for i in 1..n-1 visits every slot
  // but s once.
  if (!module_.workgroup_size_declared()) return false;
  bool any = false;
  for (const EntryPoint& entry : module_.entry_points()) {
    if (entry.model != spv::ExecutionModel::GLCompute) continue;
    if (!entry.workgroup_size) return false;
    uint64_t total = 1;
    for (const WorkgroupDimension& dimension : *entry.workgroup_size) {
      if (dimension.spec_id) return false;
      total *= dimension.value;
    }
    if (total == 0 || (total & (total - 1)) != 0) return false;
    any = true;
  }
  return any;
}

bool PublishedVotes::all_reduced(uint32_t phi, const UniformSoFar& uniform) const {
  if (!power_of_two_workgroup()) return false;
  std::optional<SlotLoop> loop = slot_loop(phi);
  if (!loop) return false;
  const ir::Instruction& update = *loop->update;
  uint32_t slot = 0;
  if (extremum_of(update)) {  // GLSL.std.450 max or min: its operands come after the instruction number
    slot = update.word(4) == phi ? update.word(5) : update.word(5) == phi ? update.word(4) : 0;
  } else {
    const Op op = update.opcode();
    if ((op != Op::OpBitwiseOr && op != Op::OpBitwiseAnd && op != Op::OpBitwiseXor && op != Op::OpIAdd) ||
        update.operands().size() != 4) {
      return false;
    }
    slot = update.word(2) == phi ? update.word(3) : update.word(3) == phi ? update.word(2) : 0;
  }
  const ir::Instruction* load = module_.def(slot);
  if (!load || load->opcode() != Op::OpLoad) return false;
  Access access = access_of(module_, load->word(2));
  if (!access.variable || access.indices.size() != 1) return false;
  // The slot: i ^ gl_SubgroupID, i the loop's counter from 1 by 1 while i is
  // below the number of subgroups, exactly.
  const ir::Instruction* index = module_.def(copied_value(module_, access.indices.front()));
  if (!index || index->opcode() != Op::OpBitwiseXor) return false;
  const ir::Instruction* counter = nullptr;
  for (int side = 0; side < 2; ++side) {
    const ir::Instruction* candidate = module_.def(copied_value(module_, index->word(2 + side)));
    if (candidate && candidate->opcode() == Op::OpPhi && indexes_subgroup(index->word(3 - side))) counter = candidate;
  }
  std::optional<uint32_t> count = counter ? loop_count(*loop, *counter, 1, *load, uniform) : std::nullopt;
  if (!count || !covers_subgroups(*count, true)) return false;
  // Inside the loop the phi feeds the fold alone, and the fold the phi (and
  // the stores SSA rewriting leaves to the local it promoted).
  const Cfg& cfg = module_.cfg(function_);
  for (const ir::Instruction* use : module_.uses(phi)) {
    int at = block_index(module_, cfg, *use);
    if (use != &update && at >= 0 && loop->loop->body[static_cast<uint32_t>(at)]) return false;
  }
  const ir::Instruction* definition = module_.def(phi);
  for (const ir::Instruction* use : module_.uses(update.result_id())) {
    bool local_copy = use->opcode() == Op::OpStore && use->word(1) == update.result_id() &&
                      module_.storage_class(use->word(0)) == spv::StorageClass::Function;
    if (use != definition && !local_copy) return false;
  }
  // The own value is the subgroup's, and an elected invocation of each
  // subgroup published it in the subgroup's slot before a barrier.
  uint32_t own = copied_value(module_, loop->initial);
  if (!same_in_subgroup(own, uniform, 0)) return false;
  for (const ir::Block& block : function_.blocks) {
    for (const ir::Instruction& store : block.instructions) {
      if (store.opcode() != Op::OpStore || copied_value(module_, store.word(1)) != own) continue;
      Access target = access_of(module_, store.word(0));
      if (target.variable != access.variable || target.indices.size() != 1 ||
          !indexes_subgroup(target.indices.front())) {
        continue;
      }
      int store_block = block_index(module_, cfg, store);
      if (store_block < 0) continue;
      Vote vote;
      vote.store = &store;
      vote.variable = access.variable;
      vote.vote = module_.def(own);
      vote.guard = election(static_cast<uint32_t>(store_block));
      if (vote.vote && vote.guard >= 0 && published(vote, *load, uniform)) return true;
    }
  }
  return false;
}

std::optional<ValueRange> PublishedVotes::constant(uint32_t id, Domain domain) const {
  // A number in the evaluation's domain.
  auto constant = constant_bits(module_, id);
  if (!constant) return std::nullopt;
  const ir::Instruction* type = constant->type;
  bool is_float = type->opcode() == Op::OpTypeFloat;
  if (is_float != (domain == Domain::Float)) return std::nullopt;
  uint32_t width = type->word(1);
  uint64_t bits = constant->bits;
  double value = 0;
  if (is_float) {
    if (width == 16) {
      value = half_to_double(static_cast<uint32_t>(bits));
    } else if (width == 32) {
      value = std::bit_cast<float>(static_cast<uint32_t>(bits));
    } else if (width == 64) {
      value = std::bit_cast<double>(bits);
    } else {
      return std::nullopt;
    }
    if (std::isnan(value)) {
      Range nan{false};
      nan.nan = true;
      return nan;
    }
    return Range::point(value);
  }
  if (width > 64) return std::nullopt;
  if (domain == Domain::Signed && width < 64 && ((bits >> (width - 1)) & 1)) {
    value = -static_cast<double>((~bits + 1) & ((uint64_t{1} << width) - 1));
  } else if (domain == Domain::Signed && width == 64) {
    value = static_cast<double>(static_cast<int64_t>(bits));
  } else {
    value = static_cast<double>(bits);
  }
  if (std::fabs(value) > kExactInteger) return std::nullopt;
  return Range::point(value);
}

const PublishedVotes::Vote* PublishedVotes::vote_read_by(uint32_t id, const UniformSoFar& uniform, int depth) const {
  // The vote whose slots a fold in the value reads.
  const ir::Instruction* definition = module_.def(copied_value(module_, id));
  if (!definition || depth > 16) return nullptr;
  if (extremum_of(*definition)) {
    for (uint32_t operand : {definition->word(4), definition->word(5)}) {
      if (const Vote* vote = vote_read_by(operand, uniform, depth + 1)) return vote;
    }
    return nullptr;
  }
  if (definition->opcode() != Op::OpPhi) return nullptr;
  std::optional<Fold> folded = fold(definition->result_id(), uniform);
  return folded ? folded->vote : nullptr;
}

std::optional<ValueRange> PublishedVotes::evaluate(uint32_t id, const Evaluation& evaluation,
                                                              int depth) const {
  id = copied_value(module_, id);
  if (depth > 16) return std::nullopt;
  if (auto number = constant(id, evaluation.domain)) return number;
  using Case = Evaluation::Case;
  const Range all = everything(evaluation.domain, evaluation.width);
  const Vote& vote = *evaluation.vote;
  if (id == vote.voted) {
    if (evaluation.outcome == Case::SomeOther) return all;
    auto test = test_of(vote.holds);
    auto bound = constant(vote.bound, evaluation.domain);
    if (!test || (test->domain && *test->domain != evaluation.domain) || !bound || !bound->numbers) {
      return std::nullopt;
    }
    return satisfying(*test, bound->low, all);
  }
  const ir::Instruction* definition = module_.def(id);
  if (!definition) return std::nullopt;
  bool nan_ignored = evaluation.rule == Evaluation::NanRule::Ignored;
  if (auto operation = extremum_of(*definition)) {
    if (operation->domain != evaluation.domain) return std::nullopt;
    auto a = evaluate(definition->word(4), evaluation, depth + 1);
    auto b = a ? evaluate(definition->word(5), evaluation, depth + 1) : std::nullopt;
    if (!b) return std::nullopt;
    return extremum(*a, *b, operation->max, nan_ignored || operation->ignores_nan);
  }
  if (definition->opcode() != Op::OpPhi) return std::nullopt;
  std::optional<Fold> folded = fold(id, evaluation.uniform);
  if (!folded || folded->vote != &vote) return std::nullopt;  // another round of votes
  if (folded->domain != evaluation.domain) return std::nullopt;
  nan_ignored |= folded->ignores_nan;
  auto initial = evaluate(folded->initial, evaluation, depth + 1);
  auto informative = constant(vote.informative, evaluation.domain);
  auto other = constant(vote.other, evaluation.domain);
  if (!initial || !informative || !other) return std::nullopt;
  Range every = extremum(*initial, *informative, folded->max, nan_ignored);
  if (evaluation.outcome == Case::AllInformative) return every;
  // At least one slot holds the other value; the rest either.
  Range some = extremum(*initial, *other, folded->max, nan_ignored);
  return hull(some, extremum(some, *informative, folded->max, nan_ignored));
}

bool PublishedVotes::decides(const ir::Instruction& comparison, const UniformSoFar& uniform) const {
  if (votes_.empty()) return false;
  // Oriented as `value relation bound`, the bound a constant.
  uint32_t value = comparison.word(2), bound = comparison.word(3);
  Op op = comparison.opcode();
  auto is_constant = [&](uint32_t id) { return constant_bits(module_, id).has_value(); };
  if (is_constant(value)) {
    std::swap(value, bound);
    op = ir::swapped_comparison(op);
  }
  auto test = test_of(op);
  if (!test || !is_constant(bound) || is_constant(value)) return false;
  bound = copied_value(module_, bound);
  const ir::Instruction* type = constant_bits(module_, bound)->type;
  Domain domain = Domain::Float;
  if (test->domain) {
    domain = *test->domain;
  } else if (type->opcode() == Op::OpTypeInt) {
    domain = type->word(2) ? Domain::Signed : Domain::Unsigned;  // equality reads both alike
  } else {
    return false;
  }
  uint32_t width = type->opcode() == Op::OpTypeInt ? type->word(1) : 32;
  auto limit = constant(bound, domain);
  if (!limit || !limit->numbers) return false;
  const Vote* vote = vote_read_by(value, uniform, 0);
  if (!vote) return false;
  using Case = Evaluation::Case;
  using NanRule = Evaluation::NanRule;
  // For each rule a device may follow for NaN, in each case, one answer.
  for (NanRule rule : {NanRule::Ignored, NanRule::Returned}) {
    for (Case outcome : {Case::AllInformative, Case::SomeOther}) {
      auto range = evaluate(value, Evaluation{outcome, rule, domain, width, uniform, vote}, 0);
      if (!range || !compare(*range, *test, limit->low)) return false;
    }
    if (domain != Domain::Float) break;
  }
  return true;
}

}  // namespace klint
