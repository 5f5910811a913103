#include "runner/shadow.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

namespace klint::runner {

namespace {

constexpr uint32_t kNone = UINT32_MAX;
// What the rules assume of the hardware: subgroups of 32, 32 banks of 4
// bytes, cache lines of 128 bytes.
constexpr uint32_t kGroupWidth = 32;
constexpr uint32_t kBanks = 32;
constexpr uint32_t kLineBytes = 128;
constexpr size_t kMaxFindings = 64;

// The accesses to one element in its current epoch. Remembering two of each
// sort, by different invocations, is enough: any invocation but one of them
// conflicts with at least one.
struct Seen {
  std::array<uint32_t, 2> records{kNone, kNone};
  void add(uint32_t record, const std::vector<AccessRecord>& log) {
    if (records[0] == kNone) {
      records[0] = record;
    } else if (records[1] == kNone && log[records[0]].invocation != log[record].invocation) {
      records[1] = record;
    }
  }
  // A record by an invocation other than `invocation`, or kNone.
  uint32_t other(uint32_t invocation, const std::vector<AccessRecord>& log) const {
    for (uint32_t r : records) {
      if (r != kNone && log[r].invocation != invocation) return r;
    }
    return kNone;
  }
  bool by(uint32_t invocation, const std::vector<AccessRecord>& log) const {
    return std::any_of(records.begin(), records.end(),
                       [&](uint32_t r) { return r != kNone && log[r].invocation == invocation; });
  }
};

struct Cell {
  uint32_t epoch = 0;
  bool written_before = false;  // in an earlier epoch
  // A read of an element none had written, held until the epoch ends: a write
  // by another invocation later in the epoch makes it a race instead.
  uint32_t unwritten_read = kNone;
  uint32_t unwritten_element = 0;
  Seen reads, writes, atomics;
};

struct Key {
  uint32_t workgroup, target, element;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    return (size_t{k.workgroup} * 0x9E3779B97F4A7C15ull) ^ (size_t{k.target} << 40) ^ k.element;
  }
};

struct Writer {
  uint32_t record;
};

class Reader {
 public:
  Reader(const Instrumented& instrumented, const std::vector<AccessRecord>& log, ShadowReport& report)
      : in_(instrumented), log_(log), report_(report) {}

  void access(uint32_t r) {
    const AccessRecord& a = log_[r];
    const AccessSite& site = in_.sites[a.site];
    if (site.kind == AccessKind::Barrier) return arrive(r);
    if (site.kind == AccessKind::Branch) return branch(r);
    if (site.kind == AccessKind::GroupOperation) return group(r);
    if (in_.spreads) spread(r);
    if (site.kind == AccessKind::StorageWrite) return storage_write(r);
    if (site.kind == AccessKind::StorageRead) return storage_read(r);
    const WorkgroupTarget& target = in_.workgroup[site.target];
    if (a.out_of_range || uint64_t{a.element} + site.count > target.scalars) {
      return add({ShadowKind::OutOfRange, {}, a, a.element}, a.site, a.site);
    }
    for (uint32_t e = a.element; e < a.element + site.count; ++e) scalar(r, e);
  }

 private:
  void scalar(uint32_t r, uint32_t element) {
    const AccessRecord& a = log_[r];
    const AccessSite& site = in_.sites[a.site];
    Cell& cell = cells_[{a.workgroup, site.target, element}];
    if (a.epoch > cell.epoch) {
      flush(cell);
      cell.written_before |= cell.writes.records[0] != kNone || cell.atomics.records[0] != kNone;
      cell.epoch = a.epoch;
      cell.reads = cell.writes = cell.atomics = Seen{};
    }
    uint32_t conflict = cell.writes.other(a.invocation, log_);
    if (site.kind == AccessKind::Write && conflict == kNone) conflict = cell.reads.other(a.invocation, log_);
    if (site.kind != AccessKind::Atomic && conflict == kNone) conflict = cell.atomics.other(a.invocation, log_);
    if (site.kind == AccessKind::Atomic && conflict == kNone) conflict = cell.reads.other(a.invocation, log_);
    if (conflict != kNone) {
      add({ShadowKind::Race, log_[conflict], a, element}, log_[conflict].site, a.site);
      cell.unwritten_read = kNone;
    } else if (site.kind != AccessKind::Write && !cell.written_before && !cell.writes.by(a.invocation, log_) &&
               !cell.atomics.by(a.invocation, log_) && cell.unwritten_read == kNone) {
      cell.unwritten_read = r;
      cell.unwritten_element = element;
    }
    (site.kind == AccessKind::Read    ? cell.reads
     : site.kind == AccessKind::Write ? cell.writes
                                      : cell.atomics)
        .add(r, log_);
  }

