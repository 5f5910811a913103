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

namespace {

// Default grid of a confirming run: two workgroups, so that accesses of
// different workgroups can meet.
constexpr std::array<uint32_t, 3> kGrid{2, 1, 1};

// Words joined into one POSIX shell command: a word of other characters than
// these is single-quoted, its own single quotes as '\''.
std::string shell_words(const std::vector<std::string>& words) {
  auto plain = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_@%+=:,./-", c) != nullptr;
  };
  std::string out;
  for (const std::string& word : words) {
    if (!out.empty()) out += ' ';
    if (!word.empty() && std::all_of(word.begin(), word.end(), plain)) {
      out += word;
      continue;
    }
    out += '\'';
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::string grid_text(const std::array<uint32_t, 3>& grid) {
  return fmt::format("{},{},{}", grid[0], grid[1], grid[2]);
}

// Most invocations a workgroup of a variant run may have: Vulkan's required
// minimum of maxComputeWorkGroupInvocations is 128, lavapipe and desktop GPUs
// give 1024.
constexpr uint32_t kMaxVariantInvocations = 1024;

// One way to run a kernel: a shape of its manifest, the grid when it is not
// the shape's own, the workgroup size when it is not the module's default.
struct Setup {
  Shape shape;
  std::optional<std::array<uint32_t, 3>> grid;
  std::optional<std::array<uint32_t, 3>> workgroup;
};

// A setup made from the kernel where it comes without a manifest
// (runner/infer_setup.h): the members' roles, the values the findings name,
// and the manifest that runs them.
struct Inferred {
  std::vector<MemberRole> roles;
  std::vector<std::pair<std::string, int64_t>> named;
  KernelManifest manifest;
};

// Whether every value of `shape` is at most the other's, and one is less.
bool smaller(const Shape& shape, const Shape& than) {
  bool less = false;
  for (size_t i = 0; i < shape.size() && i < than.size(); ++i) {
    const double a = to_double(shape[i].second), b = to_double(than[i].second);
    if (a > b) return false;
    less |= a < b;
  }
  return less;
}

// Runs the kernel of one file in the setups a confirmation tries.
class Confirmer {
 public:
  Confirmer(const std::vector<uint32_t>& spirv, const ModuleOrigin& origin, const LoadedShader& shader,
            const reflect::ModuleReflection& module, const reflect::EntryPoint& entry, const KernelManifest* manifest,
            const Inferred* inferred, const ConfirmOptions& options, InstrumentOptions logged)
      : spirv_(spirv), origin_(origin), path_(origin.path), compile_(shader.options), target_env_(shader.target_env()),
        module_(module), entry_(entry), manifest_(manifest), inferred_(manifest ? nullptr : inferred),
        plan_(manifest ? manifest : inferred ? &inferred->manifest : nullptr), options_(options),
        logged_(std::move(logged)) {
    seed_ = options.seed.value_or(manifest ? manifest->seed : 1);
    // The workgroup's dimensions that a specialization constant sets and the
    // manifest leaves alone: confirming runs may vary those.
    std::set<uint32_t> set_by_manifest;
    if (manifest) {
      for (const ManifestSetting& setting : manifest->specialization) {
        std::string error;
        if (const reflect::SpecializationConstant* c = find_specialization_constant(module, setting.name, &error))
          set_by_manifest.insert(c->id);
      }
    }
    if (entry.workgroup_size) {
      for (size_t axis = 0; axis < 3; ++axis) {
        const std::optional<uint32_t>& id = (*entry.workgroup_size)[axis].spec_id;
        if (id && !set_by_manifest.count(*id)) varied_axes_.push_back(axis);
      }
    }
  }

  // The workgroup sizes to try after the default when findings remain
  // unconfirmed: the first specialized dimension halved and doubled, within
  // kMaxVariantInvocations; first, where a finding is about an index past an
  // array's end (a loop that steps by the workgroup size), one and a half
  // times it, which divides none of the powers of two the default divides.
  std::vector<std::array<uint32_t, 3>> workgroup_variants(const Harness& harness) const {
    std::vector<std::array<uint32_t, 3>> variants;
    if (varied_axes_.empty()) return variants;
    const std::array<uint32_t, 3> size = workgroup_size(entry_, harness);
    const size_t axis = varied_axes_.front();
    const uint64_t others = uint64_t{size[0]} * size[1] * size[2] / size[axis];
    if (uneven_ && size[axis] >= 2 && uint64_t{size[axis]} * 3 / 2 * others <= kMaxVariantInvocations) {
      std::array<uint32_t, 3> uneven = size;
      uneven[axis] = size[axis] * 3 / 2;
      variants.push_back(uneven);
    }
    if (size[axis] >= 2) {
      std::array<uint32_t, 3> half = size;
      half[axis] /= 2;
      variants.push_back(half);
    }
    if (uint64_t{size[axis]} * 2 * others <= kMaxVariantInvocations) {
      std::array<uint32_t, 3> twice = size;
      twice[axis] *= 2;
      variants.push_back(twice);
    }
    return variants;
  }

  // "shape rows=1 cols=16, grid 2,1,1, workgroup 64,1,1": the workgroup only
  // where a specialization constant sets it.
  std::string setup_text(const Shape& shape, const Harness& harness) const {
    const std::string described = describe_shape(shape);
    std::string text =
        fmt::format("{}grid {}", described.empty() ? "" : "shape " + described + ", ", grid_text(harness.grid));
    if (!varied_axes_.empty()) text += ", workgroup " + grid_text(workgroup_size(entry_, harness));
    return text;
  }

  // The harness for a shape (ignored without a manifest or an inferred
  // setup), with the grid overridden where `grid` says.
  std::optional<Harness> harness(const Setup& setup, std::string* error) const {
    HarnessOptions harness_options;
    harness_options.seed = seed_;
    harness_options.grid = setup.grid.value_or(kGrid);
    std::optional<Harness> h;
    if (plan_) {
      KernelManifest manifest = *plan_;
      manifest.seed = seed_;
      if (inferred_) harness_options.runtime_elements = runtime_elements_for(integers(setup.shape));
      h = manifest_harness(entry_, module_, manifest, setup.shape, harness_options, error);
      if (h && setup.grid) h->grid = *setup.grid;
      if (h && inferred_) {
        for (std::string& line : describe_inferred(inferred_->roles, inferred_->named, setup.shape)) {
          h->guesses.push_back(std::move(line));
        }
      }
    } else {
      h = default_harness(entry_, harness_options, error);
    }
    if (!h) return h;
    h->guesses.insert(h->guesses.begin(), moved_.begin(), moved_.end());
    give_default_specialization(module_, *h);
    if (setup.workgroup) {
      for (size_t axis : varied_axes_) set_workgroup_size(entry_, axis, (*setup.workgroup)[axis], *h);
    }
    return h;
  }

  // The runs of one setup at the given sizes at least. A setup run before
  // (the findings of one kernel shrink along the same steps) runs only at the
  // sizes it has not run at yet, and comes with every run it had.
  std::shared_ptr<const Observations> observe(const Harness& harness, const std::vector<uint32_t>& sizes,
                                              std::string* error) const {
    std::string key = fmt::format("{}|{}|", fmt::join(harness.grid, ","), fmt::join(harness.push_constants, ","));
    for (const auto& [name, value] : harness.shape) key += name + "=" + value + ",";
    for (const SpecializationValue& v : harness.specialization) key += fmt::format("|{}:{}", v.id, fmt::join(v.bytes, ","));
    if (auto it = observed_.find(key); it != observed_.end()) {
      observe_more(*it->second, entry_.name, harness, observe_options(sizes));
      return it->second;
    }
    std::optional<Observations> o =
        runner::observe(spirv_, origin_, entry_.name, harness, observe_options(sizes), error);
    if (!o) return nullptr;
    if (observed_.size() >= kRemembered) observed_.erase(observed_.begin());
    return observed_.emplace(key, std::make_shared<Observations>(std::move(*o))).first->second;
  }

  ObserveOptions observe_options(const std::vector<uint32_t>& sizes) const {
    ObserveOptions observe_options;
    observe_options.timeout_seconds = options_.timeout_seconds;
    observe_options.device_index = options_.device_index;
    observe_options.subgroup_sizes = sizes;
    observe_options.instrument = logged_;
    observe_options.target_env = target_env_;
    return observe_options;
  }

  std::vector<Words> words(const Harness& harness) const {
    std::vector<Words> out;
    for (const BufferSpec& buffer : harness.buffers) {
      auto binding = std::find_if(entry_.bindings.begin(), entry_.bindings.end(), [&](const reflect::Binding& b) {
        return b.set == buffer.set && b.binding == buffer.binding;
      });
      out.push_back(binding != entry_.bindings.end() ? words_of(*binding) : Words::Integers);
    }
    return out;
  }

  // Fewer workgroups first, then smaller shape variables, each halved for as
  // long as the finding still shows; each try runs at the subgroup sizes that
  // showed it only. The workgroup keeps the size that showed the finding:
  // each size is another pipeline, a compile of seconds to a minute for a
  // real kernel, and larger at each halving where the size sets an unrolled
  // loop's trip count (`n / WARP_SIZE`); the witness names its invocations.
  void shrink(RunEvidence evidence, const Covered& lines, Setup& setup, Harness& harness,
              Found& found) const {
    // What a narrow accumulator loses grows with the terms it sums: a
    // smaller setup shows less of it.
    if (evidence == RunEvidence::WidenedAccumulator) return;
    constexpr int kTries = 16;
    int tries = 0;
    auto attempt = [&](const Setup& s) {
      if (tries++ >= kTries) return false;
      std::string error;
      std::optional<Harness> h = this->harness(s, &error);
      if (!h) return false;
      std::shared_ptr<const Observations> o = observe(*h, found.sizes, &error);
      if (!o) return false;
      std::optional<Found> again = find_witness(evidence, lines, *h, *o, words(*h));
      if (!again || again->degree < found.degree) return false;
      setup = s;
      harness = std::move(*h);
      found = std::move(*again);
      return true;
    };
    for (size_t axis = 0; axis < 3; ++axis) {
      while (harness.grid[axis] > 1) {
        Setup fewer = setup;
        fewer.grid = harness.grid;
        (*fewer.grid)[axis] /= 2;
        if (!attempt(fewer)) break;
      }
    }
    for (size_t v = 0; v < setup.shape.size(); ++v) {
      while (std::holds_alternative<int64_t>(setup.shape[v].second) && std::get<int64_t>(setup.shape[v].second) > 1) {
        Setup smaller = setup;
        smaller.shape[v].second = std::get<int64_t>(setup.shape[v].second) / 2;
        // The smaller shape's own grid, where it is smaller than the one reached.
        std::string error;
        std::optional<Harness> own = this->harness(Setup{smaller.shape, std::nullopt, setup.workgroup}, &error);
        if (!own) break;
        smaller.grid = harness.grid;
        for (size_t axis = 0; axis < 3; ++axis) (*smaller.grid)[axis] = std::min(harness.grid[axis], own->grid[axis]);
        if (!attempt(smaller)) break;
      }
    }
  }

  // The workgroup's specialization constants (the ones confirming runs vary,
  // or all of them) where `harness` gives them other values than their
  // defaults, as constant_id and value.
  std::vector<std::pair<uint32_t, uint32_t>> specialized_workgroup(const Harness& harness,
                                                                   bool varied_only) const {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    if (!entry_.workgroup_size) return out;
    const std::array<uint32_t, 3> size = workgroup_size(entry_, harness);
    for (size_t axis = 0; axis < 3; ++axis) {
      const reflect::WorkgroupDimension& d = (*entry_.workgroup_size)[axis];
      const bool varied = std::find(varied_axes_.begin(), varied_axes_.end(), axis) != varied_axes_.end();
      if (d.spec_id && (varied || !varied_only) && size[axis] != d.value) out.emplace_back(*d.spec_id, size[axis]);
    }
    return out;
  }

  // The `klint run` command that shows the witness again, from the folder
  // klint ran in: the setup, and everything that made the module the runs
  // ran (compile options, what the lint gave the pipeline, the manifest's
  // klint.toml), quoted for a POSIX shell.
  std::string replay(const Shape& shape, const Harness& harness, const Found& found, bool lavapipe) const {
    std::vector<std::string> words{"klint", "run"};
    if (found.sizes.size() == 1) words.emplace_back("--shadow");
    if (inferred_) {
      // "n=63,scale=1": the settings' values at the shape.
      auto given = [&](const char* option, const std::vector<ManifestSetting>& settings) {
        std::vector<std::string> values;
        for (const ManifestSetting& setting : settings) {
          std::string error;
          if (std::optional<Number> value = setting.value.evaluate(shape, &error)) {
            values.push_back(setting.name + "=" + to_string(*value));
          }
        }
        if (!values.empty()) words.insert(words.end(), {option, fmt::format("{}", fmt::join(values, ","))});
      };
      given("--push-constants", inferred_->manifest.push_constants);
      given("--uniforms", inferred_->manifest.uniforms);
    } else if (!shape.empty()) {
      std::vector<std::string> values;
      for (const auto& [name, value] : shape) values.push_back(name + "=" + to_string(value));
      words.insert(words.end(), {"--shape", fmt::format("{}", fmt::join(values, ","))});
    }
    words.insert(words.end(), {"--grid", grid_text(harness.grid), "--seed", std::to_string(seed_)});
    // The lint's constants first: the workgroup the runs shrank to wins.
    std::vector<std::string> constants;
    for (const auto& [key, value] : options_.linted_with.specialization) {
      constants.push_back(key + "=" + to_string(value));
    }
    for (const auto& [id, value] : specialized_workgroup(harness, false)) {
      constants.push_back(fmt::format("{}={}", id, value));
    }
    if (!constants.empty()) {
      words.insert(words.end(), {"--specialization", fmt::format("{}", fmt::join(constants, ","))});
    }
    if (const auto& size = options_.linted_with.workgroup_size) {
      words.insert(words.end(), {"--workgroup-size", grid_text(*size)});
    }
    if (options_.device_index) words.insert(words.end(), {"--device", std::to_string(*options_.device_index)});
    if (manifest_) words.insert(words.end(), {"--config", manifest_->config_path});
    for (const std::string& dir : compile_.include_dirs) words.insert(words.end(), {"-I", dir});
    for (const auto& [name, value] : compile_.defines) {
      words.push_back("-D" + name + (value.empty() ? "" : "=" + value));
    }
    if (compile_.target_env) words.insert(words.end(), {"--target-env", std::string(to_string(*compile_.target_env))});
    if (compile_.force_compute) words.emplace_back("-fshader-stage=compute");
    if (compile_.entry_point != CompileOptions{}.entry_point) {
      words.insert(words.end(), {"--entry", compile_.entry_point});
    }
    words.push_back(path_);
    const std::string command = shell_words(words);
    if (!lavapipe) return command;
    std::vector<std::string> runs;
    for (uint32_t size : found.sizes) runs.push_back(fmt::format("LP_NATIVE_VECTOR_WIDTH={} {}", size * 32, command));
    return fmt::format("{}", fmt::join(runs, " ; "));
  }

  // A klint.toml for the setup that showed the finding, written to `file`:
  // the settings that made the module (as klint.toml keys) and a [[kernel]]
  // table with every expression evaluated at its shape, to replay with
  // --confirm --config. Its paths are relative to its own folder, so that it
  // replays wherever the tree it sits in is copied.
  std::string reproducer(const Diagnostic& d, const Shape& shape, const Harness& harness, const Found& found,
                         const std::filesystem::path& file) const {
    const std::filesystem::path dir = std::filesystem::absolute(file).parent_path();
    auto relative = [&](const std::string& path) {
      return std::filesystem::absolute(path).lexically_normal().lexically_relative(dir).generic_string();
    };
    std::vector<std::string> command{"klint",    "--confirm", "--config", file.filename().string(),
                                     "--select", std::string(d.rule->id)};
    if (compile_.force_compute) command.emplace_back("-fshader-stage=compute");
    command.push_back(relative(path_));
    std::string text = fmt::format("# klint reproducer: {} at {}:{}\n# {}\n# replay, in this file's folder: {}\n",
                                   d.rule->id, d.location.file, d.location.line, found.summary, shell_words(command));
    auto strings = [&](const char* key, const std::vector<std::string>& items) {
      std::vector<std::string> out;
      for (const std::string& item : items) out.push_back(toml_string(item));
      if (!out.empty()) text += fmt::format("{} = [{}]\n", key, fmt::join(out, ", "));
    };
    std::vector<std::string> dirs, defines;
    for (const std::string& include : compile_.include_dirs) dirs.push_back(relative(include));
    for (const auto& [name, value] : compile_.defines) defines.push_back(value.empty() ? name : name + "=" + value);
    strings("include-dirs", dirs);
    strings("defines", defines);
    if (compile_.entry_point != CompileOptions{}.entry_point) {
      text += "entry-point = " + toml_string(compile_.entry_point) + "\n";
    }
    if (compile_.target_env) text += "target-env = " + toml_string(to_string(*compile_.target_env)) + "\n";
    std::vector<std::string> linted;
    for (const auto& [key, value] : options_.linted_with.specialization) {
      linted.push_back(fmt::format("{} = {}", toml_string(key), to_string(value)));
    }
    if (!linted.empty()) text += fmt::format("specialization = {{ {} }}\n", fmt::join(linted, ", "));
    if (const auto& size = options_.linted_with.workgroup_size) {
      text += fmt::format("workgroup-size = [{}, {}, {}]\n", (*size)[0], (*size)[1], (*size)[2]);
    }
    text += fmt::format("[[kernel]]\nfile = {}\nentry-point = {}\ngrid = [{}, {}, {}]\nseed = {}\n",
                        toml_string(relative(path_)), toml_string(entry_.name), harness.grid[0], harness.grid[1],
                        harness.grid[2], seed_);
    auto table = [&](const char* key, const std::vector<ManifestSetting>& settings,
                     std::vector<std::string> entries) {
      for (const ManifestSetting& setting : settings) {
        std::string error;
        if (std::optional<Number> value = setting.value.evaluate(shape, &error)) {
          entries.push_back(fmt::format("{} = {}", toml_string(setting.name), to_string(*value)));
        }
      }
      if (!entries.empty()) text += fmt::format("{} = {{ {} }}\n", key, fmt::join(entries, ", "));
    };
    std::vector<std::string> workgroup;
    for (const auto& [id, value] : specialized_workgroup(harness, true)) workgroup.push_back(fmt::format("\"{}\" = {}", id, value));
    static const std::vector<ManifestSetting> kNone;
    table("push-constants", plan_ ? plan_->push_constants : kNone, {});
    table("uniforms", plan_ ? plan_->uniforms : kNone, {});
    table("buffers", plan_ ? plan_->buffers : kNone, inferred_ ? runtime_arrays(harness) : std::vector<std::string>{});
    table("specialization", plan_ ? plan_->specialization : kNone, std::move(workgroup));
    return text;
  }

  uint64_t seed() const { return seed_; }

  // The bindings separate_registers moved, said with every setup's guesses.
  void say_moved(std::vector<std::string> moved) { moved_ = std::move(moved); }

  // Whether the workgroup variants include one that divides what the default does not.
  void vary_unevenly(bool uneven) { uneven_ = uneven; }

 private:
  static std::vector<int64_t> integers(const Shape& shape) {
    std::vector<int64_t> out;
    for (const auto& [name, value] : shape) {
      if (const int64_t* integer = std::get_if<int64_t>(&value)) out.push_back(*integer);
    }
    return out;
  }

  // `"SET.BINDING" = elements` for each buffer ending in a runtime array, as
  // the harness sized it: an inferred setup's sizes, for its reproducer.
  std::vector<std::string> runtime_arrays(const Harness& harness) const {
    std::vector<std::string> out;
    for (const BufferSpec& buffer : harness.buffers) {
      auto binding = std::find_if(entry_.bindings.begin(), entry_.bindings.end(), [&](const reflect::Binding& b) {
        return b.set == buffer.set && b.binding == buffer.binding;
      });
      if (binding == entry_.bindings.end() || !binding->block || !ends_in_runtime_array(*binding->block)) continue;
      const reflect::Member& array = binding->block->members.back();
      const uint64_t stride = array.array_stride.value_or(4);
      out.push_back(fmt::format("\"{}.{}\" = {}", buffer.set, buffer.binding,
                                (buffer.data.size() - std::min<uint64_t>(array.offset, buffer.data.size())) / stride));
    }
    return out;
  }

  const std::vector<uint32_t>& spirv_;
  const ModuleOrigin& origin_;
  const std::string& path_;
  const CompileOptions& compile_;
  spv_target_env target_env_;
  const reflect::ModuleReflection& module_;
  const reflect::EntryPoint& entry_;
  const KernelManifest* manifest_;  // the user's
  const Inferred* inferred_;         // without one
  const KernelManifest* plan_;       // the one of the two that runs
  const ConfirmOptions& options_;
  uint64_t seed_ = 1;
  std::vector<size_t> varied_axes_;
  bool uneven_ = false;
  InstrumentOptions logged_;  // what the findings need logged: their branches, operations and storage accesses, arrivals, spreads
  // Observations by setup (grid, sizes, push constants, shape, constants):
  // few, since each holds the runs' buffers.
  static constexpr size_t kRemembered = 24;
  mutable std::map<std::string, std::shared_ptr<Observations>> observed_;
  std::vector<std::string> moved_;
};

}  // namespace

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

