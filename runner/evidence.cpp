// What a run must show to confirm a finding, and whether a run showed it:
// the evidence each rule declares, read from a run's observations.
#include "runner/evidence.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "analyzer/loops.h"
#include "rules/rule.h"

namespace klint::runner {

namespace {

// A skipped barrier's witness: who arrived how often, and how often the
// finding's own branches went each way for an invocation that arrived most
// and one that arrived fewer times, where the run logged them.
std::pair<std::string, std::vector<Note>> skipped_barrier_witness(const ShadowFinding& f, const Instrumented& in,
                                                                   const ShadowReport& shadow, const Covered& lines) {
  const AccessSite& barrier = in.sites[f.first.site];
  std::string summary = describe(in, f);
  std::vector<Note> notes{
      Note{barrier.location, fmt::format("in workgroup {}: {}", f.first.workgroup, arrivals_text(f))}};
  auto taken = [&](uint32_t site, uint32_t invocation) {
    auto it = std::find_if(shadow.branches.begin(), shadow.branches.end(), [&](const BranchTaken& b) {
      return b.site == site && b.workgroup == f.first.workgroup && b.invocation == invocation;
    });
    return it == shadow.branches.end() ? BranchTaken{} : *it;
  };
  for (const BranchTaken& b : shadow.branches) {
    if (b.workgroup != f.first.workgroup || b.invocation != f.second.invocation || !on(lines, in.sites[b.site])) {
      continue;
    }
    const BranchTaken most = taken(b.site, f.first.invocation);
    if (most.held == b.held && most.failed == b.failed) continue;
    const AccessSite& branch = in.sites[b.site];
    // "held for invocation 0 and not for invocation 16" where each ran it
    // once, else how many times of how many.
    const bool once = most.held + most.failed == 1 && b.held + b.failed == 1;
    const std::string text =
        once ? fmt::format("the condition held for invocation {} and not for invocation {}",
                           most.held ? f.first.invocation : f.second.invocation,
                           most.held ? f.second.invocation : f.first.invocation)
             : fmt::format("the condition held {} of {} times for invocation {} and {} of {} for invocation {}",
                           most.held, most.held + most.failed, f.first.invocation, b.held, b.held + b.failed,
                           f.second.invocation);
    summary += fmt::format("; at {}:{} {}", branch.location.file, branch.location.line, text);
    notes.push_back(Note{branch.location, text + fmt::format(" (workgroup {})", f.first.workgroup)});
    break;
  }
  return {summary, notes};
}

std::vector<Note> witness_notes(const ShadowFinding& f, const Instrumented& in) {
  auto note = [&](const AccessRecord& r, std::string_view what) {
    return Note{in.sites[r.site].location,
                fmt::format("{} by invocation {} of workgroup {}", what, r.invocation, r.workgroup)};
  };
  auto kind = [&](const AccessRecord& r) {
    switch (in.sites[r.site].kind) {
      case AccessKind::Read:
      case AccessKind::StorageRead:
        return "read";
      case AccessKind::Atomic:
        return "atomic";
      default:
        return "write";
    }
  };
  std::vector<Note> notes;
  if (f.kind != ShadowKind::UninitializedRead && f.kind != ShadowKind::OutOfRange) {
    notes.push_back(note(f.first, kind(f.first)));
  }
  notes.push_back(note(f.second, kind(f.second)));
  return notes;
}

// "invocations 0..31 of workgroup 0 read 'tile' at k.comp:20: 32 different
// words in bank 0 (words 0, 32, 64, ...), where 1 would do"
std::string spread_text(const Instrumented& in, const Spread& s) {
  const AccessSite& site = in.sites[s.site];
  const char* verb = site.kind == AccessKind::Read || site.kind == AccessKind::StorageRead ? "read"
                     : site.kind == AccessKind::Atomic                                    ? "update"
                                                                                          : "write";
  const bool storage = site.kind == AccessKind::StorageRead || site.kind == AccessKind::StorageWrite;
  const std::string name = storage ? in.storage[site.target].name : in.workgroup[site.target].name;
  const std::string where = fmt::format("{}:{}", site.location.file, site.location.line);
  std::vector<std::string> units;
  for (uint32_t u : s.units) units.push_back(std::to_string(storage ? u * 128 : u));
  const std::string more = s.units.size() < s.degree ? ", ..." : "";
  if (storage) {
    return fmt::format("invocations {}..{} of workgroup {} {} '{}' at {} across {} cache lines of 128 bytes (at bytes "
                       "{}{}), where {} would do",
                       s.first, s.last, s.workgroup, verb, name, where, s.degree, fmt::join(units, ", "), more, s.best);
  }
  return fmt::format("invocations {}..{} of workgroup {} {} '{}' at {}: {} different words in bank {} (words {}{}), "
                     "where {} would do",
                     s.first, s.last, s.workgroup, verb, name, where, s.degree, s.bank, fmt::join(units, ", "), more,
                     s.best);
}

}  // namespace

RunEvidence evidence_of(const Diagnostic& d) {
  return d.rule ? RuleRegistry::describe(*d.rule).run_evidence : RunEvidence::None;
}

Covered covered(const Diagnostic& d, const Module& module, const std::vector<const ir::Instruction*>& by_ordinal) {
  Covered out;
  auto add_line = [&](const Location& l) {
    if (l.has_line()) out.lines.insert({l.file, l.line});
  };
  add_line(d.location);
  for (const Note& note : d.notes) add_line(note.location);
  for (size_t ordinal : d.instructions) {
    if (ordinal == 0 || ordinal > by_ordinal.size()) continue;
    out.instructions.insert(ordinal);
    add_line(module.nearest_location(*by_ordinal[ordinal - 1]));
  }
  for (const ir::Function& function : module.functions()) {
    for (const Loop& loop : module.loops(function)) {
      const Location at = module.nearest_location(*loop.merge);
      const bool on_loop = out.instructions.count(module.ordinal(*loop.merge)) ||
                           (at.has_line() && at.file == d.location.file && at.line == d.location.line);
      if (!on_loop) continue;
      for (size_t b = 0; b < loop.body.size() && b < function.blocks.size(); ++b) {
        if (!loop.body[b]) continue;
        for (const ir::Instruction& i : function.blocks[b].instructions) {
          out.instructions.insert(module.ordinal(i));
          add_line(module.location(i));
        }
      }
    }
  }
  return out;
}

std::string_view not_shown(RunEvidence evidence) {
  switch (evidence) {
    case RunEvidence::None:
      break;
    case RunEvidence::Race:
      return "no race";
    case RunEvidence::UninitializedRead:
      return "no read of an unwritten element";
    case RunEvidence::GridStrideRepeat:
      return "no element that two workgroups stored, or loaded in the loop";
    case RunEvidence::SubgroupSizeDependence:
      return "no difference between subgroup sizes and nothing on its lines";
    case RunEvidence::BarrierArrival:
      return "every invocation arrived at the barrier as often as the others";
    case RunEvidence::PartialGroup:
      return "every lane of its group was active each time it ran";
    case RunEvidence::BankConflict:
      return "no group of 32 invocations put more words in one bank than it needed";
    case RunEvidence::Coalescing:
      return "no group of 32 invocations touched more cache lines than it needed";
    case RunEvidence::WorkgroupOverlap:
      return "no two invocations of a workgroup stored to one word";
    case RunEvidence::OutOfRange:
      return "no index at or past the end of its array";
    case RunEvidence::DeviceLimit:
      return "no device at hand with a limit it exceeds";
    case RunEvidence::PipelineStatistics:
      return "no scratch memory in the compiler's statistics";
    case RunEvidence::Occupancy:
      return "enough workgroups resident at the workgroup memory the compiler allocates";
    case RunEvidence::WidenedAccumulator:
      return "the kernel wrote what a copy that sums in 32 bits wrote";
  }
  return "nothing";
}

bool on(const Covered& covered, const AccessSite& site) {
  return (site.instruction != 0 && covered.instructions.count(site.instruction) != 0) ||
         (site.location.has_line() && covered.lines.count({site.location.file, site.location.line}) != 0);
}

bool matches(RunEvidence evidence, const ShadowFinding& f, const Instrumented& in,
             const Covered& lines) {
  const bool pair = f.kind != ShadowKind::UninitializedRead && f.kind != ShadowKind::OutOfRange;
  const bool here = on(lines, in.sites[f.second.site]) || (pair && on(lines, in.sites[f.first.site]));
  switch (evidence) {
    case RunEvidence::None:
      return false;
    case RunEvidence::Race:
      return f.kind == ShadowKind::Race && here;
    case RunEvidence::UninitializedRead:
      return f.kind == ShadowKind::UninitializedRead && here;
    // Both stores in the loop: the loop itself redoes elements, not the
    // loop and some other store together.
    case RunEvidence::GridStrideRepeat:
      return (f.kind == ShadowKind::OverlappingWrite || f.kind == ShadowKind::RepeatedLoopRead) &&
             on(lines, in.sites[f.first.site]) && on(lines, in.sites[f.second.site]);
    case RunEvidence::SubgroupSizeDependence:
      return is_problem(f.kind) && here;
    case RunEvidence::BarrierArrival:
      return f.kind == ShadowKind::SkippedBarrier && here;
    case RunEvidence::PartialGroup:
      return f.kind == ShadowKind::PartialGroup && here;
    case RunEvidence::OutOfRange:
      return f.kind == ShadowKind::OutOfRange && here;
    // Two workgroups storing to one word is a different finding (the grid
    // overlapping itself); this one is about the invocations of one.
    case RunEvidence::WorkgroupOverlap:
      return f.kind == ShadowKind::OverlappingWrite && f.first.workgroup == f.second.workgroup && here;
    case RunEvidence::BankConflict:
    case RunEvidence::Coalescing:
    case RunEvidence::DeviceLimit:
    case RunEvidence::PipelineStatistics:
    case RunEvidence::Occupancy:
    case RunEvidence::WidenedAccumulator:
      return false;  // spreads, not shadow findings; limits and statistics, no run; outputs of two modules
  }
  return false;
}

std::string size_text(uint32_t subgroup_size) {
  return subgroup_size ? fmt::format("subgroup size {}", subgroup_size) : "the device's subgroup size";
}

std::optional<Found> find_witness(RunEvidence evidence, const Covered& lines, const Harness& harness,
                                  const Observations& o, const std::vector<Words>& words) {
  const Instrumented& in = o.instrumented;
  for (const Observation& run : o.runs) {
    for (const ShadowFinding& f : run.shadow.findings) {
      if (!matches(evidence, f, in, lines)) continue;
      if (f.kind == ShadowKind::PartialGroup) {
        const std::string what = describe(in, f);
        return Found{run.device, {run.subgroup_size}, fmt::format("at {}: {}", size_text(run.subgroup_size), what),
                     {Note{in.sites[f.second.site].location, what.substr(what.find(": ") + 2) + " here"}}};
      }
      if (f.kind == ShadowKind::SkippedBarrier) {
        auto [summary, notes] = skipped_barrier_witness(f, in, run.shadow, lines);
        return Found{run.device, {run.subgroup_size}, fmt::format("at {}: {}", size_text(run.subgroup_size), summary),
                     std::move(notes)};
      }
      return Found{run.device,
                   {run.subgroup_size},
                   fmt::format("at {}: {}", size_text(run.subgroup_size), describe(in, f)),
                   witness_notes(f, in)};
    }
  }
  if (evidence == RunEvidence::BankConflict || evidence == RunEvidence::Coalescing) {
    for (const Observation& run : o.runs) {
      for (const Spread& s : run.shadow.spreads) {
        const AccessSite& site = in.sites[s.site];
        const bool storage = site.kind == AccessKind::StorageRead || site.kind == AccessKind::StorageWrite;
        if (storage != (evidence == RunEvidence::Coalescing) || !on(lines, site)) continue;
        const std::string what = spread_text(in, s);
        return Found{run.device, {run.subgroup_size}, fmt::format("at {}: {}", size_text(run.subgroup_size), what),
                     {Note{site.location, what}}, s.degree};
      }
    }
    return std::nullopt;
  }
  if (evidence != RunEvidence::SubgroupSizeDependence) return std::nullopt;
  for (size_t k = 1; k < o.runs.size(); ++k) {
    const Observation& a = o.runs[0];
    const Observation& b = o.runs[k];
    if (a.verdict != Verdict::Completed || b.verdict != Verdict::Completed) continue;
    std::optional<OutputDifference> diff = compare(harness, a, b, words);
    if (!diff) continue;
    const Words kind = words[diff->buffer];
    return Found{
        a.device,
        {a.subgroup_size, b.subgroup_size},
        fmt::format("the output differs between subgroup sizes {} and {}: '{}' {} ({} of its words differ; {})",
                    a.subgroup_size, b.subgroup_size, a.buffers[diff->buffer].name, difference_text(*diff, kind),
                    diff->words, diff->symptom),
        {}};
  }
  return std::nullopt;
}

void note_reach(RunEvidence evidence, const Instrumented& in, const std::vector<Observation>& runs,
                const Covered& lines, Reach& reach) {
  for (const Observation& run : runs) {
    if (run.verdict != Verdict::Completed) continue;
    if (run.shadow.truncated) {
      reach.truncated = in.capacity;
      continue;
    }
    reach.complete = true;
    for (size_t site = 0; site < in.sites.size(); ++site) {
      // A skipped barrier needs the barrier itself reached, a partial group
      // the operation.
      const AccessKind kind = in.sites[site].kind;
      const bool storage = kind == AccessKind::StorageRead || kind == AccessKind::StorageWrite;
      const bool workgroup = kind == AccessKind::Read || kind == AccessKind::Write || kind == AccessKind::Atomic;
      if (!on(lines, in.sites[site]) || (evidence == RunEvidence::BarrierArrival && kind != AccessKind::Barrier) ||
          (evidence == RunEvidence::PartialGroup && kind != AccessKind::GroupOperation) ||
          ((evidence == RunEvidence::BankConflict || evidence == RunEvidence::OutOfRange) && !workgroup) ||
          (evidence == RunEvidence::Coalescing && !storage) ||
          (evidence == RunEvidence::WorkgroupOverlap && kind != AccessKind::StorageWrite)) {
        continue;
      }
      reach.sites = true;
      reach.reached |= site < run.shadow.reached.size() && run.shadow.reached[site];
    }
    if (evidence == RunEvidence::WidenedAccumulator) {
      for (const BranchTaken& b : run.shadow.branches) {
        if (!on(lines, in.sites[b.site])) continue;
        reach.exits = true;
        reach.repeated |= std::max(b.held, b.failed) >= 2;
      }
    }
    // A group operation's lanes are its subgroup's, consecutive local
    // indices; what a subgroup size changes shows between two sizes (0: the
    // device's own, where it offers no choice). A barrier waits for the
    // workgroup.
    const uint32_t group = evidence == RunEvidence::PartialGroup ? std::max<uint32_t>(run.subgroup_size, 1) : 0;
    if (evidence == RunEvidence::PartialGroup || evidence == RunEvidence::SubgroupSizeDependence) {
      const uint32_t size = group ? group : run.subgroup_size;
      if (std::find(reach.subgroup_sizes.begin(), reach.subgroup_sizes.end(), size) == reach.subgroup_sizes.end()) {
        reach.subgroup_sizes.push_back(size);
      }
    }
    if (evidence != RunEvidence::BarrierArrival && evidence != RunEvidence::PartialGroup) continue;
    // site, workgroup, subgroup: held, failed
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>> first, in_workgroup;
    for (const BranchTaken& b : run.shadow.branches) {
      if (!on(lines, in.sites[b.site])) continue;
      reach.branch = in.sites[b.site].location;
      auto [it, fresh] = first.try_emplace({b.site, b.workgroup, group ? b.invocation / group : 0}, b.held, b.failed);
      reach.split |= !fresh && it->second != std::pair{b.held, b.failed};
      if (!group) continue;  // a barrier's groups are the workgroups already
      auto [w, new_workgroup] = in_workgroup.try_emplace({b.site, b.workgroup, 0}, b.held, b.failed);
      reach.split_workgroup |= !new_workgroup && w->second != std::pair{b.held, b.failed};
    }
  }
}

Confirmation unshown_verdict(const Diagnostic& d, const Reach& reach, const std::vector<std::string>& tried,
                             const std::vector<std::string>& guesses, std::string_view accumulator,
                             std::string_view failure) {
  const RunEvidence evidence = evidence_of(d);
  const std::string setups =
      tried.size() == 1 ? "with " + tried.front() : fmt::format("in any of {} setups", tried.size());
  Confirmation c{Confirmation::Status::NotReproduced, fmt::format("{} {}", not_shown(evidence), setups), {}, {}};
  auto inconclusive = [&](std::string why) {
    c.status = Confirmation::Status::Inconclusive;
    c.summary = std::move(why);
  };
  // A run that never ran the finding's code, or lost records of it, shows
  // nothing about it. The runs whose logs kept everything judge alone where
  // they ran it as the finding needs.
  if (reach.truncated && (!reach.complete || (reach.sites && !reach.reached))) {
    inconclusive(fmt::format("a run's log filled up (it keeps the first {} records), so it cannot show this, {}",
                             reach.truncated, setups));
  } else if (reach.sites && !reach.reached) {
    inconclusive(evidence == RunEvidence::BarrierArrival
                     ? fmt::format("no invocation reached the barrier, {}", setups)
                     : fmt::format("the runs never reached line {} or the others it is about, {}", d.location.line,
                                   setups));
  } else if (!accumulator.empty() && reach.exits && !reach.repeated) {
    inconclusive(fmt::format("no invocation ran the loop that carries {} more than once, {}", accumulator, setups));
  } else if (reach.branch && !reach.split && reach.split_workgroup && evidence == RunEvidence::PartialGroup) {
    std::string sizes;
    for (size_t i = 0; i < reach.subgroup_sizes.size(); ++i) {
      sizes += (i == 0 ? "" : i + 1 == reach.subgroup_sizes.size() ? " and " : ", ") +
               std::to_string(reach.subgroup_sizes[i]);
    }
    inconclusive(fmt::format("the condition at {}:{} went the same way in every invocation of a subgroup of {} "
                             "lanes, {}; a wider subgroup may hold invocations that go both ways",
                             reach.branch->file, reach.branch->line, sizes, setups));
  } else if (reach.branch && !reach.split) {
    inconclusive(fmt::format("the condition at {}:{} went the same way in every invocation of a workgroup, {}",
                             reach.branch->file, reach.branch->line, setups));
  } else if (evidence == RunEvidence::SubgroupSizeDependence && reach.complete && reach.subgroup_sizes.size() == 1) {
    inconclusive(fmt::format("every run that completed had {}, so nothing could differ between sizes, {}",
                             size_text(reach.subgroup_sizes.front()), setups));
  } else if (!failure.empty()) {
    inconclusive(fmt::format("{}, {}", failure, setups));
  }
  if (reach.truncated && reach.complete && !(reach.sites && !reach.reached)) {
    c.details.push_back(fmt::format("some runs' logs filled up (they keep the first {} records): this is what "
                                    "the others showed",
                                    reach.truncated));
  }
  for (const std::string& t : tried) c.details.push_back("tried: " + t);
  for (const std::string& guess : guesses) c.details.push_back("guessed: " + guess);
  return c;
}

}  // namespace klint::runner