  // Reports the read of an unwritten element the epoch ended with.
  void flush(Cell& cell) {
    if (cell.unwritten_read == kNone) return;
    const AccessRecord& a = log_[cell.unwritten_read];
    pending_.push_back({ShadowKind::UninitializedRead, {}, a, cell.unwritten_element});
    pending_records_.push_back(cell.unwritten_read);
    cell.unwritten_read = kNone;
  }

 public:
  // After the last record: the barriers some invocations skipped (unless the
  // log lost records: a cut log shows too few arrivals), then the reads still
  // held, in log order.
  void finish(bool truncated) {
    if (!truncated) {
      skipped_barriers();
      if (in_.spreads) spreads();
    }
    for (auto& [key, cell] : cells_) flush(cell);
    std::vector<size_t> order(pending_.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return pending_records_[a] < pending_records_[b]; });
    for (size_t k : order) add(pending_[k], pending_[k].second.site, pending_[k].second.site);
  }

 private:
  void storage_write(uint32_t r) {
    const AccessRecord& a = log_[r];
    const AccessSite& site = in_.sites[a.site];
    for (uint32_t word = a.element / 4; word <= (a.element + site.count - 1) / 4; ++word) {
      auto [it, fresh] = writers_.try_emplace({0, site.target, word}, Writer{r});
      if (fresh) continue;
      const AccessRecord& before = log_[it->second.record];
      const bool same_invocation = before.workgroup == a.workgroup && before.invocation == a.invocation;
      const bool ordered = before.workgroup == a.workgroup && before.epoch < a.epoch;
      if (!same_invocation && !ordered) {
        add({ShadowKind::OverlappingWrite, before, a, word * 4}, before.site, a.site);
      }
      it->second.record = r;
    }
  }

  void storage_read(uint32_t r) {
    const AccessRecord& a = log_[r];
    // Keyed by the site as well: the same load, run for one element by two workgroups.
    auto [it, fresh] = readers_.try_emplace({a.site, in_.sites[a.site].target, a.element}, Writer{r});
    if (fresh) return;
    const AccessRecord& before = log_[it->second.record];
    if (before.workgroup != a.workgroup) {
      add({ShadowKind::RepeatedLoopRead, before, a, a.element}, a.site, a.site);
    }
  }

  uint32_t invocations() const {
    return in_.workgroup_size[0] * in_.workgroup_size[1] * in_.workgroup_size[2];
  }

  void arrive(uint32_t r) {
    const AccessRecord& a = log_[r];
    if (a.invocation >= invocations()) return;
    std::vector<uint32_t>& count = arrivals_[{a.workgroup, a.site, 0}];
    if (count.empty()) {
      count.assign(invocations(), 0);
      arrival_order_.push_back({a.workgroup, a.site, 0});
      arrival_record_.push_back(r);
    }
    ++count[a.invocation];
  }

  // The record's lane (in the element word), the subgroup size (in the
  // epoch word) and the ballot of active lanes (value, out_of_range, extra):
  // a group some of whose lanes that exist are inactive.
  void group(uint32_t r) {
    const AccessRecord& a = log_[r];
    const uint32_t size = a.epoch, lane = a.element;
    const uint32_t width = in_.sites[a.site].count ? in_.sites[a.site].count : size;
    if (width == 0 || size == 0 || lane >= size || lane > a.invocation || size > 96) return;
    const uint32_t first_lane = lane / width * width;
    const uint32_t first = a.invocation - lane + first_lane;
    if (first >= invocations()) return;
    const uint32_t exist = std::min(width, invocations() - first);
    const uint32_t ballot[3] = {a.value, a.out_of_range, a.extra};
    std::vector<uint32_t> active;
    for (uint32_t l = first_lane; l < first_lane + exist && l < 96; ++l) {
      if (ballot[l / 32] & (1u << (l % 32))) active.push_back(first + (l - first_lane));
    }
    if (active.size() >= exist) return;
    ShadowFinding f{ShadowKind::PartialGroup, a, a, first, std::move(active)};
    f.first.value = exist;
    add(std::move(f), a.site, a.site);
  }

  // Groups the access with the same execution of it by the other
  // invocations of its group of 32: the k-th time each ran it.
  void spread(uint32_t r) {
    const AccessRecord& a = log_[r];
    uint32_t& k = executions_[{a.site, a.workgroup, a.invocation}];
    std::vector<uint32_t>& members = groups_[{a.site, a.workgroup, a.invocation / kGroupWidth, k++}];
    members.push_back(r);
  }

