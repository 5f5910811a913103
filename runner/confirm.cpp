#include "runner/confirm.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "analyzer/ir/module.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/loops.h"
#include "analyzer/workgroup_memory.h"
#include "analyzer/module.h"
#include "reflect/reflection.h"
#include "runner/confirmer.h"
#include "runner/device_limits.h"
#include "runner/evidence.h"
#include "runner/harness.h"
#include "runner/infer_setup.h"
#include "runner/manifest.h"
#include "runner/observe.h"
#include "runner/pipeline_statistics.h"
#include "runner/resources.h"
#include "runner/widened.h"
#include "rules/rule.h"

namespace klint::runner {

std::string_view to_string(Confirmation::Status status) {
  switch (status) {
    case Confirmation::Status::Confirmed: return "confirmed";
    case Confirmation::Status::NotReproduced: return "not reproduced";
    case Confirmation::Status::NotRunnable: return "not runnable";
    case Confirmation::Status::NoRun: return "no run";
    case Confirmation::Status::Inconclusive: return "inconclusive";
  }
  return "";
}

bool is_confirmable(const Diagnostic& finding) { return evidence_of(finding) != RunEvidence::None; }

Verdicts not_runnable(std::span<const Diagnostic* const> findings, const std::string& why) {
  Verdicts verdicts(findings.size());
  for (size_t i = 0; i < findings.size(); ++i) {
    if (is_confirmable(*findings[i])) verdicts[i] = Confirmation{Confirmation::Status::NotRunnable, why, {}, {}};
  }
  return verdicts;
}

namespace {

// The workgroup memory of the entry point named `entry` as the occupancy
// rule counts it: the variables its functions use (analyzer/workgroup_memory.h).
uint64_t counted_workgroup_memory(const Module& module, const std::string& entry) {
  for (const EntryPoint& e : module.entry_points()) {
    if (e.name == entry) return workgroup_memory(module, e).referenced;
  }
  return 0;
}

uint64_t invocations(const reflect::EntryPoint& entry, const Harness& harness) {
  const std::array<uint32_t, 3> size = workgroup_size(entry, harness);
  return uint64_t{size[0]} * size[1] * size[2];
}

}  // namespace

Verdicts confirm_findings(std::span<const Diagnostic* const> findings, const LoadedShader& shader,
                          const KernelManifest* manifest, const ConfirmOptions& options) {
  Verdicts verdicts(findings.size());
  std::vector<size_t> pending;  // indices into findings
  for (size_t i = 0; i < findings.size(); ++i) {
    if (is_confirmable(*findings[i])) pending.push_back(i);
  }
  if (pending.empty()) return verdicts;
  if (!shader.module) return not_runnable(findings, "klint did not analyze it");
  // A limit is the device's to show, not a run's: read from each device at hand.
  for (size_t k = 0; k < pending.size();) {
    if (evidence_of(*findings[pending[k]]) != RunEvidence::DeviceLimit) {
      ++k;
      continue;
    }
    std::string no_devices;
    const std::vector<Target>& devices = devices_at_hand(&no_devices);
    verdicts[pending[k]] = device_limit_verdict(*findings[pending[k]], *shader.module, devices, no_devices);
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(k));
  }
  if (pending.empty()) return verdicts;
  if (has_explicit_layout_workgroup_blocks(*shader.module)) {
    Verdicts verdicts = not_runnable(findings, "klint's runs do not log explicit-layout workgroup blocks yet");
    for (std::optional<Confirmation>& verdict : verdicts) {
      if (verdict) verdict->details = {"no run: the shadow memory covers shared variables, not blocks that alias"};
    }
    return verdicts;
  }
  if (!shader.stood_in.empty()) {
    // A run of the module with the stand-ins would not run the shader.
    Verdicts verdicts =
        not_runnable(findings, "klint analyzed it with stand-ins for what its SPIRV-Tools does not know");
    for (std::optional<Confirmation>& verdict : verdicts) {
      if (verdict) verdict->details = {"stood in: " + shader.stood_in, "no run: a run would not run the shader"};
    }
    return verdicts;
  }
  // The runs instrument the module the rules saw, so that the findings'
  // instructions are its instructions.
  const Module& module = *shader.module;
  std::vector<uint32_t> spirv = shader.module_words();
  const ModuleOrigin origin{shader.path, {}};
  std::string error;
  std::optional<reflect::ModuleReflection> reflection = reflect::reflect_module(spirv, &error);
  if (!reflection) return not_runnable(findings, "cannot reflect it: " + error);
  // HLSL registers of several classes on one binding get one each, as the
  // kernel's build gives them (the Binding literals change, not the
  // instructions the findings name).
  std::optional<std::vector<std::string>> moved = separate_registers(spirv, *reflection, &error);
  if (!moved) return not_runnable(findings, error);
  const reflect::EntryPoint* entry =
      manifest ? manifest_entry_point(*reflection, *manifest, &error) : &reflection->entry_points.front();
  if (!entry) return not_runnable(findings, error);
  std::vector<const ir::Instruction*> by_ordinal;
  module.ir().for_each_instruction([&](const ir::Instruction& i) { by_ordinal.push_back(&i); });
  std::vector<Covered> lines;
  for (size_t i : pending) lines.push_back(covered(*findings[i], module, by_ordinal));