  // The branches and subgroup operations the findings name, logged to
  // explain a skipped barrier and to show a partial group.
  InstrumentOptions logged;
  logged.storage = false;
  for (size_t i : pending) {
    const RunEvidence evidence = evidence_of(*findings[i]);
    logged.barriers |= evidence == RunEvidence::BarrierArrival;
    // Storage accesses only for the evidence made of them: a grid overlapping
    // itself, invocations storing to one word, the lines an access touches,
    // and what an index past a buffer's end or a store of two lanes shows of
    // a subgroup size.
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
                      std::move(logged));
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
  auto by_statistics = [&](size_t i) { return evidence_of(*findings[i]) == RunEvidence::PipelineStatistics; };
  if (std::any_of(pending.begin(), pending.end(), by_statistics)) {
    std::optional<Harness> h = confirmer.harness(Setup{shapes.front(), std::nullopt, std::nullopt}, &error);
    const IsolatedRun capture =
        h ? capture_statistics(spirv, entry->name, *h, options) : IsolatedRun{Verdict::Failed, error, {}};
    for (size_t k = pending.size(); k-- > 0;) {
      if (!by_statistics(pending[k])) continue;
      const Diagnostic& d = *findings[pending[k]];
      const size_t of_rule = static_cast<size_t>(
          std::count_if(findings.begin(), findings.end(), [&](const Diagnostic* f) { return f->rule == d.rule; }));
      verdicts[pending[k]] = statistics_verdict(d, of_rule, capture);
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
    for (size_t k = 0; k < pending.size();) {
      const RunEvidence evidence = evidence_of(*findings[pending[k]]);
      std::optional<Found> found;
      if (evidence != RunEvidence::WidenedAccumulator) {
        found = find_witness(evidence, lines[k], harness, *o, confirmer.words(harness));
      } else if (!last && !o->runs.empty()) {
        // Once per setup, in the first pass, at its one size.
        found = widened_witness(copies.at(pending[k]), spirv, entry->name, harness, *o, confirmer.words(harness),
                                confirmer.observe_options({o->runs.front().subgroup_size}), &copy_failure);
      }
      if (found) {
        settle(k, setup, harness, evidence, std::move(*found));
        continue;
      }
      if (last) note_reach(evidence, o->instrumented, o->runs, lines[k], reach[k]);
      ++k;
    }
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
