#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <optional>
#include <string_view>
#include <set>
#include <string>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/collision.h"
#include "analyzer/source_names.h"
#include "analyzer/symbolic.h"
#include "rules/rule.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "shared-memory-bank-conflict",
    .category = Category::Performance,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::BankConflict,
    .summary = "invocations of a subgroup access different words of one shared-memory bank",
    .doc = R"md(
## What it finds
An access to a `shared` (`groupshared`, Workgroup) variable where four or
more invocations of one subgroup touch different 4-byte words of the same
bank: reading a column of a `[32][32]` tile, indexing with `tid * 32` or
`tid * 2 * stride` (the interleaved tree reduction), or any stride between
neighbours that is a multiple of a large power of two words. klint evaluates
the index of every invocation of the workgroup, and of every iteration of
loops with constant bounds (a loop that starts at the invocation's id and
steps by a uniform amount, at its first iteration: the others shift every
invocation alike), and reports the worst subgroup and iteration with the
number of invocations that serialise on one bank.

## Why it matters
Shared memory is split into 32 banks of 4-byte words; word `w` lives in bank
`w % 32`. A subgroup's access completes in one pass when its invocations
touch different banks, or the same word (a broadcast). Each further word in
one bank costs another pass: a column of a `[32][32]` float tile puts all 32
invocations in bank 0 and runs 32 times slower than a row. One column of
padding (`[32][33]`) moves each row one bank along and removes the conflict
at the cost of 3% more memory.

## Bad
```glsl
layout(local_size_x = 32, local_size_y = 32) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[32][32];
void main() {
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    tile[y][x] = data[gl_GlobalInvocationID.y * 1024 + gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.y * 1024 + gl_GlobalInvocationID.x] = tile[x][y];   // a column: bank 0 for all
}
```

## Fix
```glsl
layout(local_size_x = 32, local_size_y = 32) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[32][33];   // one word of padding per row
void main() {
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    tile[y][x] = data[gl_GlobalInvocationID.y * 1024 + gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.y * 1024 + gl_GlobalInvocationID.x] = tile[x][y];
}
```
For one-dimensional arrays, pad the index (`i + i / 32`) or let neighbours
take consecutive words (sequential addressing in reductions: `s[tid] +=
s[tid + stride]`).

## Exceptions
- Two- and three-way conflicts are silent: they are common, cheap, and often
  the price of a simpler layout.
- Accesses wider than 4 bytes (`vec2`, `vec4`) are judged as the hardware
  serves them, in passes of 128 bytes (16 or 8 invocations at a time); a
  `vec4` row read is conflict-free.
- The model is 32 banks of 4 bytes and subgroups of 32 invocations in
  local-index order, which most desktop GPUs use; some AMD GPUs run 64-wide
  subgroups in two halves and conflict alike.
- A tile whose width comes from a specialization constant or
  `gl_WorkGroupSize` is judged at the constant's default; a workgroup size
  the host sets with no default declared is tried at several sizes, and a
  conflict found at each is reported with a note naming them
  (docs/configuration.md).
- Indices klint cannot evaluate for a given invocation (loaded from memory,
  scaled by a push constant) and loops without constant bounds that the index
  depends on are not reported. Atomics on bins that the data chooses are not
  reported: their conflicts depend on the input.
)md",
};

constexpr int64_t kBanks = 32;
constexpr int64_t kBankWidth = 4;
constexpr int64_t kPassBytes = kBanks * kBankWidth;
constexpr uint32_t kReportedDegree = 4;
constexpr size_t kMaxCombinations = 256;

constexpr int kSubstitutionDepth = 4;

