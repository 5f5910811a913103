#include "driver/specialization.h"

#include <fmt/core.h>

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "analyzer/normalize.h"
#include "driver/option_lists.h"
#include "reflect/reflection.h"
#include "runner/harness.h"
#include "runner/manifest.h"
#include "validate/targets.h"

namespace klint {
namespace {

constexpr std::array<char, 3> kAxes{'x', 'y', 'z'};

std::string size_text(const std::array<uint32_t, 3>& size) { return fmt::format("{}x{}x{}", size[0], size[1], size[2]); }

// Gives every compute entry point's LocalSize (or LocalSizeId, rewritten as
// a LocalSize of the same length) the size `size`: what ncnn does to a
// module whose source declares none when it creates the pipeline.
void set_local_size(std::vector<uint32_t>& words, const std::array<uint32_t, 3>& size) {
  constexpr uint32_t kModeWords = 6;  // opcode, entry point, mode, x, y, z
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) return;
    const auto opcode = static_cast<spv::Op>(words[at] & 0xffffu);
    const bool literal = opcode == spv::Op::OpExecutionMode &&
                         words[at + 2] == static_cast<uint32_t>(spv::ExecutionMode::LocalSize);
    const bool by_id = opcode == spv::Op::OpExecutionModeId &&
                       words[at + 2] == static_cast<uint32_t>(spv::ExecutionMode::LocalSizeId);
    if ((literal || by_id) && count == kModeWords) {
      words[at] = (kModeWords << 16) | static_cast<uint32_t>(spv::Op::OpExecutionMode);
      words[at + 2] = static_cast<uint32_t>(spv::ExecutionMode::LocalSize);
      std::copy(size.begin(), size.end(), words.begin() + static_cast<std::ptrdiff_t>(at) + 3);
    }
    at += count;
  }
}

// The pass's bit patterns: the value's bytes in 32-bit words, zero-padded
// (narrower types are masked or sign-extended by the pass).
std::unordered_map<uint32_t, std::vector<uint32_t>> bit_patterns(const std::vector<runner::SpecializationValue>& values) {
  std::unordered_map<uint32_t, std::vector<uint32_t>> out;
  for (const runner::SpecializationValue& value : values) {
    std::vector<uint32_t> words((value.bytes.size() + 3) / 4, 0);
    std::memcpy(words.data(), value.bytes.data(), value.bytes.size());
    out[value.id] = std::move(words);
  }
  return out;
}

class Specializer {
 public:
  explicit Specializer(const Specialization& specialization) : s_(specialization) {}

  std::optional<std::string> apply(std::vector<uint32_t>& words, spv_target_env env, ModuleOrigin& origin,
                                   std::vector<std::string>& notes) {
    const bool size_declared = origin.workgroup_size_declared;
    std::string error;
    std::optional<reflect::ModuleReflection> module = reflect::reflect_module(words, &error);
    if (!module) return fmt::format("klint could not read the module's specialization constants: {}", error);
    module_ = &*module;
    for (const SpecializationOption& option : s_.constants) {
      if (auto failed = set(option.setting.key, option.setting.value, option.origin, true)) return failed;
    }
    if (s_.subgroup_size_constant) {
      const SubgroupSizeConstant& constant = *s_.subgroup_size_constant;
      if (!s_.subgroup_size) {
        if (!runner::find_specialization_constant(*module, constant.key, &error)) {
          return fmt::format("{}: {}", constant.origin, error);
        }
        notes.push_back(fmt::format("no target says what subgroup size it runs; klint judged '{}' ({}) at its default",
                                    constant.key, constant.origin));
      } else if (auto failed = set(constant.key, runner::Number{int64_t{s_.subgroup_size}}, constant.origin, false)) {
        return failed;
      } else {
        origin.subgroup_size = s_.subgroup_size;
      }
    }
    bool patch = false;
    if (s_.workgroup_size) {
      std::optional<std::string> failed = give_workgroup_size(*s_.workgroup_size, size_declared, patch, notes);
      if (failed) return failed;
      origin.workgroup_size_given = true;
    }
    if (!harness_.specialization.empty()) {
      std::optional<std::vector<uint32_t>> specialized =
          set_specialization_defaults(words, env, bit_patterns(harness_.specialization), &error);
      if (!specialized) return fmt::format("klint could not specialize the module: {}", error);
      words = std::move(*specialized);
    }
    if (patch) {
      set_local_size(words, s_.workgroup_size->size);
      origin.workgroup_size_declared = true;
    }
    for (const auto& [id, setting] : set_by_) origin.given_spec_ids.insert(id);
    return std::nullopt;
  }

 private:
  // `key` set to `value`; a second setting of one constant replaces the
  // first when both are `replaceable` (--specialization over klint.toml),
  // and is an error otherwise.
  std::optional<std::string> set(const std::string& key, const runner::Number& value, const std::string& origin,
                                 bool replaceable) {
    std::string why;
    const reflect::SpecializationConstant* constant = runner::find_specialization_constant(*module_, key, &why);
    if (!constant) return fmt::format("{}: {}", origin, why);
    if (auto earlier = set_by_.find(constant->id); earlier != set_by_.end() && !(replaceable && earlier->second.second)) {
      return fmt::format("{}: constant_id {} is also set by {}", origin, constant->id, earlier->second.first);
    }
    if (!runner::set_specialization(*module_, key, value, harness_, &why)) return fmt::format("{}: {}", origin, why);
    set_by_[constant->id] = {origin, replaceable};
    return std::nullopt;
  }

