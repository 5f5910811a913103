#include "runner/confirmer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <set>

#include "runner/extents.h"

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

}  // namespace

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

Confirmer::Confirmer(const std::vector<uint32_t>& spirv, const ModuleOrigin& origin, const LoadedShader& shader,
                     const reflect::ModuleReflection& module, const reflect::EntryPoint& entry,
                     const KernelManifest* manifest, const Inferred* inferred, const ConfirmOptions& options,
                     InstrumentOptions logged)
    : spirv_(spirv), origin_(origin), path_(origin.path), compile_(shader.options), target_env_(shader.target_env()),
      module_(module), entry_(entry), manifest_(manifest), inferred_(manifest ? nullptr : inferred),
      plan_(manifest ? manifest : inferred ? &inferred->manifest : nullptr), options_(options),
      logged_(std::move(logged)),
      analyzed_(shader.module.get()) {
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

std::optional<std::array<uint32_t, 3>> Confirmer::workgroup_with(const Harness& harness, size_t axis,
                                                                uint32_t size) const {
  if (std::find(varied_axes_.begin(), varied_axes_.end(), axis) == varied_axes_.end()) return std::nullopt;
  std::array<uint32_t, 3> sizes = workgroup_size(entry_, harness);
  if (sizes[axis] == size || sizes[axis] == 0) return std::nullopt;
  const uint64_t others = uint64_t{sizes[0]} * sizes[1] * sizes[2] / sizes[axis];
  if (uint64_t{size} * others > kMaxVariantInvocations) return std::nullopt;
  sizes[axis] = size;
  return sizes;
}

std::vector<std::array<uint32_t, 3>> Confirmer::workgroup_variants(const Harness& harness) const {
  std::vector<std::array<uint32_t, 3>> variants;
  if (varied_axes_.empty()) return variants;
  const size_t axis = varied_axes_.front();
  const uint32_t size = workgroup_size(entry_, harness)[axis];
  std::vector<uint32_t> sizes;
  if (uneven_ && size >= 2) sizes.push_back(size * 3 / 2);
  if (size >= 2) sizes.push_back(size / 2);
  sizes.push_back(size * 2);
  for (uint32_t other : sizes) {
    if (std::optional<std::array<uint32_t, 3>> variant = workgroup_with(harness, axis, other)) {
      variants.push_back(*variant);
    }
  }
  return variants;
}

std::string Confirmer::setup_text(const Shape& shape, const Harness& harness) const {
  const std::string described = describe_shape(shape);
  std::string text =
      fmt::format("{}grid {}", described.empty() ? "" : "shape " + described + ", ", grid_text(harness.grid));
  if (!varied_axes_.empty()) text += ", workgroup " + grid_text(workgroup_size(entry_, harness));
  return text;
}

std::optional<Harness> Confirmer::harness(const Setup& setup, std::string* error, bool contents) const {
  HarnessOptions harness_options;
  harness_options.contents = contents;
  harness_options.seed = seed_;
  harness_options.grid = setup.grid.value_or(kGrid);
  std::optional<Harness> h;
  if (plan_) {
    KernelManifest manifest = *plan_;
    manifest.seed = seed_;
    if (inferred_) {
      harness_options.runtime_elements = runtime_elements_for(integers(setup.shape));
      // Sized from the indices the setup's push constants, grid and
      // workgroup reach, read off a harness without contents.
      if (contents && analyzed_) {
        HarnessOptions light = harness_options;
        light.contents = false;
        std::optional<Harness> values = manifest_harness(entry_, module_, manifest, setup.shape, light, error);
        if (values && setup.grid) values->grid = *setup.grid;
        if (values && setup.workgroup) {
          for (size_t axis : varied_axes_) set_workgroup_size(entry_, axis, (*setup.workgroup)[axis], *values);
        }
        if (values) size_from_indices(*analyzed_, entry_, *values, harness_options);
      }
    }
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

void Confirmer::log_less(InstrumentOptions logged) {
  auto same = [](const InstrumentOptions& a, const InstrumentOptions& b) {
    return a.storage == b.storage && a.workgroup == b.workgroup && a.barriers == b.barriers && a.spreads == b.spreads &&
           a.branches == b.branches && a.group_operations == b.group_operations &&
           a.storage_accesses == b.storage_accesses && a.accesses == b.accesses &&
           a.all_group_operations == b.all_group_operations;
  };
  if (same(logged, logged_)) return;
  logged_ = std::move(logged);
  observed_.clear();
}

std::shared_ptr<const Observations> Confirmer::observe(const Harness& harness, const std::vector<uint32_t>& sizes,
                                                       std::string* error) const {
  const std::string key = key_of(harness);
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

std::shared_ptr<const Observations> Confirmer::observed(const Harness& harness,
                                                        const std::vector<uint32_t>& sizes) const {
  auto it = observed_.find(key_of(harness));
  if (it == observed_.end() || it->second->runs.empty()) return nullptr;
  const std::vector<Observation>& runs = it->second->runs;
  if (!is_lavapipe(runs.front().device)) return it->second;
  for (uint32_t size : sizes) {
    if (std::none_of(runs.begin(), runs.end(), [&](const Observation& r) { return r.subgroup_size == size; })) {
      return nullptr;
    }
  }
  return it->second;
}

ObserveOptions Confirmer::observe_options(const std::vector<uint32_t>& sizes) const {
  ObserveOptions observe_options;
  observe_options.timeout_seconds = options_.timeout_seconds;
  observe_options.device_index = options_.device_index;
  observe_options.subgroup_sizes = sizes;
  observe_options.instrument = logged_;
  observe_options.target_env = target_env_;
  return observe_options;
}

std::vector<Words> Confirmer::words(const Harness& harness) const {
  std::vector<Words> out;
  for (const BufferSpec& buffer : harness.buffers) {
    auto binding = std::find_if(entry_.bindings.begin(), entry_.bindings.end(), [&](const reflect::Binding& b) {
      return b.set == buffer.set && b.binding == buffer.binding;
    });
    out.push_back(binding != entry_.bindings.end() ? words_of(*binding) : Words::Integers);
  }
  return out;
}

void Confirmer::shrink(RunEvidence evidence, const Covered& lines, Setup& setup, Harness& harness,
                       Found& found) const {
  // What a narrow accumulator loses grows with the terms it sums: a
  // smaller setup shows less of it.
  if (evidence == RunEvidence::WidenedAccumulator) return;
  constexpr int kTries = 16;
  int tries = 0;
  auto attempt = [&](const Setup& s) {
    if (tries++ >= kTries) return false;
    std::string error;
    // A setup run before (the findings of a kernel shrink along the same
    // steps) is read again without its buffers, unless its evidence
    // compares outputs with their initial contents.
    std::optional<Harness> h = this->harness(s, &error, false);
    if (!h) return false;
    std::shared_ptr<const Observations> o =
        evidence == RunEvidence::SubgroupSizeDependence ? nullptr : observed(*h, found.sizes);
    if (!o) {
      h = this->harness(s, &error);
      if (!h) return false;
      o = observe(*h, found.sizes, &error);
      if (!o) return false;
    }
    std::optional<Found> again = find_witness(evidence, lines, *h, *o, words(*h));
    if (!again || again->degree < found.degree) return false;
    if (h->buffers.empty() && h->resources.empty()) h = this->harness(s, &error);
    if (!h) return false;
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
      std::optional<Harness> own =
          this->harness(Setup{smaller.shape, std::nullopt, setup.workgroup}, &error, false);
      if (!own) break;
      smaller.grid = harness.grid;
      for (size_t axis = 0; axis < 3; ++axis) (*smaller.grid)[axis] = std::min(harness.grid[axis], own->grid[axis]);
      if (!attempt(smaller)) break;
    }
  }
}

std::vector<std::pair<uint32_t, uint32_t>> Confirmer::specialized_workgroup(const Harness& harness,
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

std::string Confirmer::replay(const Shape& shape, const Harness& harness, const Found& found, bool lavapipe) const {
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

std::string Confirmer::reproducer(const Diagnostic& d, const Shape& shape, const Harness& harness,
                                  const Found& found, const std::filesystem::path& file) const {
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
  for (const auto& [id, value] : specialized_workgroup(harness, true)) {
    workgroup.push_back(fmt::format("\"{}\" = {}", id, value));
  }
  static const std::vector<ManifestSetting> kNone;
  table("push-constants", plan_ ? plan_->push_constants : kNone, {});
  table("uniforms", plan_ ? plan_->uniforms : kNone, {});
  table("buffers", plan_ ? plan_->buffers : kNone, inferred_ ? runtime_arrays(harness) : std::vector<std::string>{});
  table("specialization", plan_ ? plan_->specialization : kNone, std::move(workgroup));
  return text;
}

uint64_t Confirmer::seed() const { return seed_; }

void Confirmer::say_moved(std::vector<std::string> moved) { moved_ = std::move(moved); }

void Confirmer::vary_unevenly(bool uneven) { uneven_ = uneven; }

std::string Confirmer::key_of(const Harness& harness) {
  std::string key = fmt::format("{}|{}|", fmt::join(harness.grid, ","), fmt::join(harness.push_constants, ","));
  for (const auto& [name, value] : harness.shape) key += name + "=" + value + ",";
  for (const SpecializationValue& v : harness.specialization) {
    key += fmt::format("|{}:{}", v.id, fmt::join(v.bytes, ","));
  }
  return key;
}

std::vector<int64_t> Confirmer::integers(const Shape& shape) {
  std::vector<int64_t> out;
  for (const auto& [name, value] : shape) {
    if (const int64_t* integer = std::get_if<int64_t>(&value)) out.push_back(*integer);
  }
  return out;
}

std::vector<std::string> Confirmer::runtime_arrays(const Harness& harness) const {
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

}  // namespace klint::runner
