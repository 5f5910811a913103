#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/collision.h"
#include "analyzer/workgroup_memory.h"
#include "rules/rule.h"
#include "rules/support/shared_access_text.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "uninitialized-shared-read",
    .category = Category::Correctness,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::UninitializedRead,
    .summary = "read of workgroup-memory elements that no invocation wrote",
    .doc = R"md(
## What it finds
A read of a `shared` (`groupshared`, Workgroup) element that no invocation of
the workgroup writes before it. Workgroup memory starts out undefined, so the
read returns garbage. The usual cause is a reduction or a stencil that reads
more elements than the invocations filled:
- the seeds' "threads with `tid >= D` must contribute zero, not garbage":
  `if (tid < n) s[tid] = x[tid];` followed by a tree reduction over the whole
  workgroup, so that when `n` is smaller than the workgroup the upper slots
  are never written;
- a halo that only some invocations load;
- an array sized for more invocations than the workgroup has.

klint evaluates each write and read for every invocation and every iteration
of loops with constant bounds. A bound from a push constant or a buffer that
guards the writes (`tid < n`) is tried at a few values around the workgroup
size; the finding names the value at which the read goes uncovered. A value
compared for equality with the invocation (`tid == first`), which chooses
the one invocation that writes, is tried only at invocations of the
workgroup.

## Why it matters
The garbage is whatever the previous workgroup on that compute unit left
behind: a sum that is right on one GPU, or when the row length is a multiple
of the workgroup size, and wrong everywhere else.

## Bad
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform P { uint n; };
shared float s[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid < n) s[tid] = x[tid];
    barrier();
    for (uint stride = 32; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];   // s[n..63] were never written
        barrier();
    }
    if (tid == 0) x[0] = s[0];
}
```

## Fix
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform P { uint n; };
shared float s[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    s[tid] = tid < n ? x[tid] : 0.0;                    // idle invocations contribute zero
    barrier();
    for (uint stride = 32; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        barrier();
    }
    if (tid == 0) x[0] = s[0];
}
```

## Exceptions
- Writes and reads whose index klint cannot evaluate (an index from a buffer,
  a loop bound from a push constant that the index depends on) count as
  covering everything: the rule stays silent rather than guess.
- Conditions on the writes that klint cannot evaluate and that do not compare
  an invocation id with a uniform bound (`if (x[tid] > 0)`) are taken to hold;
  reads under such conditions are not checked.
- Only "since the workgroup started" is checked: an element written, then
  reused for something else after a barrier, counts as written.
)md",
};

using Values = Assignment;
using Bytes = std::vector<uint64_t>;  // one bit per byte of a variable

// A uniform value that bounds which invocations write (`tid < n`): the rule
// tries it at a few values around the workgroup size. `equality`: every such
// guard compares it for equality (`tid == first`), so that it chooses the one
// invocation that writes.
struct WriteBound {
  Symbol symbol;
  bool equality = true;
};

std::vector<WriteBound> write_bounds(const Module& module, const ir::Function& function,
                                     const std::vector<const MemoryAccess*>& writes) {
  const SymbolicValues& values = module.symbolic(function);
  const Accesses& accesses = module.accesses(function);
  std::map<Symbol, bool> bounds;  // symbol -> equality
  // Values computed from the subgroup size evaluate like the invocation ids do.
  Assignment known{{Symbol{Symbol::Kind::SubgroupSize}, CollisionFinder::kSubgroupSize},
                   {Symbol{Symbol::Kind::NumSubgroups}, 1}};
  for (const MemoryAccess* write : writes) {
    for (const Constraint& guard : accesses.guards(write->block)) {
      std::vector<Symbol> symbols = guard.expression.symbols();
      bool per_invocation = std::any_of(symbols.begin(), symbols.end(),
                                        [&](Symbol s) { return values.per_invocation(s); });
      if (!per_invocation || guard.same_in_subgroup) continue;
      for (Symbol symbol : symbols) {
        if (symbol.kind == Symbol::Kind::Value && !values.per_invocation(symbol) &&
            !values.evaluate(Polynomial::symbol(symbol), known)) {
          auto [it, inserted] = bounds.try_emplace(symbol, true);
          it->second = it->second && guard.equality;
        }
      }
    }
  }
  std::vector<WriteBound> result;
  for (const auto& [symbol, equality] : bounds) result.push_back({symbol, equality});
  return result;
}

std::vector<Values> bound_values(const std::vector<WriteBound>& bounds, int64_t invocations) {
  std::vector<Values> combinations{{}};
  std::vector<int64_t> tries{1, invocations / 2, invocations - 1, invocations, 4 * invocations};
  // Largest first: the finding names the largest bound that leaves a gap.
  std::sort(tries.begin(), tries.end(), std::greater<>());
  tries.erase(std::unique(tries.begin(), tries.end()), tries.end());
  for (const WriteBound& bound : bounds) {
    std::vector<Values> next;
    for (const Values& partial : combinations) {
      for (int64_t value : tries) {
        // An invocation chosen by its index is one of the workgroup's: past
        // the last one, no invocation would be chosen at all.
        if (bound.equality ? value < 0 || value >= invocations : value < 1) continue;
        Values extended = partial;
        extended[bound.symbol] = value;
        next.push_back(std::move(extended));
      }
    }
    combinations = std::move(next);
  }
  return combinations;
}

