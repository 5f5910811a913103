#include "driver/confirm.h"

#include <fmt/format.h>

#include <cstring>
#include <set>
#include <utility>

#include "analyzer/loops.h"
#include "analyzer/module.h"
#include "analyzer/ir/module.h"
#include "reflect/reflection.h"
#include "runner/harness.h"
#include "runner/observe.h"

namespace klint {

namespace {

using runner::ShadowKind;

// What a run must show to confirm a finding of each rule.
enum class Evidence {
  Race,           // a race with an access on the finding's lines
  Uninitialized,  // a read of an unwritten element on the finding's lines
  Overlap,        // two invocations storing to one word, on the finding's lines
  SubgroupSize,   // any shadow finding on its lines, or outputs that differ between subgroup sizes
};

std::optional<Evidence> evidence_for(std::string_view rule) {
  if (rule == "shared-memory-race" || rule == "insufficient-barrier") return Evidence::Race;
  if (rule == "uninitialized-shared-read") return Evidence::Uninitialized;
  if (rule == "grid-stride-mismatch") return Evidence::Overlap;
  if (rule == "subgroup-size-assumed" || rule == "subgroup-count-assumed") return Evidence::SubgroupSize;
  return std::nullopt;
}

// Default grid of a confirming run: two workgroups, so that accesses of
// different workgroups can meet.
constexpr std::array<uint32_t, 3> kGrid{2, 1, 1};

using Line = std::pair<std::string, uint32_t>;

// The source lines a finding speaks for: its own, its notes', and, when it
// sits on a loop, every line of the loop (a grid-stride finding names the
// loop; the store that shows it is in the body).
std::set<Line> covered_lines(const Diagnostic& d, const Module& module) {
  std::set<Line> lines{{d.location.file, d.location.line}};
  for (const Note& note : d.notes) lines.insert({note.location.file, note.location.line});
  for (const ir::Function& function : module.functions()) {
    for (const Loop& loop : find_loops(module, function)) {
      const Location at = module.nearest_location(*loop.merge);
      if (at.file != d.location.file || at.line != d.location.line) continue;
      for (size_t b = 0; b < loop.body.size() && b < function.blocks.size(); ++b) {
        if (!loop.body[b]) continue;
        for (const ir::Instruction& i : function.blocks[b].instructions) {
          const Location l = module.location(i);
          if (l.has_line()) lines.insert({l.file, l.line});
        }
      }
    }
  }
  return lines;
}

bool on(const std::set<Line>& lines, const runner::AccessSite& site) {
  return lines.count({site.location.file, site.location.line}) != 0;
}

bool matches(Evidence evidence, const runner::ShadowFinding& f, const runner::Instrumented& in,
             const std::set<Line>& lines) {
  const bool here = on(lines, in.sites[f.second.site]) ||
                    ((f.kind == ShadowKind::Race || f.kind == ShadowKind::OverlappingWrite) &&
                     on(lines, in.sites[f.first.site]));
  switch (evidence) {
    case Evidence::Race: return f.kind == ShadowKind::Race && here;
    case Evidence::Uninitialized: return f.kind == ShadowKind::UninitializedRead && here;
    case Evidence::Overlap: return f.kind == ShadowKind::OverlappingWrite && here;
    case Evidence::SubgroupSize: return here;
  }
  return false;
}

std::string size_text(uint32_t subgroup_size) {
  return subgroup_size ? fmt::format("subgroup size {}", subgroup_size) : "the device's subgroup size";
}

std::vector<Note> witness_notes(const runner::ShadowFinding& f, const runner::Instrumented& in) {
  auto note = [&](const runner::AccessRecord& r, std::string_view what) {
    return Note{in.sites[r.site].location, fmt::format("{} by invocation {} of workgroup {}", what, r.invocation, r.workgroup)};
  };
  auto kind = [&](const runner::AccessRecord& r) {
    switch (in.sites[r.site].kind) {
      case runner::AccessKind::Read: return "read";
      case runner::AccessKind::Atomic: return "atomic";
      default: return "write";
    }
  };
  std::vector<Note> notes;
  if (f.kind == ShadowKind::Race || f.kind == ShadowKind::OverlappingWrite) notes.push_back(note(f.first, kind(f.first)));
  notes.push_back(note(f.second, kind(f.second)));
  return notes;
}

std::string word_text(uint32_t word, bool is_float) {
  if (!is_float) return std::to_string(word);
  float f;
  std::memcpy(&f, &word, 4);
  return fmt::format("{:g}", f);
}

bool holds_floats(const reflect::Binding& binding) {
  if (!binding.block || binding.block->members.empty()) return false;
  const std::string& type = binding.block->members.back().type;
  return type.starts_with("float") || type.starts_with("vec") || type.starts_with("mat");
}

struct Setup {
  std::string path;
  runner::Harness harness;
  runner::Observations observations;
  std::vector<bool> is_float;
  std::vector<std::string> details;
};

void confirm_one(Diagnostic& d, Evidence evidence, const Setup& s, const Module& module) {
  const std::set<Line> lines = covered_lines(d, module);
  const runner::Instrumented& in = s.observations.instrumented;
  Confirmation c;
  c.details = s.details;
  for (const runner::Observation& run : s.observations.runs) {
    for (const runner::ShadowFinding& f : run.shadow.findings) {
      if (!matches(evidence, f, in, lines)) continue;
      c.status = Confirmation::Status::Confirmed;
      c.summary = fmt::format("at {}: {}", size_text(run.subgroup_size), runner::describe(in, f));
      c.witness = witness_notes(f, in);
      d.confirmation = std::move(c);
      return;
    }
  }
  if (evidence == Evidence::SubgroupSize) {
    const std::vector<runner::Observation>& runs = s.observations.runs;
    for (size_t k = 1; k < runs.size(); ++k) {
      if (runs[0].verdict != runner::Verdict::Completed || runs[k].verdict != runner::Verdict::Completed) continue;
      std::optional<runner::OutputDifference> diff = runner::compare(s.harness, runs[0], runs[k], s.is_float);
      if (!diff) continue;
      const bool floats = s.is_float[diff->buffer];
      c.status = Confirmation::Status::Confirmed;
      c.summary = fmt::format("the output differs between subgroup sizes {} and {}: '{}' word {} is {} and {} ({} of its words differ; {})",
                              runs[0].subgroup_size, runs[k].subgroup_size, runs[0].buffers[diff->buffer].name,
                              diff->first_word, word_text(diff->a, floats), word_text(diff->b, floats), diff->words,
                              diff->symptom);
      d.confirmation = std::move(c);
      return;
    }
  }
  c.status = Confirmation::Status::NotReproduced;
  std::vector<std::string> sizes;
  for (const runner::Observation& run : s.observations.runs) {
    sizes.push_back(run.verdict == runner::Verdict::Completed ? size_text(run.subgroup_size)
                                                              : size_text(run.subgroup_size) + " (" + run.message + ")");
  }
  static constexpr std::string_view kWhat[] = {"no race", "no read of an unwritten element",
                                               "no two invocations wrote one element",
                                               "no difference between subgroup sizes and nothing on its lines"};
  c.summary = fmt::format("{} at {}", kWhat[static_cast<int>(evidence)], fmt::join(sizes, ", "));
  d.confirmation = std::move(c);
}

void not_runnable(FileReport& report, const std::string& why) {
  for (Diagnostic& d : report.diagnostics) {
    if (d.rule && evidence_for(d.rule->id)) d.confirmation = Confirmation{Confirmation::Status::NotRunnable, why, {}, {}};
  }
}

}  // namespace

bool is_confirmable(const RuleInfo& rule) { return evidence_for(rule.id).has_value(); }

void confirm_findings(FileReport& report, const Job& job, const ConfirmOptions& options, SourceCache& sources) {
  if (std::none_of(report.diagnostics.begin(), report.diagnostics.end(),
                   [](const Diagnostic& d) { return d.rule && evidence_for(d.rule->id); })) {
    return;
  }
  ReadError read_error;
  std::optional<std::string> text = read_file(job.input.path, &read_error);
  if (!text) return not_runnable(report, read_error.reason);
  CompiledShader compiled = compile(job.input.path, *text, job.input.language, job.options.compile, sources);
  if (!compiled.ok) return not_runnable(report, "it does not compile");
  std::string error;
  std::optional<reflect::ModuleReflection> reflection = reflect::reflect_module(compiled.spirv, &error);
  if (!reflection) return not_runnable(report, "cannot reflect it: " + error);
  const reflect::EntryPoint& entry = reflection->entry_points.front();

  Setup s;
  runner::HarnessOptions harness_options;
  harness_options.seed = options.seed;
  harness_options.grid = kGrid;
  std::optional<runner::Harness> harness = runner::default_harness(entry, harness_options, &error);
  if (!harness) return not_runnable(report, error);
  s.harness = std::move(*harness);
  for (const runner::BufferSpec& buffer : s.harness.buffers) {
    auto binding = std::find_if(entry.bindings.begin(), entry.bindings.end(), [&](const reflect::Binding& b) {
      return b.set == buffer.set && b.binding == buffer.binding;
    });
    s.is_float.push_back(binding != entry.bindings.end() && holds_floats(*binding));
  }

  runner::ObserveOptions observe_options;
  observe_options.timeout_seconds = options.timeout_seconds;
  observe_options.device_index = options.device_index;
  const ModuleOrigin origin{job.input.path, compiled.assembly_lines};
  std::optional<runner::Observations> observations =
      runner::observe(compiled.spirv, origin, entry.name, s.harness, observe_options, &error);
  if (!observations) return not_runnable(report, error);
  s.observations = std::move(*observations);
  const runner::Observation& first = s.observations.runs.front();
  if (std::none_of(s.observations.runs.begin(), s.observations.runs.end(),
                   [](const runner::Observation& r) { return r.verdict == runner::Verdict::Completed; })) {
    return not_runnable(report, "the run " + first.message);
  }
  s.details.push_back(fmt::format("ran on {}, grid {},{},{}, seed {}", first.device, s.harness.grid[0],
                                  s.harness.grid[1], s.harness.grid[2], options.seed));
  for (const std::string& guess : s.harness.guesses) s.details.push_back("guessed: " + guess);
  for (const std::string& skipped : s.observations.instrumented.skipped) s.details.push_back("not logged: " + skipped);

  ir::DecodeError decode_error;
  std::optional<ir::Module> decoded = ir::decode(compiled.spirv, &decode_error);
  if (!decoded) return not_runnable(report, decode_error.message);
  const Module module(std::move(*decoded), origin);
  for (Diagnostic& d : report.diagnostics) {
    if (!d.rule) continue;
    if (std::optional<Evidence> evidence = evidence_for(d.rule->id)) confirm_one(d, *evidence, s, module);
  }
}

}  // namespace klint