// The offset with each loop counter that starts at a per-invocation value and
// steps by a uniform one (`for (i = tid; i < n; i += 256)`) replaced by its
// start: later iterations add the same to every invocation, which leaves the
// banks' load as it is.
std::optional<Polynomial> at_first_iteration(const Polynomial& offset, const SymbolicValues& values, int depth = 0) {
  if (depth > kSubstitutionDepth) return std::nullopt;
  Polynomial total;
  for (const auto& [monomial, coefficient] : offset.terms()) {
    std::optional<Polynomial> term = Polynomial::constant(coefficient);
    for (Symbol symbol : monomial) {
      std::optional<Polynomial> factor = Polynomial::symbol(symbol);
      const Induction* induction = symbol.kind == Symbol::Kind::Induction ? values.induction(symbol.id) : nullptr;
      if (induction && induction->step == Induction::Step::Add && values.per_invocation(symbol)) {
        std::vector<Symbol> step_symbols = values.value(induction->step_value).symbols();  // a copy: iterate one
        bool uniform = std::none_of(step_symbols.begin(), step_symbols.end(),
                                    [&](Symbol s) { return values.per_invocation(s); });
        if (uniform) factor = at_first_iteration(values.value(induction->initial), values, depth + 1);
      }
      term = factor ? Polynomial::multiply(*term, *factor) : std::nullopt;
      if (!term) return std::nullopt;
    }
    std::optional<Polynomial> sum = Polynomial::add(total, *term);
    if (!sum) return std::nullopt;
    total = *sum;
  }
  return total;
}

// The worst bank conflict of an access: how many different words of one bank
// the invocations of a subgroup touch in one pass.
struct Conflict {
  uint32_t degree = 1;
  int64_t bank = 0;
  uint32_t subgroup = 0;
  std::optional<int64_t> neighbour_bytes;  // between the subgroup's first two invocations
  Assignment loop_values;  // where the worst happens, when iterations differ
};

// The conflict within one subgroup's offsets (nullopt where an invocation
// does not run the access). Wide accesses are served in passes of 128 bytes.
Conflict subgroup_conflict(const std::vector<std::optional<int64_t>>& offsets, size_t first, size_t count,
                           int64_t width) {
  Conflict worst;
  size_t per_pass = static_cast<size_t>(std::max<int64_t>(1, kPassBytes / std::max<int64_t>(width, kBankWidth)));
  for (size_t pass = first; pass < first + count; pass += per_pass) {
    std::map<int64_t, std::set<int64_t>> words_by_bank;
    for (size_t i = pass; i < std::min(first + count, pass + per_pass); ++i) {
      if (!offsets[i]) continue;
      int64_t begin = *offsets[i] / kBankWidth;
      int64_t end = (*offsets[i] + std::max<int64_t>(width, 1) - 1) / kBankWidth;
      for (int64_t word = begin; word <= end; ++word) words_by_bank[((word % kBanks) + kBanks) % kBanks].insert(word);
    }
    for (const auto& [bank, words] : words_by_bank) {
      if (words.size() > worst.degree) {
        worst.degree = static_cast<uint32_t>(words.size());
        worst.bank = bank;
      }
    }
  }
  if (count > 1 && offsets[first] && offsets[first + 1]) worst.neighbour_bytes = *offsets[first + 1] - *offsets[first];
  return worst;
}

std::string assignment_text(const Module& module, const Assignment& loop_values) {
  std::string text;
  for (const auto& [symbol, value] : loop_values) {
    text += fmt::format("{}{} = {}", text.empty() ? " when " : ", ", value_name(module, symbol.id), value);
  }
  return text;
}

// The row of a two-dimensional array, when a column of it falls on few banks.
struct Row {
  uint64_t rows = 0;
  uint64_t elements = 0;
  uint64_t bytes = 0;
  uint64_t banks = 0;  // the banks one column spreads over
};

std::optional<Row> crowded_row(const Module& module, uint32_t variable) {
  const ir::Instruction* def = module.def(variable);
  const ir::Instruction* pointer = def ? module.def(def->type_id()) : nullptr;
  const ir::Instruction* outer = pointer ? module.def(pointer->word(2)) : nullptr;
  if (!outer || outer->opcode() != spv::Op::OpTypeArray) return std::nullopt;
  const ir::Instruction* row = module.def(outer->word(1));
  if (!row || row->opcode() != spv::Op::OpTypeArray) return std::nullopt;
  auto bytes = module.type_size(row->result_id());
  auto elements = module.constant_value(row->word(2));
  auto rows = module.constant_value(outer->word(2));
  if (!rows || !bytes || !elements || *bytes == 0 || *bytes % kBankWidth != 0) return std::nullopt;
  uint64_t banks = static_cast<uint64_t>(kBanks) / std::gcd(*bytes / kBankWidth, static_cast<uint64_t>(kBanks));
  if (banks * kReportedDegree > static_cast<uint64_t>(kBanks)) return std::nullopt;
  return Row{*rows, *elements, *bytes, banks};
}