// What the writes that may run before a block cover: the bytes (null when
// none) and the first such write (an index into the rule's write list).
struct Written {
  std::shared_ptr<const Bytes> bytes;
  size_t first = SIZE_MAX;
  friend bool operator==(const Written& a, const Written& b) {
    return a.first == b.first && (a.bytes == b.bytes || (a.bytes && b.bytes && *a.bytes == *b.bytes));
  }
};

Written merge(const Written& a, const Written& b) {
  Written result{a.bytes, std::min(a.first, b.first)};
  if (!a.bytes || a.bytes == b.bytes) {
    result.bytes = b.bytes ? b.bytes : a.bytes;
  } else if (b.bytes && *a.bytes != *b.bytes) {
    auto both = std::make_shared<Bytes>(*a.bytes);
    for (size_t word = 0; word < both->size(); ++word) (*both)[word] |= (*b.bytes)[word];
    result.bytes = std::move(both);
  }
  return result;
}

// For each block, what the writes in the blocks that reach it (over at least
// one edge: a block in a loop reaches itself) cover: a forward dataflow over
// the CFG to its fixpoint, in linear time where a table of which block reaches
// which took time and memory quadratic in the blocks. `written[b]` is what
// the writes of block b cover.
std::vector<Written> written_before(const Cfg& cfg, const std::vector<Written>& written) {
  std::vector<Written> in(cfg.size()), out = written;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t block : cfg.reverse_post_order()) {
      Written joined;
      for (uint32_t before : cfg.predecessors(block)) joined = merge(joined, out[before]);
      if (joined == in[block]) continue;
      in[block] = std::move(joined);
      out[block] = merge(in[block], written[block]);
      changed = true;
    }
  }
  return in;
}

struct Uncovered {
  CollidingInvocation reader;
  Values bounds;
};