  // Sets the dimensions specialization constants give; `patch` when the
  // source declares no size at all.
  std::optional<std::string> give_workgroup_size(const GivenWorkgroupSize& given, bool size_declared, bool& patch,
                                                 std::vector<std::string>& notes) {
    std::set<std::string> kept;  // declared sizes that differ from the given one
    for (const reflect::EntryPoint& entry : module_->entry_points) {
      if (!entry.workgroup_size) continue;
      std::array<uint32_t, 3> declared{};
      bool differs = false;
      for (size_t axis = 0; axis < 3; ++axis) {
        const reflect::WorkgroupDimension& dimension = (*entry.workgroup_size)[axis];
        declared[axis] = static_cast<uint32_t>(dimension.value);
        if (!dimension.spec_id) {
          differs |= size_declared && dimension.value != given.size[axis];
          continue;
        }
        const uint32_t id = *dimension.spec_id;
        if (auto earlier = set_by_.find(id); earlier != set_by_.end()) {
          const uint32_t set = runner::workgroup_size(entry, harness_)[axis];
          if (set == given.size[axis]) continue;
          return fmt::format("{} gives the workgroup {} {}, but {} sets it (constant_id {}) to {}", given.origin,
                             kAxes[axis], given.size[axis], earlier->second.first, id, set);
        }
        runner::set_workgroup_size(entry, axis, given.size[axis], harness_);
        declared[axis] = given.size[axis];
        set_by_[id] = {given.origin, false};
      }
      if (differs) kept.insert(fmt::format("{} declares {}", entry.name, size_text(declared)));
    }
    if (!size_declared) {
      patch = true;
      notes.push_back(fmt::format("declares no workgroup size (local_size_x/y/z); klint analyzed it at {}, the size "
                                  "{} gives",
                                  size_text(given.size), given.origin));
    }
    for (const std::string& entry : kept) {
      notes.push_back(fmt::format("{}: {} gives {}, which applies only to sizes the host sets (a specialization "
                                  "constant, or none declared); klint analyzed the declared size",
                                  entry, given.origin, size_text(given.size)));
    }
    return std::nullopt;
  }

  const Specialization& s_;
  const reflect::ModuleReflection* module_ = nullptr;
  runner::Harness harness_;  // only its specialization values
  // SpecId -> the setting that gave it, and whether a later one may replace it.
  std::map<uint32_t, std::pair<std::string, bool>> set_by_;
};

}  // namespace

void add_specialization(Specialization& to, const Specialization& more) {
  to.constants.insert(to.constants.end(), more.constants.begin(), more.constants.end());
  if (more.workgroup_size) to.workgroup_size = more.workgroup_size;
  if (more.subgroup_size_constant) to.subgroup_size_constant = more.subgroup_size_constant;
  if (more.subgroup_size) to.subgroup_size = more.subgroup_size;
}

std::optional<Specialization> command_line_specialization(const std::vector<std::string>& specialization,
                                                          const std::string& workgroup_size,
                                                          const std::string& subgroup_size_constant,
                                                          std::string* error) {
  Specialization out;
  for (const std::string& text : specialization) {
    std::optional<std::vector<runner::SpecializationSetting>> settings = parse_specialization(text, error);
    if (!settings) return std::nullopt;
    for (runner::SpecializationSetting& setting : *settings) {
      std::string origin = fmt::format("--specialization {}", setting.key);
      out.constants.push_back({std::move(setting), std::move(origin)});
    }
  }
  if (!workgroup_size.empty()) {
    std::optional<std::array<uint32_t, 3>> size = parse_dimensions(workgroup_size);
    if (!size) {
      const std::vector<Assignment> items = assignments(workgroup_size);
      const bool zero = std::any_of(items.begin(), items.end(), [](const Assignment& a) { return a.item == "0"; });
      *error = zero ? fmt::format("--workgroup-size '{}': a workgroup is at least 1 invocation in each axis",
                                  workgroup_size)
                    : fmt::format("--workgroup-size '{}' is not X[,Y[,Z]] of positive integers", workgroup_size);
      return std::nullopt;
    }
    out.workgroup_size = GivenWorkgroupSize{*size, "--workgroup-size"};
  }
  if (!subgroup_size_constant.empty()) {
    out.subgroup_size_constant = SubgroupSizeConstant{subgroup_size_constant, "--subgroup-size-constant"};
  }
  return out;
}

ShaderSpecializer make_specializer(const Specialization& specialization) {
  if (specialization.empty()) return {};
  return [specialization](std::vector<uint32_t>& words, spv_target_env env, ModuleOrigin& origin,
                          std::vector<std::string>& notes) {
    return Specializer(specialization).apply(words, env, origin, notes);
  };
}

std::vector<std::pair<uint32_t, std::vector<const Target*>>> subgroup_widths(
    const std::vector<const Target*>& targets) {
  std::map<uint32_t, std::vector<const Target*>> by_width;
  for (const Target* target : targets) {
    std::optional<WidthRange> range = run_widths(*target);
    if (!range) continue;
    bool any = false;
    for (uint32_t width = std::bit_ceil(range->min); width <= range->max && width != 0; width *= 2) {
      by_width[width].push_back(target);
      any = true;
    }
    // A range with no power of two in it (never in a real device) keeps its least width.
    if (!any) by_width[range->min].push_back(target);
  }
  return {by_width.begin(), by_width.end()};
}

}  // namespace klint