// The edit fix_title describes for a crowded row: the declaration's last
// dimension `[N]` becomes `[N + 1]` (`[33]` for `[32]`). nullopt where the
// source text the module carries does not declare the variable as
// `name[ROWS][N]` on one line.
std::optional<Replacement> padded_row(const Module& module, uint32_t variable, const Row& row) {
  const Location at = module.declaration(variable);
  const std::string name = module.variable_name(variable);
  std::optional<std::string> line = at.has_line() ? module.source_line_text(at) : std::nullopt;
  if (!line || name.empty() || name.starts_with('%')) return std::nullopt;
  const std::string_view text = *line;
  auto skip_blanks = [&](size_t i) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    return i;
  };
  auto is_identifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t found = text.find(name); found != std::string_view::npos; found = text.find(name, found + 1)) {
    if ((found > 0 && is_identifier(text[found - 1])) ||
        (found + name.size() < text.size() && is_identifier(text[found + name.size()]))) {
      continue;
    }
    size_t open_rows = skip_blanks(found + name.size());
    size_t close_rows = text.find(']', open_rows);
    if (open_rows >= text.size() || text[open_rows] != '[' || close_rows == std::string_view::npos) continue;
    size_t open = skip_blanks(close_rows + 1);
    size_t close = text.find(']', open);
    if (open >= text.size() || text[open] != '[' || close == std::string_view::npos) continue;
    size_t after = skip_blanks(close + 1);
    if (text.find('[', open + 1) < close || (after < text.size() && text[after] == '[')) return std::nullopt;
    std::string_view size = text.substr(open + 1, close - open - 1);
    size = size.substr(std::min(size.size(), size.find_first_not_of(" \t")));
    size = size.substr(0, size.find_last_not_of(" \t") + 1);
    if (size.empty()) return std::nullopt;
    std::string padded;
    if (std::all_of(size.begin(), size.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      // A literal that is not the size the module has is not this declaration's.
      if (size != std::to_string(row.elements)) return std::nullopt;
      padded = std::to_string(row.elements + 1);
    } else {
      const bool one_name = std::all_of(size.begin(), size.end(), is_identifier);
      padded = one_name ? std::string(size) + " + 1" : "(" + std::string(size) + ") + 1";
    }
    Location where{at.file, at.line, static_cast<uint32_t>(open + 2), static_cast<uint32_t>(close + 1), {}, {}};
    return Replacement{std::move(where), std::move(padded)};
  }
  return std::nullopt;
}