  // Per access, the group that spread worst, where worse than the best.
  void spreads() {
    std::vector<std::optional<Spread>> worst(in_.sites.size());
    for (const auto& [key, members] : groups_) {
      const AccessSite& site = in_.sites[std::get<0>(key)];
      const bool storage = site.kind == AccessKind::StorageRead || site.kind == AccessKind::StorageWrite;
      std::set<uint32_t> units;  // words, or bytes
      for (uint32_t r : members) {
        const AccessRecord& a = log_[r];
        for (uint32_t e = 0; e < site.count; ++e) {
          units.insert(storage ? a.element + e : (a.element + e) * site.scalar_bytes / 4);
        }
      }
      Spread s{std::get<0>(key), std::get<1>(key), UINT32_MAX, 0, 0, 0, 0, {}};
      for (uint32_t r : members) {
        s.first = std::min(s.first, log_[r].invocation);
        s.last = std::max(s.last, log_[r].invocation);
      }
      std::vector<uint32_t> chosen;
      if (storage) {
        std::set<uint32_t> lines;
        for (uint32_t byte : units) lines.insert(byte / kLineBytes);
        s.degree = static_cast<uint32_t>(lines.size());
        s.best = static_cast<uint32_t>((units.size() + kLineBytes - 1) / kLineBytes);
        chosen.assign(lines.begin(), lines.end());
      } else {
        std::map<uint32_t, std::vector<uint32_t>> banks;
        for (uint32_t word : units) banks[word % kBanks].push_back(word);
        for (const auto& [bank, words] : banks) {
          if (words.size() > s.degree) {
            s.degree = static_cast<uint32_t>(words.size());
            s.bank = bank;
            chosen = words;
          }
        }
        s.best = static_cast<uint32_t>((units.size() + kBanks - 1) / kBanks);
      }
      if (s.degree <= s.best) continue;
      if (chosen.size() > 8) chosen.resize(8);
      s.units = std::move(chosen);
      std::optional<Spread>& w = worst[s.site];
      if (!w || s.degree - s.best > w->degree - w->best) w = std::move(s);
    }
    for (std::optional<Spread>& w : worst) {
      if (w) report_.spreads.push_back(std::move(*w));
    }
  }

  void branch(uint32_t r) {
    const AccessRecord& a = log_[r];
    auto [it, fresh] = branched_.try_emplace({a.site, a.workgroup, a.invocation}, report_.branches.size());
    if (fresh) report_.branches.push_back({a.site, a.workgroup, a.invocation, 0, 0});
    ++(a.value ? report_.branches[it->second].held : report_.branches[it->second].failed);
  }

  // Per barrier and workgroup, in the order they were first reached: the
  // invocations that arrived fewer times than the most any did.
  void skipped_barriers() {
    for (size_t k = 0; k < arrival_order_.size(); ++k) {
      const std::vector<uint32_t>& count = arrivals_[arrival_order_[k]];
      const auto most = std::max_element(count.begin(), count.end());
      ShadowFinding f{ShadowKind::SkippedBarrier, log_[arrival_record_[k]], log_[arrival_record_[k]], 0, {}};
      f.first.invocation = static_cast<uint32_t>(most - count.begin());
      f.first.value = *most;
      for (uint32_t i = 0; i < count.size(); ++i) {
        if (count[i] < *most) f.fewer.push_back(i);
      }
      if (f.fewer.empty()) continue;
      f.second.invocation = f.fewer.front();
      f.second.value = count[f.fewer.front()];
      const uint32_t site = f.first.site;
      add(std::move(f), site, site);
    }
  }

  // One finding of a kind per pair of sites; overlapping writes once within a
  // workgroup and once across two, which are different findings' witnesses.
  void add(ShadowFinding finding, uint32_t site_a, uint32_t site_b) {
    if (report_.findings.size() >= kMaxFindings) return;
    const bool across = finding.kind == ShadowKind::OverlappingWrite && finding.first.workgroup != finding.second.workgroup;
    if (!reported_.insert({finding.kind, std::min(site_a, site_b), std::max(site_a, site_b), across}).second) return;
    report_.findings.push_back(finding);
  }