  // What the pending findings need logged: the branches and subgroup
  // operations they name (to explain a skipped barrier, to show a partial
  // group), and workgroup and storage accesses only for the evidence made
  // of them.
  auto logging = [&] {
    InstrumentOptions logged;
    logged.storage = false;
    logged.workgroup = false;
    for (size_t i : pending) {
      const RunEvidence evidence = evidence_of(*findings[i]);
      logged.barriers |= evidence == RunEvidence::BarrierArrival;
      // Workgroup memory for a race, a read of what no one wrote, an index
      // past a shared array's end, and the banks an access hits.
      logged.workgroup |= evidence == RunEvidence::Race || evidence == RunEvidence::UninitializedRead ||
                          evidence == RunEvidence::SubgroupSizeDependence || evidence == RunEvidence::BankConflict ||
                          evidence == RunEvidence::OutOfRange;
      // A grid overlapping itself, invocations storing to one word, the
      // lines an access touches, and what an index past a buffer's end or a
      // store of two lanes shows of a subgroup size.
      logged.storage |= evidence == RunEvidence::GridStrideRepeat || evidence == RunEvidence::WorkgroupOverlap ||
                        evidence == RunEvidence::Coalescing || evidence == RunEvidence::SubgroupSizeDependence;
      logged.spreads |= evidence == RunEvidence::BankConflict || evidence == RunEvidence::Coalescing;
      for (size_t ordinal : findings[i]->instructions) {
        if (ordinal == 0 || ordinal > by_ordinal.size()) continue;
        const spv::Op opcode = by_ordinal[ordinal - 1]->opcode();
        if (opcode == spv::Op::OpBranchConditional) logged.branches.push_back(ordinal);
        if ((opcode == spv::Op::OpLoad || opcode == spv::Op::OpStore) && evidence == RunEvidence::Coalescing) {
          logged.storage_accesses.push_back(ordinal);
        }
        if (ir::is_subgroup_operation(opcode)) logged.group_operations.push_back(ordinal);
      }
    }
    return logged;
  };
  // Without a manifest, the setups come from how the kernel uses its push
  // constants.
  std::optional<Inferred> inferred;
  if (!manifest) {
    std::vector<MemberRole> roles = infer_roles(module, *entry);
    std::vector<std::pair<std::string, int64_t>> named = named_values(findings, roles);
    if (std::optional<KernelManifest> made = inferred_manifest(roles, named, *entry, shader.path)) {
      inferred = Inferred{std::move(roles), std::move(named), std::move(*made)};
    }
  }
  const KernelManifest* plan = manifest ? manifest : inferred ? &inferred->manifest : nullptr;
  Confirmer confirmer(spirv, origin, shader, *reflection, *entry, manifest, inferred ? &*inferred : nullptr, options,
                      logging());
  confirmer.say_moved(std::move(*moved));
  confirmer.vary_unevenly(std::any_of(pending.begin(), pending.end(), [&](size_t i) {
    return evidence_of(*findings[i]) == RunEvidence::OutOfRange;
  }));
  std::vector<Shape> shapes;
  if (plan) {
    for (size_t i = 0; i < plan->matrix.size(); ++i) shapes.push_back(shape_at(*plan, i));
  } else {
    shapes.emplace_back();
  }
  // Where the compiler keeps the kernel's values is for its statistics to
  // show: read once, of the kernel specialized as its first setup runs it.
  // So is the workgroup memory it allocates, which bounds how many
  // workgroups stay resident.
  auto by_statistics = [&](size_t i) {
    const RunEvidence evidence = evidence_of(*findings[i]);
    return evidence == RunEvidence::PipelineStatistics || evidence == RunEvidence::Occupancy;
  };
  if (std::any_of(pending.begin(), pending.end(), by_statistics)) {
    std::optional<Harness> h = confirmer.harness(Setup{shapes.front(), std::nullopt, std::nullopt}, &error);
    const IsolatedRun capture =
        h ? capture_statistics(spirv, entry->name, *h, options) : IsolatedRun{Verdict::Failed, error, {}};
    for (size_t k = pending.size(); k-- > 0;) {
      if (!by_statistics(pending[k])) continue;
      const Diagnostic& d = *findings[pending[k]];
      const size_t of_rule = static_cast<size_t>(
          std::count_if(findings.begin(), findings.end(), [&](const Diagnostic* f) { return f->rule == d.rule; }));
      if (evidence_of(d) == RunEvidence::Occupancy) {
        verdicts[pending[k]] = occupancy_verdict(d, capture, counted_workgroup_memory(module, entry->name),
                                                 h ? invocations(*entry, *h) : 0, options.linted_with.targets);
      } else {
        verdicts[pending[k]] = statistics_verdict(d, of_rule, capture);
      }
      pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(k));
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(k));
    }
    if (pending.empty()) return verdicts;
  }
  // A half-precision accumulator shows in the outputs of a copy that sums in
  // 32 bits, made once per finding.
  std::map<size_t, WidenedCopy> copies;  // by index into findings
  std::string copy_failure;
  for (size_t k = pending.size(); k-- > 0;) {
    if (evidence_of(*findings[pending[k]]) != RunEvidence::WidenedAccumulator) continue;
    std::variant<WidenedCopy, Confirmation> copy = widened_copy(*findings[pending[k]], spirv);
    if (WidenedCopy* made = std::get_if<WidenedCopy>(&copy)) {
      copies.emplace(pending[k], std::move(*made));
      continue;
    }
    verdicts[pending[k]] = std::get<Confirmation>(std::move(copy));
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(k));
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(k));
  }
  if (pending.empty()) return verdicts;
  std::vector<std::string> tried;
  std::vector<std::string> guesses;
  std::vector<Reach> reach(pending.size());
  bool all_timed_out = false;  // every run of the last setup tried
  bool ever_completed = false;
  std::string last_failure;
  // Gives pending finding k its verdict, confirmed, from the witness a setup
  // showed, shrunk.
  auto settle = [&](size_t k, const Setup& setup, const Harness& harness, RunEvidence evidence, Found found) {
    const Diagnostic& d = *findings[pending[k]];
    Setup small_setup = setup;
    Harness small = harness;
    confirmer.shrink(evidence, lines[k], small_setup, small, found);
    Confirmation c{Confirmation::Status::Confirmed, found.summary, found.witness, {}};
    const std::string& device = found.device;
    c.details.push_back(fmt::format("ran on {}, {}, seed {}", device, confirmer.setup_text(small_setup.shape, small),
                                    confirmer.seed()));
    const std::string from = confirmer.setup_text(setup.shape, harness);
    if (confirmer.setup_text(small_setup.shape, small) != from) c.details.push_back("shrunk from " + from);
    c.details.push_back("replay: " + confirmer.replay(small_setup.shape, small, found, is_lavapipe(device)) +
                        (copies.count(pending[k]) ? " (the kernel as written: the first of the two outputs)" : ""));
    if (!options.reproducers.empty()) {
      const std::filesystem::path file =
          std::filesystem::path(options.reproducers) /
          fmt::format("{}-{}-{}.toml", std::filesystem::path(origin.path).stem().string(), d.location.line, d.rule->id);
      std::error_code ec;
      std::filesystem::create_directories(options.reproducers, ec);
      std::ofstream out(file);
      out << confirmer.reproducer(d, small_setup.shape, small, found, file);
      c.details.push_back(out ? "reproducer: " + file.string() : "cannot write the reproducer " + file.string());
    }
    for (const std::string& guess : small.guesses) c.details.push_back("guessed: " + guess);
    verdicts[pending[k]] = std::move(c);
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(k));
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(k));
    reach.erase(reach.begin() + static_cast<std::ptrdiff_t>(k));
  };
  // Runs one setup at `sizes` and gives each pending finding that it shows
  // its verdict. The last pass (every size) also keeps what was tried and
  // how far the runs reached, for the findings none shows. Fails (not
  // runnable) when the harness cannot be made or instrumented, or the very
  // first setup runs at no size.
  auto try_setup = [&](const Setup& setup, Harness& harness, const std::vector<uint32_t>& sizes, bool last) {
    if (options.setup_started) options.setup_started(confirmer.setup_text(setup.shape, harness));
    std::shared_ptr<const Observations> o = confirmer.observe(harness, sizes, &error);
    if (!o) return false;
    all_timed_out = !o->runs.empty() && std::all_of(o->runs.begin(), o->runs.end(), [](const Observation& run) {
      return run.verdict == Verdict::TimedOut;
    });
    if (last) {
      std::vector<std::string> sizes_run;
      bool completed = false;
      for (const Observation& run : o->runs) {
        completed |= run.verdict == Verdict::Completed;
        if (run.verdict != Verdict::Completed) last_failure = run.message;
        sizes_run.push_back(run.verdict == Verdict::Completed
                                ? size_text(run.subgroup_size)
                                : size_text(run.subgroup_size) + " (" + run.message + ")");
      }
      ever_completed |= completed;
      if (!completed && tried.empty() && shapes.size() == 1) {
        error = "the run " + o->runs.front().message;
        return false;
      }
      tried.push_back(
          fmt::format("{} at {}", confirmer.setup_text(setup.shape, harness), fmt::join(sizes_run, ", ")));
      guesses = harness.guesses;
      for (const std::string& skipped : o->instrumented.skipped) guesses.push_back("not logged: " + skipped);
    }
    const size_t before = pending.size();
    for (size_t k = 0; k < pending.size();) {
      const RunEvidence evidence = evidence_of(*findings[pending[k]]);
      std::optional<Found> found;
      if (evidence != RunEvidence::WidenedAccumulator) {
        found = find_witness(evidence, lines[k], harness, *o, confirmer.words(harness));
      } else if (!last && !o->runs.empty()) {
        // Once per setup, in the first pass, at its one size.
        found = widened_witness(copies.at(pending[k]), spirv, entry->name, harness, *o, lines[k],
                                confirmer.words(harness), confirmer.observe_options({o->runs.front().subgroup_size}),
                                &copy_failure);
      }
      if (found) {
        settle(k, setup, harness, evidence, std::move(*found));
        continue;
      }
      if (last) note_reach(evidence, o->instrumented, o->runs, lines[k], reach[k]);
      ++k;
    }
    if (pending.size() < before) confirmer.log_less(logging());
    return true;
  };
  // Two passes over the setups: at subgroup size 4 alone, where most
  // evidence shows (a race, a skipped barrier, a partial group), then, for
  // the findings still pending, at 8 and 16 too. Each width is another
  // compile of the kernel on lavapipe (seconds to a minute for a large
  // instrumented kernel), and the setups of a pass share one per width.
  for (const bool last : {false, true}) {
    // Findings that a copy shows were tried in the first pass; the second
    // notes how far their runs reached.
    const bool copies_only = std::all_of(pending.begin(), pending.end(), [&](size_t i) { return copies.count(i); });
    const std::vector<uint32_t> sizes =
        last && !copies_only ? std::vector<uint32_t>{4, 8, 16} : std::vector<uint32_t>{4};
    // Where klint made the shapes, a shape at which every run timed out
    // makes only smaller ones worth trying, and a second such shape ends
    // the pass: what hangs at every size hangs on klint's other inputs.
    std::optional<Shape> timed_out;
    std::vector<Setup> variants;
    // A workgroup size a finding names ("such as local_size_x = 96") is where
    // it shows, and another compile of the kernel: that setup runs first, at
    // the first shape, and the kernel's default size for what it leaves.
    std::vector<const Diagnostic*> unsettled;
    for (size_t i : pending) unsettled.push_back(findings[i]);
    std::optional<Harness> at_default;
    for (const auto& [axis, size] : named_workgroup_sizes(unsettled)) {
      if (!at_default) at_default = confirmer.harness(Setup{shapes.front(), std::nullopt, std::nullopt}, &error);
      std::optional<std::array<uint32_t, 3>> workgroup =
          at_default ? confirmer.workgroup_with(*at_default, axis, size) : std::nullopt;
      const Setup named{shapes.front(), std::nullopt, workgroup};
      std::optional<Harness> harness = workgroup ? confirmer.harness(named, &error) : std::nullopt;
      if (!harness) continue;
      if (!try_setup(named, *harness, sizes, last)) return not_runnable(findings, error);
      if (pending.empty()) return verdicts;
    }
    for (const Shape& shape : shapes) {
      if (timed_out && !smaller(shape, *timed_out)) continue;
      Setup setup{shape, std::nullopt, std::nullopt};
      std::optional<Harness> harness = confirmer.harness(setup, &error);
      if (!harness && inferred) continue;  // klint's own guess that does not fit: the next one
      if (!harness) return not_runnable(findings, error);
      if (!try_setup(setup, *harness, sizes, last)) {
        // Why, and what was tried.
        Verdicts failed = not_runnable(findings, error);
        for (std::optional<Confirmation>& verdict : failed) {
          if (verdict) verdict->details = {"tried: " + confirmer.setup_text(setup.shape, *harness)};
        }
        return failed;
      }
      if (pending.empty()) return verdicts;
      if (inferred && all_timed_out) {
        if (timed_out) break;
        timed_out = shape;
        continue;
      }
      // A workgroup size a specialization constant sets is varied too, for
      // what the default size did not show, once every shape ran at the
      // default (each size is another compile); for an inferred setup, at
      // its first shape only, which keeps the runs few.
      if (inferred && &shape != &shapes.front()) continue;
      for (const std::array<uint32_t, 3>& workgroup : confirmer.workgroup_variants(*harness)) {
        variants.push_back(Setup{shape, std::nullopt, workgroup});
      }
    }
    for (const Setup& variant : variants) {
      std::optional<Harness> h = confirmer.harness(variant, &error);
      if (!h) continue;
      if (!try_setup(variant, *h, sizes, last)) return not_runnable(findings, error);
      if (pending.empty()) return verdicts;
    }
  }
  if (tried.empty()) return not_runnable(findings, error);  // no inferred setup could be made
  if (inferred && !ever_completed) {
    Verdicts failed = not_runnable(findings, fmt::format("the run {} in every setup tried", last_failure));
    for (std::optional<Confirmation>& verdict : failed) {
      if (!verdict) continue;
      for (const std::string& t : tried) verdict->details.push_back("tried: " + t);
      for (const std::string& guess : guesses) verdict->details.push_back("guessed: " + guess);
    }
    return failed;
  }
  for (size_t k = 0; k < pending.size(); ++k) {
    const size_t i = pending[k];
    const bool copied = copies.count(i) != 0;
    verdicts[i] = unshown_verdict(*findings[i], reach[k], tried, guesses, copied ? copies.at(i).accumulator : "",
                                  copied ? copy_failure : "");
  }
  return verdicts;
}

}  // namespace klint::runner