class UninitializedSharedRead final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function) continue;
      const ir::Function& function = *entry.function;
      const Accesses& accesses = module.accesses(function);
      const CollisionFinder& finder = module.collisions(function);
      std::set<uint32_t> memories;
      for (const MemoryAccess& access : accesses.all()) {
        if (access.storage == spv::StorageClass::Workgroup) memories.insert(workgroup_memory_of(module, access.variable));
      }
      for (uint32_t memory : memories) check_memory(module, function, entry, finder, memory, report);
    }
  }

 private:
  // The bytes of one memory (workgroup_memory_of): one variable, or every
  // explicit-layout block, which alias.
  static void check_memory(const Module& module, const ir::Function& function, const EntryPoint& entry,
                           const CollisionFinder& finder, uint32_t memory, Reporter& report) {
    const Accesses& accesses = module.accesses(function);
    const Cfg& cfg = module.cfg(function);
    std::vector<const MemoryAccess*> writes, reads;
    std::optional<uint64_t> size = 0;
    for (const MemoryAccess& access : accesses.all()) {
      if (access.storage != spv::StorageClass::Workgroup || workgroup_memory_of(module, access.variable) != memory) {
        continue;
      }
      (access.kind == MemoryAccess::Kind::Read ? reads : writes).push_back(&access);
      const ir::Instruction* def = module.def(access.variable);
      const ir::Instruction* pointer = def ? module.def(def->type_id()) : nullptr;
      std::optional<uint64_t> bytes = pointer ? module.type_size(pointer->word(2)) : std::nullopt;
      size = size && bytes ? std::optional<uint64_t>(std::max(*size, *bytes)) : std::nullopt;
    }
    if (!size || *size == 0 || *size > (1u << 20)) return;
    // A write klint cannot evaluate may cover anything.
    for (const MemoryAccess* write : writes) {
      if (!write->offset || !write->width || !finder.iterations(*write)) return;
    }
    std::vector<WriteBound> bounds = write_bounds(module, function, writes);
    if (bounds.size() > 2) return;
    std::vector<Values> tries = bound_values(bounds, static_cast<int64_t>(module.symbolic(function).invocations()));
    std::vector<std::vector<size_t>> writes_in(cfg.size());  // by block, in write order
    for (size_t w = 0; w < writes.size(); ++w) writes_in[writes[w]->block].push_back(w);
    // Per bound: the bytes each write covers, and what the writes before each block cover.
    std::vector<std::vector<std::shared_ptr<const Bytes>>> coverage(tries.size());
    std::vector<std::vector<Written>> before_block(tries.size());
    auto prepare = [&](size_t t) {
      if (!coverage[t].empty() || writes.empty()) return;
      for (const MemoryAccess* write : writes) {
        coverage[t].push_back(std::make_shared<const Bytes>(cover(finder, *write, tries[t], *size)));
      }
      std::vector<Written> written(cfg.size());
      for (size_t w = 0; w < writes.size(); ++w) {
        written[writes[w]->block] = merge(written[writes[w]->block], Written{coverage[t][w], w});
      }
      before_block[t] = written_before(cfg, written);
    };
    std::set<std::pair<std::string, uint32_t>> lines;  // one finding per source line
    for (const MemoryAccess* read : reads) {
      if (!read->offset || !read->width) continue;
      Location location = module.nearest_location(*read->instruction);
      if (lines.count({location.file, location.line})) continue;
      std::optional<std::vector<Values>> iterations = finder.iterations(*read);
      if (!iterations) continue;
      for (size_t t = 0; t < tries.size(); ++t) {
        const Values& bound = tries[t];
        prepare(t);
        // The writes before the read: those of blocks that reach its block,
        // and those earlier in its own block.
        Written before = writes.empty() ? Written{} : before_block[t][read->block];
        for (size_t w : writes_in[read->block]) {
          if (writes[w]->position < read->position) before = merge(before, Written{coverage[t][w], w});
        }
        Bytes covered = before.bytes ? *before.bytes : Bytes((*size + 63) / 64, 0);
        if (auto uncovered = first_uncovered(finder, *read, *iterations, bound, covered, *size)) {
          report_read(module, entry, report, *read, before.first == SIZE_MAX ? nullptr : writes[before.first],
                      *uncovered, bound);
          lines.insert({location.file, location.line});
          break;
        }
      }
    }
  }

  static Bytes cover(const CollisionFinder& finder, const MemoryAccess& write, const Values& bound, uint64_t size) {
    Bytes covered((size + 63) / 64, 0);
    std::optional<std::vector<Values>> iterations = finder.iterations(write);
    for (Values values : *iterations) {
      values.insert(bound.begin(), bound.end());
      for (const std::optional<int64_t>& offset : finder.offsets(write, values, true)) {
        if (!offset) continue;
        for (int64_t byte = std::max<int64_t>(*offset, 0);
             byte < *offset + static_cast<int64_t>(write.width) && byte < static_cast<int64_t>(size); ++byte) {
          covered[static_cast<size_t>(byte) / 64] |= uint64_t{1} << (byte % 64);
        }
      }
    }
    return covered;
  }

  static std::optional<Uncovered> first_uncovered(const CollisionFinder& finder, const MemoryAccess& read,
                                                  const std::vector<Values>& iterations, const Values& bound,
                                                  const Bytes& covered, uint64_t size) {
    for (Values values : iterations) {
      values.insert(bound.begin(), bound.end());
      std::vector<std::optional<int64_t>> offsets = finder.offsets(read, values, false);
      for (uint32_t invocation = 0; invocation < offsets.size(); ++invocation) {
        const auto& offset = offsets[invocation];
        // Out-of-bounds reads are another matter; only bytes of the variable count.
        if (!offset || *offset < 0 || *offset + static_cast<int64_t>(read.width) > static_cast<int64_t>(size)) {
          continue;
        }
        for (int64_t byte = *offset; byte < *offset + static_cast<int64_t>(read.width); ++byte) {
          if ((covered[static_cast<size_t>(byte) / 64] >> (byte % 64)) & 1) continue;
          Uncovered result;
          result.reader.local_index = invocation;
          result.reader.offset = *offset;
          result.reader.loop_values.assign(values.begin(), values.end());
          result.bounds = bound;
          return result;
        }
      }
    }
    return std::nullopt;
  }

  // `first_write`: the first write (in the function's order) that may run
  // before the read; nullptr when none does.
  static void report_read(const Module& module, const EntryPoint& entry, Reporter& report, const MemoryAccess& read,
                          const MemoryAccess* first_write, Uncovered uncovered, const Values& bound) {
    const auto& size = module.symbolic(*entry.function).workgroup_size();
    uint32_t index = uncovered.reader.local_index;
    uncovered.reader.local_id = {static_cast<uint32_t>(index % size[0]), static_cast<uint32_t>(index / size[0] % size[1]),
                                 static_cast<uint32_t>(index / (size[0] * size[1]))};
    std::string element = element_text(module, read.variable, uncovered.reader.offset);
    std::string when;
    for (const auto& [symbol, value] : bound) {
      when += fmt::format("{}{} = {}", when.empty() ? " when " : " and ", module.symbolic(*entry.function).describe(symbol),
                          value);
    }
    std::string message = !first_write
        ? fmt::format("invocation {} reads {}, but no invocation writes '{}' before this read",
                      invocation_text(uncovered.reader, entry), element, module.variable_name(read.variable))
        : fmt::format("invocation {} reads {}, which no invocation writes before it{}",
                      invocation_text(uncovered.reader, entry), element, when);
    auto builder = report.at(*read.instruction, message);
    if (first_write) {
      builder.note(*first_write->instruction,
                   fmt::format("'{}' is written here, but not at {}{}", module.variable_name(first_write->variable), element,
                               when));
    }
    builder.fix_title("write every element that is read (idle invocations store the identity, e.g. 0), or bound the read");
  }
};

KLINT_REGISTER_RULE(UninitializedSharedRead);

}  // namespace
}  // namespace klint
