#include "analyzer/barrier_intervals.h"

#include <fmt/core.h>

#include <algorithm>
#include <deque>
#include <map>

#include "analyzer/barriers.h"
#include "analyzer/uniformity.h"

namespace klint {

using spv::Op;

bool is_workgroup_barrier(const Module& module, const ir::Instruction& instruction) {
  std::optional<Barrier> barrier = barrier_of(module, instruction);
  if (!barrier) return false;
  return barrier->control ? may(barrier->waits_for_workgroup()) : may(barrier->orders_workgroup_memory());
}

BarrierIntervals::BarrierIntervals(const Module& module, const ir::Function& function)
    : module_(module), function_(function), accesses_(module.accesses(function)),
      loops_(module.loops(function)), iterations_(module, function), events_(function.blocks.size()) {
  std::map<const ir::Instruction*, size_t> access_index;  // first access of each instruction
  for (size_t i = 0; i < accesses_.all().size(); ++i) {
    // OpCopyMemory makes two accesses of one instruction; both count.
    access_index.emplace(accesses_.all()[i].instruction, i);
  }
  for (uint32_t block = 0; block < function.blocks.size(); ++block) {
    const auto& instructions = function.blocks[block].instructions;
    for (size_t position = 0; position < instructions.size(); ++position) {
      if (is_workgroup_barrier(module, instructions[position])) {
        events_[block].push_back({position, 0, true});
      } else if (auto found = access_index.find(&instructions[position]); found != access_index.end()) {
        events_[block].push_back({position, found->second, false});
      }
    }
  }
  const Cfg& cfg = module.cfg(function);
  for (const Loop& loop : loops_) {
    // Can the header reach one of its latches through blocks without a barrier?
    std::vector<bool> seen(cfg.size(), false);
    std::vector<uint32_t> work{loop.header};
    bool unseparated = false;
    while (!work.empty() && !unseparated) {
      uint32_t block = work.back();
      work.pop_back();
      if (seen[block] || has_barrier(block)) continue;
      seen[block] = true;
      for (uint32_t next : cfg.successors(block)) {
        if (next == loop.header) unseparated = true;
        if (loop.body[next]) work.push_back(next);
      }
    }
    separated_.push_back(!unseparated);
    skips_.push_back(unseparated ? divergent_skips(loop) : std::vector<const ir::Instruction*>{});
    in_step_.push_back(skips_.back().empty());
  }

  intervals_.push_back(walk(0, 0, nullptr));
  for (uint32_t block = 0; block < function.blocks.size(); ++block) {
    if (!cfg.reachable(block)) continue;
    for (const Event& event : events_[block]) {
      if (event.barrier) {
        const ir::Instruction& barrier = function.blocks[block].instructions[event.position];
        intervals_.push_back(walk(block, event.position + 1, &barrier));
      }
    }
  }
}

bool BarrierIntervals::has_barrier(uint32_t block) const {
  return std::any_of(events_[block].begin(), events_[block].end(), [](const Event& e) { return e.barrier; });
}

std::vector<const ir::Instruction*> BarrierIntervals::divergent_skips(const Loop& loop) const {
  const Cfg& cfg = module_.cfg(function_);
  const Uniformity& uniformity = module_.uniformity(function_);
  // The blocks on barrier-free paths from the header to a latch.
  std::vector<bool> from_header(cfg.size(), false), to_latch(cfg.size(), false);
  std::vector<uint32_t> work{loop.header};
  while (!work.empty()) {
    uint32_t block = work.back();
    work.pop_back();
    if (from_header[block] || has_barrier(block)) continue;
    from_header[block] = true;
    for (uint32_t next : cfg.successors(block)) {
      if (loop.body[next] && next != loop.header) work.push_back(next);
    }
  }
  for (uint32_t latch : cfg.predecessors(loop.header)) {
    if (loop.body[latch]) work.push_back(latch);
  }
  while (!work.empty()) {
    uint32_t block = work.back();
    work.pop_back();
    if (to_latch[block] || has_barrier(block)) continue;
    to_latch[block] = true;
    if (block == loop.header) continue;
    for (uint32_t before : cfg.predecessors(block)) {
      if (loop.body[before]) work.push_back(before);
    }
  }
  auto barrier_free = [&](uint32_t block) { return from_header[block] && to_latch[block]; };
  std::vector<const ir::Instruction*> skips;
  for (uint32_t block = 0; block < function_.blocks.size(); ++block) {
    if (!barrier_free(block)) continue;
    const ir::Instruction& branch = function_.blocks[block].terminator();
    if (branch.opcode() != Op::OpBranchConditional && branch.opcode() != Op::OpSwitch) continue;
    const auto& next = cfg.successors(block);
    bool decides = std::any_of(next.begin(), next.end(), [&](uint32_t n) {
      return loop.body[n] && n != loop.header && !barrier_free(n);
    });
    if (decides && (uniformity.value(branch.word(0)) || uniformity.divergent_branch(block))) skips.push_back(&branch);
  }
  return skips;
}

// Deep enough for the index arithmetic of a skip condition.
constexpr int kSameDepth = 16;

// Whether `id` has one value in the invocations whose ids `x` and `y` assign,
// at any one point both run: it is uniform, or computes from their ids alone
// to the same number, or computes by pure operations from values that do
// (`(wg * 4 + tid / 8) / 4` for tid 0 and 2). A value klint cannot follow may
// differ.
bool BarrierIntervals::same_in(uint32_t id, const Assignment& x, const Assignment& y, int depth) const {
  if (!module_.uniformity(function_).value(id)) return true;
  const ir::Instruction* def = module_.def(id);
  if (!def || depth > kSameDepth) return false;
  const ir::Instruction* type = module_.def(def->type_id());
  if (type && type->opcode() == Op::OpTypeInt) {
    const SymbolicValues& values = module_.symbolic(function_);
    auto in_x = values.evaluate(values.value(id), x);
    auto in_y = values.evaluate(values.value(id), y);
    if (in_x && in_y) return *in_x == *in_y;
  }
  if (!is_pure(def->opcode())) return false;
  for (uint32_t input : def->input_ids()) {
    if (!same_in(input, x, y, depth + 1)) return false;
  }
  return true;
}

// Whether the invocations `x` and `y` may take one of the loop's divergent
// skips differently: then one runs iterations that the other skips, and
// they leave the step the barriers keep.
bool BarrierIntervals::may_fall_out_of_step(const Loop& loop, const Assignment& x, const Assignment& y) const {
  size_t index = static_cast<size_t>(&loop - loops_.data());
  if (index >= skips_.size()) return true;
  const Uniformity& uniformity = module_.uniformity(function_);
  const Cfg& cfg = module_.cfg(function_);
  for (const ir::Instruction* skip : skips_[index]) {
    // The branch, and the divergent branches that decide whether it is reached.
    const ir::Instruction* branch = skip;
    for (int depth = 0; branch && depth < kSameDepth; ++depth) {
      if (!same_in(branch->word(0), x, y, 0)) return true;
      const ir::Block* block = module_.block_of(*branch);
      int at = block ? cfg.index_of(block->id()) : -1;
      if (at < 0) return true;
      branch = uniformity.divergent_branch(static_cast<uint32_t>(at));
    }
    if (branch) return true;
  }
  return false;
}

std::optional<Collision> BarrierIntervals::collision(const CollisionFinder& finder, const ConcurrentPair& pair,
                                                    UnknownGuards guards) const {
  const MemoryAccess& a = accesses_.all()[pair.a];
  const MemoryAccess& b = accesses_.all()[pair.b];
  if (pair.out_of_step.empty()) return finder.find(a, b, pair.independent, pair.a_limits, pair.b_limits, guards);
  // First in step; then out of step, for two invocations that can get there.
  std::vector<const Loop*> in_step;
  for (const Loop* loop : pair.independent) {
    if (std::find(pair.out_of_step.begin(), pair.out_of_step.end(), loop) == pair.out_of_step.end()) {
      in_step.push_back(loop);
    }
  }
  if (auto found = finder.find(a, b, in_step, pair.a_limits, pair.b_limits, guards)) return found;
  std::optional<Collision> found = finder.find(a, b, pair.independent, pair.a_limits, pair.b_limits, guards);
  if (!found) return std::nullopt;
  const Assignment* x = finder.invocation(found->first.local_index);
  const Assignment* y = finder.invocation(found->second.local_index);
  if (!x || !y) return found;
  for (const Loop* loop : pair.out_of_step) {
    if (may_fall_out_of_step(*loop, *x, *y)) return found;
  }
  return std::nullopt;
}

bool BarrierIntervals::scan(uint32_t block, size_t from, const std::vector<uint32_t>& crossed,
                            BarrierInterval& interval) const {
  const auto& events = events_[block];
  auto it = std::lower_bound(events.begin(), events.end(), from,
                             [](const Event& e, size_t position) { return e.position < position; });
  const auto& all = accesses_.all();
  for (; it != events.end(); ++it) {
    const ir::Instruction& instruction = function_.blocks[block].instructions[it->position];
    if (it->barrier) {
      if (std::find(interval.ends.begin(), interval.ends.end(), &instruction) == interval.ends.end()) {
        interval.ends.push_back(&instruction);
      }
      return true;
    }
    for (size_t i = it->access; i < all.size() && all[i].instruction == &instruction; ++i) {
      // A walk that tracks loop iterations may come to a block once per iteration.
      if (iterations_.tracks_any() &&
          std::any_of(interval.accesses.begin(), interval.accesses.end(),
                      [&](const IntervalAccess& seen) { return seen.access == i && seen.crossed == crossed; })) {
        continue;
      }
      interval.accesses.push_back({i, crossed});
    }
  }
  return false;
}

BarrierInterval BarrierIntervals::walk(uint32_t start_block, size_t start_position, const ir::Instruction* start) const {
  if (!start || start_position == 0) return walk_blocks(start_block, start_position, start);
  // What follows the end of the block is the same from every position in it:
  // walked once per block (callers go in block order) and appended.
  BarrierInterval interval;
  interval.start = start;
  if (scan(start_block, start_position, {}, interval)) return interval;
  if (!tail_ || tail_->first != start_block) {
    tail_.emplace(start_block,
                  walk_blocks(start_block, function_.blocks[start_block].instructions.size(), start));
  }
  const BarrierInterval& tail = tail_->second;
  interval.accesses.insert(interval.accesses.end(), tail.accesses.begin(), tail.accesses.end());
  interval.blocks = tail.blocks;
  interval.ends = tail.ends;
  interval.reaches_exit = tail.reaches_exit;
  return interval;
}

BarrierInterval BarrierIntervals::walk_blocks(uint32_t start_block, size_t start_position,
                                              const ir::Instruction* start) const {
  using State = LoopIterations::State;
  const Cfg& cfg = module_.cfg(function_);
  const DominatorTree& dominators = module_.dominators(function_);
  BarrierInterval interval;
  interval.start = start;
  struct Item {
    uint32_t block;
    size_t from;
    std::vector<uint32_t> crossed;
    State state;  // the iterations of the loops whose branches depend on them
  };
  // Each block once for each iteration state it is reached in; without
  // tracked loops the state is always 0.
  auto first_time = [](std::vector<State>& seen, State state) {
    if (std::find(seen.begin(), seen.end(), state) != seen.end()) return false;
    seen.push_back(state);
    return true;
  };
  std::vector<std::vector<State>> visited(cfg.size());
  std::vector<State> start_rescanned;
  std::deque<Item> work{{start_block, start_position, {}, 0}};
  if (start_position == 0) visited[start_block].push_back(0);
  while (!work.empty()) {
    Item item = std::move(work.front());
    work.pop_front();
    if (scan(item.block, item.from, item.crossed, interval)) continue;
    if (!iterations_.tracks_any() ||
        std::find(interval.blocks.begin(), interval.blocks.end(), item.block) == interval.blocks.end()) {
      interval.blocks.push_back(item.block);
    }
    if (cfg.is_exit(item.block)) interval.reaches_exit = true;
    // A flag that the loop sets (`need_barrier = true`), or a test of the
    // iteration (`if (i > 0) barrier();`), is known once the path has come
    // around the loop: follow only the branch it takes.
    std::optional<uint32_t> only;
    const ir::Instruction& branch = function_.blocks[item.block].terminator();
    if (branch.opcode() == Op::OpBranchConditional) {
      if (auto known = flag_value(branch.word(0), item.crossed, start_block, item.state)) {
        int target = cfg.index_of(branch.word(*known ? 1 : 2));
        if (target >= 0) only = static_cast<uint32_t>(target);
      }
    }
    for (uint32_t next : cfg.successors(item.block)) {
      if (only && next != *only) continue;
      std::vector<uint32_t> crossed = item.crossed;
      if (dominators.dominates(next, item.block) && function_.blocks[next].merge() &&
          function_.blocks[next].merge()->opcode() == Op::OpLoopMerge) {
        if (std::find(crossed.begin(), crossed.end(), next) == crossed.end()) crossed.push_back(next);
      }
      State state = iterations_.follow(item.state, item.block, next);
      if (next == start_block && start && first_time(start_rescanned, state)) {
        // Back at the barrier's own block: what runs before the barrier.
        work.push_back({next, 0, std::move(crossed), state});
        continue;
      }
      if (!first_time(visited[next], state)) continue;
      work.push_back({next, 0, std::move(crossed), state});
    }
  }
  return interval;
}

std::optional<bool> BarrierIntervals::flag_value(uint32_t id, const std::vector<uint32_t>& crossed,
                                                uint32_t start_block, LoopIterations::State state, int depth) const {
  auto iteration_of = [&](uint32_t header) {
    auto known = iterations_.iteration(state, header);
    if (known != LoopIterations::Iteration::Unknown) return known;
    // A path that starts outside a loop and never came around its back edge
    // is in its first iteration.
    const Loop* loop = nullptr;
    for (const Loop& candidate : loops_) {
      if (candidate.header == header) loop = &candidate;
    }
    bool came_around = std::find(crossed.begin(), crossed.end(), header) != crossed.end();
    if (!loop || came_around || loop->body[start_block]) return LoopIterations::Iteration::Unknown;
    return LoopIterations::Iteration::First;
  };
  auto phi = [&](const ir::Instruction& def, int phi_depth) {
    return phi_value(def, crossed, start_block, state, phi_depth);
  };
  return iterations_.decide(id, iteration_of, phi, depth);
}

std::optional<bool> BarrierIntervals::phi_value(const ir::Instruction& def, const std::vector<uint32_t>& crossed,
                                                uint32_t start_block, LoopIterations::State state, int depth) const {
  const Cfg& cfg = module_.cfg(function_);
  const ir::Block* block = module_.block_of(def);
  int here = block ? cfg.index_of(block->id()) : -1;
  if (here < 0) return std::nullopt;
  const Loop* loop = nullptr;
  for (const Loop& candidate : loops_) {
    if (candidate.header == static_cast<uint32_t>(here)) loop = &candidate;
  }
  std::optional<bool> common;
  for (size_t i = 2; i + 1 < def.operands().size(); i += 2) {
    int parent = cfg.index_of(def.word(i + 1));
    if (parent < 0) return std::nullopt;
    if (loop) {
      // At a loop header: the back edge's value once the path came around
      // the loop, the entry value when it came in from outside.
      bool back_edge = loop->body[static_cast<uint32_t>(parent)];
      auto iteration = iterations_.iteration(state, loop->header);
      bool came_around = iteration == LoopIterations::Iteration::Later ||
                         (iteration == LoopIterations::Iteration::Unknown &&
                          std::find(crossed.begin(), crossed.end(), loop->header) != crossed.end());
      if (iteration == LoopIterations::Iteration::Unknown && !came_around && loop->body[start_block]) {
        return std::nullopt;  // mid-loop: either
      }
      if (back_edge != came_around) continue;
    }
    auto value = flag_value(def.word(i), crossed, start_block, state, depth);
    if (!value || (common && *common != *value)) return std::nullopt;
    common = value;
  }
  return common;
}

bool BarrierIntervals::separates_iterations(const Loop& loop) const {
  for (size_t i = 0; i < loops_.size(); ++i) {
    if (loops_[i].header == loop.header) return separated_[i];
  }
  return false;
}

bool BarrierIntervals::keeps_iterations_in_step(const Loop& loop) const {
  for (size_t i = 0; i < loops_.size(); ++i) {
    if (loops_[i].header == loop.header) return in_step_[i];
  }
  return false;
}

std::vector<const Loop*> BarrierIntervals::differing_iterations(const IntervalAccess& a, const IntervalAccess& b) const {
  const MemoryAccess& first = accesses_.all()[a.access];
  const MemoryAccess& second = accesses_.all()[b.access];
  std::vector<const Loop*> result;
  for (size_t i = 0; i < loops_.size(); ++i) {
    const Loop& loop = loops_[i];
    if (!loop.body[first.block] || !loop.body[second.block]) continue;
    bool crossed_a = std::find(a.crossed.begin(), a.crossed.end(), loop.header) != a.crossed.end();
    bool crossed_b = std::find(b.crossed.begin(), b.crossed.end(), loop.header) != b.crossed.end();
    if (!in_step_[i] || crossed_a != crossed_b) result.push_back(&loop);
  }
  return result;
}

// other_follows: 1 when `other` runs after `block`, -1 before, 0 when
// unknown (two sides of a branch), then judged by dominance.
IterationLimits BarrierIntervals::limits(uint32_t block, uint32_t other, int other_follows) const {
  const DominatorTree& dominators = module_.dominators(function_);
  IterationLimits result;
  for (size_t l = 0; l < loops_.size(); ++l) {
    const Loop& loop = loops_[l];
    if (!separated_[l] || !loop.body[block] || loop.body[other]) continue;
    bool after = other_follows != 0 ? other_follows > 0 : dominators.dominates(loop.header, other);
    (after ? result.last : result.first).push_back(loop.header);
  }
  return result;
}

const std::vector<ConcurrentPair>* BarrierIntervals::concurrent_pairs(spv::StorageClass storage) const {
  auto found = pairs_by_storage_.find(storage);
  if (found == pairs_by_storage_.end()) {
    auto in = [storage](const MemoryAccess& access) { return access.storage == storage; };
    size_t accesses = static_cast<size_t>(std::count_if(accesses_.all().begin(), accesses_.all().end(), in));
    size_t budget = std::max(kMinPairBudget, kPairsPerAccess * accesses);
    found = pairs_by_storage_.emplace(storage, concurrent_pairs(in, budget)).first;
    if (!found->second) {
      module_.note_budget(fmt::format(
          "more than {} pairs of its {} accesses to {} memory in {} may run at once, more than klint checks; "
          "shared-memory-race and redundant-barrier left that function out",
          budget, accesses, storage == spv::StorageClass::Workgroup ? "workgroup" : "other",
          module_.name(function_.id())));
    }
  }
  return found->second ? &*found->second : nullptr;
}

std::vector<ConcurrentPair> BarrierIntervals::concurrent_pairs(
    const std::function<bool(const MemoryAccess&)>& relevant) const {
  return *concurrent_pairs(relevant, SIZE_MAX);
}

std::optional<std::vector<ConcurrentPair>> BarrierIntervals::concurrent_pairs(
    const std::function<bool(const MemoryAccess&)>& relevant, size_t budget) const {
  const auto& all = accesses_.all();
  std::map<std::pair<size_t, size_t>, ConcurrentPair> pairs;
  std::map<std::pair<size_t, size_t>, std::vector<const Loop*>> crossing;
  auto add = [&](const IntervalAccess& a, const IntervalAccess& b, bool ordered) {
    if (!relevant(all[a.access]) || !relevant(all[b.access])) return;
    auto key = std::minmax(a.access, b.access);
    auto independent = differing_iterations(a, b);
    // Loops whose back edge one path crossed and the other did not differ
    // between the invocations whatever they do; the others only out of step.
    for (const Loop* loop : independent) {
      bool crossed_a = std::find(a.crossed.begin(), a.crossed.end(), loop->header) != a.crossed.end();
      bool crossed_b = std::find(b.crossed.begin(), b.crossed.end(), loop->header) != b.crossed.end();
      if (crossed_a != crossed_b) crossing[{key.first, key.second}].push_back(loop);
    }
    auto [it, inserted] = pairs.try_emplace({key.first, key.second}, ConcurrentPair{a.access, b.access, ordered, {}});
    if (!it->second.ordered && ordered) {
      it->second.a = a.access;
      it->second.b = b.access;
      it->second.ordered = true;
    }
    if (inserted || ordered) {
      ConcurrentPair& pair = it->second;
      // When b follows a, a leaves the loops b is not in (last iteration)
      // and b enters the loops a is not in (first iteration).
      pair.a_limits = limits(all[pair.a].block, all[pair.b].block, pair.ordered ? 1 : 0);
      pair.b_limits = limits(all[pair.b].block, all[pair.a].block, pair.ordered ? -1 : 0);
    }
    auto& loops = it->second.independent;
    for (const Loop* loop : independent) {
      if (std::find(loops.begin(), loops.end(), loop) == loops.end()) loops.push_back(loop);
    }
  };
  // One access and those that follow it with no barrier between.
  for (size_t i = 0; i < all.size(); ++i) {
    if (!relevant(all[i])) continue;
    IntervalAccess self{i, {}};
    add(self, self, false);
    BarrierInterval after = walk(all[i].block, all[i].position + 1, all[i].instruction);
    for (const IntervalAccess& next : after.accesses) add(self, next, true);
    if (pairs.size() > budget) return std::nullopt;
  }
  // Accesses on two sides of a branch that invocations take differently.
  const Uniformity& uniformity = module_.uniformity(function_);
  const Cfg& cfg = module_.cfg(function_);
  // A block in several intervals adds the same pairs each time: once is enough.
  std::vector<bool> done(function_.blocks.size(), false);
  for (const BarrierInterval& interval : intervals_) {
    for (uint32_t block : interval.blocks) {
      if (done[block]) continue;
      done[block] = true;
      const ir::Instruction& branch = function_.blocks[block].terminator();
      bool conditional = branch.opcode() == Op::OpBranchConditional || branch.opcode() == Op::OpSwitch;
      if (!conditional || !uniformity.value(branch.word(0))) continue;
      std::vector<BarrierInterval> sides;
      for (uint32_t next : cfg.successors(block)) sides.push_back(walk(next, 0, nullptr));
      for (size_t x = 0; x < sides.size(); ++x) {
        for (size_t y = x + 1; y < sides.size(); ++y) {
          for (const IntervalAccess& a : sides[x].accesses) {
            for (const IntervalAccess& b : sides[y].accesses) add(a, b, false);
            if (pairs.size() > budget) return std::nullopt;
          }
        }
      }
    }
  }
  std::vector<ConcurrentPair> result;
  for (auto& [key, pair] : pairs) {
    const std::vector<const Loop*>& crossed = crossing[key];
    for (const Loop* loop : pair.independent) {
      if (std::find(crossed.begin(), crossed.end(), loop) == crossed.end()) pair.out_of_step.push_back(loop);
    }
    result.push_back(std::move(pair));
  }
  return result;
}

}  // namespace klint