  const Instrumented& in_;
  const std::vector<AccessRecord>& log_;
  ShadowReport& report_;
  std::unordered_map<Key, Cell, KeyHash> cells_;
  std::unordered_map<Key, Writer, KeyHash> writers_;
  std::unordered_map<Key, Writer, KeyHash> readers_;  // workgroup field: the site
  std::set<std::tuple<ShadowKind, uint32_t, uint32_t, bool>> reported_;
  std::vector<ShadowFinding> pending_;
  std::vector<uint32_t> pending_records_;
  // Barrier arrivals per invocation, keyed by workgroup and site (element 0).
  std::unordered_map<Key, std::vector<uint32_t>, KeyHash> arrivals_;
  std::vector<Key> arrival_order_;
  std::vector<uint32_t> arrival_record_;  // the first arrival at each, for its site and workgroup
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, size_t> branched_;  // into report_.branches
  // Per access, workgroup and invocation, how often it ran; per access,
  // workgroup, group of 32 and execution, the records of it.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> executions_;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, std::vector<uint32_t>> groups_;
};

std::string where(const AccessSite& site) {
  return site.location.has_line() ? fmt::format("{}:{}", site.location.file, site.location.line) : site.location.file;
}

}  // namespace

ShadowReport read_log(const Instrumented& instrumented, std::span<const uint8_t> bytes) {
  ShadowReport report;
  auto word = [&](size_t k) {
    uint32_t w = 0;
    if ((k + 1) * 4 <= bytes.size()) std::memcpy(&w, bytes.data() + k * 4, 4);
    return w;
  };
  report.accesses = word(0);
  const size_t capacity = std::min<size_t>(instrumented.capacity, (bytes.size() / 4 - kLogHeaderWords) / kRecordWords);
  report.truncated = report.accesses > capacity;
  const size_t count = std::min<size_t>(report.accesses, capacity);
  std::vector<AccessRecord> log;
  log.reserve(count);
  for (size_t r = 0; r < count; ++r) {
    const size_t at = kLogHeaderWords + r * kRecordWords;
    AccessRecord record{word(at), word(at + 1), word(at + 2), word(at + 3), word(at + 4), word(at + 5), word(at + 6), word(at + 7)};
    if (record.site >= instrumented.sites.size())
      continue;  // never written: the kernel cannot name a site klint did not make
    log.push_back(record);
  }
  report.reached.assign(instrumented.sites.size(), false);
  for (const AccessRecord& record : log) report.reached[record.site] = true;
  Reader reader(instrumented, log, report);
  for (uint32_t r = 0; r < log.size(); ++r) reader.access(r);
  reader.finish(report.truncated);
  return report;
}

std::string value_text(ValueType type, uint32_t bits) {
  switch (type) {
    case ValueType::Float: {
      float f;
      std::memcpy(&f, &bits, 4);
      return fmt::format("{:g}", f);
    }
    case ValueType::Int:
      return std::to_string(static_cast<int32_t>(bits));
    case ValueType::Uint:
      return std::to_string(bits);
    case ValueType::Bool:
      return bits ? "true" : "false";
    case ValueType::None:
      break;
  }
  return "";
}

ShadowReport take_log(const Instrumented& instrumented, Execution& execution) {
  ShadowReport report = read_log(instrumented, execution.buffers.back().data);
  execution.buffers.pop_back();
  std::erase_if(execution.guard_violations, [&](const GuardViolation& g) {
    return g.set == instrumented.log_set && g.binding == 0;
  });
  return report;
}

std::string_view to_string(ShadowKind kind) {
  switch (kind) {
    case ShadowKind::Race:
      return "race";
    case ShadowKind::UninitializedRead:
      return "uninitialized read";
    case ShadowKind::OutOfRange:
      return "out of range";
    case ShadowKind::OverlappingWrite:
      return "overlapping write";
    case ShadowKind::RepeatedLoopRead:
      return "repeated loop read";
    case ShadowKind::SkippedBarrier:
      return "skipped barrier";
    case ShadowKind::PartialGroup:
      return "partial group";
  }
  return "";
}

bool is_problem(ShadowKind kind) { return kind != ShadowKind::RepeatedLoopRead && kind != ShadowKind::PartialGroup; }

std::string arrivals_text(const ShadowFinding& f) {
  auto times = [](uint32_t n) { return n == 1 ? std::string("once") : fmt::format("{} times", n); };
  return fmt::format("invocation {} arrives {}, invocation {} {}", f.first.invocation, times(f.first.value),
                     f.second.invocation, f.second.value ? "only " + times(f.second.value) : "never");
}

std::string invocation_ranges(const std::vector<uint32_t>& invocations) {
  std::vector<std::string> runs;
  for (size_t k = 0; k < invocations.size();) {
    size_t end = k;
    while (end + 1 < invocations.size() && invocations[end + 1] == invocations[end] + 1) ++end;
    runs.push_back(end == k ? std::to_string(invocations[k])
                            : fmt::format("{}..{}", invocations[k], invocations[end]));
    k = end + 1;
  }
  return fmt::format("{}", fmt::join(runs, ", "));
}