class SharedMemoryBankConflict final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function) continue;
      const ir::Function& function = *entry.function;
      const SymbolicValues& values = module.symbolic(function);
      const Accesses& accesses = module.accesses(function);
      const CollisionFinder& finder = module.collisions(function);
      std::map<std::pair<std::string, uint32_t>, std::pair<const MemoryAccess*, Conflict>> findings;
      for (const MemoryAccess& access : accesses.all()) {
        if (access.storage != spv::StorageClass::Workgroup || !access.offset || access.width == 0) continue;
        std::optional<Conflict> conflict = worst_conflict(values, accesses, finder, access);
        if (!conflict || conflict->degree < kReportedDegree) continue;
        Location location = module.nearest_location(*access.instruction);
        auto key = std::pair{location.file + ":" + module.variable_name(access.variable), location.line};
        auto [it, inserted] = findings.try_emplace(key, &access, *conflict);
        if (!inserted && conflict->degree > it->second.second.degree) it->second = {&access, *conflict};
      }
      for (const auto& [key, finding] : findings) report_conflict(module, report, *finding.first, finding.second);
    }
  }

 private:
  static std::optional<Conflict> worst_conflict(const SymbolicValues& values, const Accesses& accesses,
                                                const CollisionFinder& finder, const MemoryAccess& access) {
    // What differs between invocations; the rest moves them all alike and
    // leaves the banks' load as it is.
    std::optional<Polynomial> offset = at_first_iteration(*access.offset, values);
    if (!offset) return std::nullopt;
    Polynomial moving = offset->filtered([&](const Polynomial::Monomial& monomial) {
      return std::any_of(monomial.begin(), monomial.end(),
                         [&](Symbol symbol) { return values.per_invocation(symbol); });
    });
    if (moving.terms().empty()) return std::nullopt;
    moving = *Polynomial::add(moving, Polynomial::constant(offset->constant_term()));

    // Loop counters the moving part or the access's conditions depend on.
    std::set<Symbol> counters;
    auto collect = [&](const Polynomial& polynomial, bool required) {
      for (Symbol symbol : polynomial.symbols()) {
        if (symbol.kind != Symbol::Kind::Induction) continue;
        if (finder.iteration_values(symbol.id)) {
          counters.insert(symbol);
        } else if (required && !values.per_invocation(symbol)) {
          return false;
        }
      }
      return true;
    };
    if (!collect(moving, true)) return std::nullopt;
    for (const Constraint& guard : accesses.guards(access.block)) collect(guard.expression, false);
    std::vector<Assignment> combinations{{}};
    for (Symbol counter : counters) {
      std::vector<Assignment> next;
      for (const Assignment& partial : combinations) {
        for (int64_t value : *finder.iteration_values(counter.id)) {
          Assignment assignment = partial;
          assignment[counter] = value;
          next.push_back(std::move(assignment));
        }
      }
      if (next.size() > kMaxCombinations) return std::nullopt;
      combinations = std::move(next);
    }

    MemoryAccess lanes = access;
    lanes.offset = moving;
    std::optional<Conflict> worst;
    uint32_t mildest = UINT32_MAX;  // the best iteration's worst subgroup
    for (const Assignment& loop_values : combinations) {
      std::vector<std::optional<int64_t>> offsets = finder.offsets(lanes, loop_values);
      uint32_t iteration_worst = 1;
      for (size_t first = 0; first < offsets.size(); first += CollisionFinder::kSubgroupSize) {
        size_t count = std::min<size_t>(CollisionFinder::kSubgroupSize, offsets.size() - first);
        Conflict conflict = subgroup_conflict(offsets, first, count, static_cast<int64_t>(access.width));
        iteration_worst = std::max(iteration_worst, conflict.degree);
        if (worst && conflict.degree <= worst->degree) continue;
        conflict.subgroup = static_cast<uint32_t>(first / CollisionFinder::kSubgroupSize);
        conflict.loop_values = loop_values;
        worst = conflict;
      }
      mildest = std::min(mildest, iteration_worst);
    }
    if (worst && mildest == worst->degree) worst->loop_values.clear();
    return worst;
  }

  static void report_conflict(const Module& module, Reporter& report, const MemoryAccess& access,
                              const Conflict& conflict) {
    std::string name = module.variable_name(access.variable);
    const char* verb = access.kind == MemoryAccess::Kind::Read    ? "read"
                       : access.kind == MemoryAccess::Kind::Write ? "write"
                                                                  : "update";
    std::string apart;
    if (conflict.neighbour_bytes && *conflict.neighbour_bytes != 0) {
      int64_t bytes = *conflict.neighbour_bytes < 0 ? -*conflict.neighbour_bytes : *conflict.neighbour_bytes;
      apart = fmt::format(", {} bytes apart", bytes);
    }
    auto diagnostic = report.at(
        *access.instruction,
        fmt::format("{}-way bank conflict on '{}': {} invocations of a subgroup {} different words of bank {}{}{}",
                    conflict.degree, name, conflict.degree, verb, conflict.bank, apart,
                    assignment_text(module, conflict.loop_values)));
    std::optional<Row> row = crowded_row(module, access.variable);
    bool column = row && conflict.neighbour_bytes && *conflict.neighbour_bytes != 0 &&
                  *conflict.neighbour_bytes % static_cast<int64_t>(row->bytes) == 0;
    if (column) {
      diagnostic.note(module.declaration(access.variable),
                      fmt::format("each row of '{}' is {} elements ({} bytes), so a column falls on {} bank{}", name,
                                  row->elements, row->bytes, row->banks, row->banks == 1 ? "" : "s"));
      diagnostic.fix_title(fmt::format("pad each row by one element ([{}][{}]) so that a column spreads over the banks",
                                       row->rows, row->elements + 1));
      if (std::optional<Replacement> padded = padded_row(module, access.variable, *row)) {
        diagnostic.fix(std::move(padded->location), std::move(padded->text));
      }
      return;
    }
    diagnostic.fix_title(
        "let adjacent invocations take consecutive words, or pad the index (e.g. i + i / 32) so that strided "
        "accesses spread over the banks");
  }
};

KLINT_REGISTER_RULE(SharedMemoryBankConflict);

}  // namespace
}  // namespace klint