std::string describe(const Instrumented& in, const ShadowFinding& f) {
  const AccessSite& second = in.sites[f.second.site];
  auto element = [&](const AccessSite& site, uint32_t e) {
    if (site.kind == AccessKind::StorageWrite || site.kind == AccessKind::StorageRead) {
      return fmt::format("byte {} of '{}'", e, in.storage[site.target].name);
    }
    const WorkgroupTarget& t = in.workgroup[site.target];
    return t.scalar_array ? fmt::format("{}[{}]", t.name, e) : fmt::format("scalar {} of '{}'", e, t.name);
  };
  auto verb = [](const AccessSite& site) {
    switch (site.kind) {
      case AccessKind::Read:
      case AccessKind::StorageRead:
        return "reads";
      case AccessKind::Write:
      case AccessKind::StorageWrite:
        return "writes";
      case AccessKind::Atomic:
        return "updates atomically";
      case AccessKind::Barrier:
      case AccessKind::Branch:
      case AccessKind::GroupOperation:
        break;
    }
    return "";
  };
  auto value = [&](const AccessSite& site, uint32_t bits) {
    std::string v = value_text(site.value, bits);
    if (v.empty()) return std::string();
    return fmt::format(" ({} {})", site.kind == AccessKind::Read ? "saw" : "value", v);
  };
  auto who = [](const AccessRecord& r) { return fmt::format("invocation {}", r.invocation); };
  switch (f.kind) {
    case ShadowKind::Race: {
      const AccessSite& first = in.sites[f.first.site];
      return fmt::format("race on {} in workgroup {}: {} {} it at {}{} and {} {} it at {}{} with no barrier between",
                         element(second, f.element), f.second.workgroup, who(f.first), verb(first), where(first),
                         value(first, f.first.value), who(f.second), verb(second), where(second),
                         value(second, f.second.value));
    }
    case ShadowKind::UninitializedRead:
      return fmt::format("uninitialized read of {} in workgroup {}: {} reads it at {}{} before any invocation wrote it",
                         element(second, f.element), f.second.workgroup, who(f.second), where(second),
                         value(second, f.second.value));
    case ShadowKind::OutOfRange: {
      const WorkgroupTarget& t = in.workgroup[second.target];
      std::string index;
      for (size_t bit = 0; bit < second.lengths.size(); ++bit) {
        if (f.second.out_of_range & (1u << bit)) {
          index = fmt::format("an index at or past {}, the length of", second.lengths[bit]);
          break;
        }
      }
      if (index.empty()) index = fmt::format("scalar {} of the {} of", f.element, t.scalars);
      return fmt::format("index out of range in workgroup {}: {} {} {} '{}' at {}", f.second.workgroup, who(f.second),
                         verb(second), index, t.name, where(second));
    }
    case ShadowKind::RepeatedLoopRead:
      return fmt::format(
          "the loop at {} reads {} in invocation {} of workgroup {} and again in invocation {} of "
          "workgroup {}: the workgroups redo each other's elements",
          where(second), element(second, f.element), f.first.invocation, f.first.workgroup, f.second.invocation,
          f.second.workgroup);
    case ShadowKind::SkippedBarrier:
      return fmt::format("skipped barrier at {} in workgroup {}: {}{}", where(second), f.second.workgroup,
                         arrivals_text(f),
                         f.fewer.size() == 1
                             ? ""
                             : fmt::format(" (invocations {} arrive fewer times)", invocation_ranges(f.fewer)));
    case ShadowKind::PartialGroup: {
      const std::string group = second.count == 4 ? "quad" : second.count ? "cluster" : "subgroup";
      return fmt::format(
          "partial {} at {} in workgroup {}: only invocation{} {} of the {} of invocations {}..{} {} active",
          group, where(second), f.second.workgroup, f.fewer.size() == 1 ? "" : "s", invocation_ranges(f.fewer), group,
          f.element, f.element + f.first.value - 1, f.fewer.size() == 1 ? "is" : "are");
    }
    case ShadowKind::OverlappingWrite: {
      const AccessSite& first = in.sites[f.first.site];
      return fmt::format(
          "overlapping writes to {}: invocation {} of workgroup {} at {}{} and invocation {} of workgroup {} at {}{}",
          element(second, f.element), f.first.invocation, f.first.workgroup, where(first), value(first, f.first.value),
          f.second.invocation, f.second.workgroup, where(second), value(second, f.second.value));
    }
  }
  return "";
}

}  // namespace klint::runner
