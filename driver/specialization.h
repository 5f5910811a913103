// What the host gives a pipeline beyond the module, for linting: the values
// of specialization constants, the workgroup size of a kernel whose source
// leaves it to the host, and which constant holds the subgroup size. The same
// inputs `klint run` takes (--specialization), from the command line and
// klint.toml (docs/configuration.md), applied to the module before it is
// analyzed (validate/loaded_shader.h's ShaderSpecializer).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runner/run.h"
#include "validate/loaded_shader.h"
#include "validate/target.h"

namespace klint {

// Each setting says where it was given, for errors and notes:
// "--specialization BLOCK", "specialization 'BLOCK' (klint.toml:4:17)".
struct SpecializationOption {
  runner::SpecializationSetting setting;  // by constant_id or name
  std::string origin;
  friend bool operator==(const SpecializationOption& a, const SpecializationOption& b) {
    return a.setting.key == b.setting.key && a.setting.value == b.setting.value && a.origin == b.origin;
  }
};

struct GivenWorkgroupSize {
  std::array<uint32_t, 3> size{1, 1, 1};
  std::string origin;  // "--workgroup-size", "workgroup-size (klint.toml:3:18)"
  friend bool operator==(const GivenWorkgroupSize&, const GivenWorkgroupSize&) = default;
};

struct SubgroupSizeConstant {
  std::string key;  // a constant_id or a name
  std::string origin;
  friend bool operator==(const SubgroupSizeConstant&, const SubgroupSizeConstant&) = default;
};

struct Specialization {
  // In order of precedence, lowest first: a later setting of the same
  // constant wins, whether it names the constant by name or by constant_id.
  std::vector<SpecializationOption> constants;
  // Sets the dimensions the host sets: those a specialization constant gives
  // (local_size_x_id), and all three where the source declares no size. A
  // size the source declares stays, with a note where it differs.
  std::optional<GivenWorkgroupSize> workgroup_size;
  // The constant the host sets to the device's subgroup size; the file is
  // then linted once per width the targets run (subgroup_width_jobs).
  std::optional<SubgroupSizeConstant> subgroup_size_constant;
  // The width this lint gives that constant; 0 before subgroup_width_jobs.
  uint32_t subgroup_size = 0;

  bool empty() const { return constants.empty() && !workgroup_size && !subgroup_size_constant; }
  friend bool operator==(const Specialization&, const Specialization&) = default;
};

// Appends `more` to `to`, its workgroup size and subgroup-size constant
// replacing those of `to`: the precedence of klint.toml, its overrides, a
// variant and the command line.
void add_specialization(Specialization& to, const Specialization& more);

// What the command line says: each --specialization's list, --workgroup-size
// and --subgroup-size-constant as typed ("" when not given). Fails with one
// line naming the option and the reason: an item that is not
// CONSTANT=NUMBER, a size that is not X[,Y[,Z]] or is 0.
std::optional<Specialization> command_line_specialization(const std::vector<std::string>& specialization,
                                                          const std::string& workgroup_size,
                                                          const std::string& subgroup_size_constant,
                                                          std::string* error);

// The specializer load_shader applies; empty for an empty Specialization.
// It fails, naming the option and the reason, on a constant the module does
// not have, a value that does not fit the constant's type, and a workgroup
// dimension that two settings give different values.
ShaderSpecializer make_specializer(const Specialization& specialization);

// The subgroup widths `targets` run (validate/targets.h's run_widths: every
// power of two from a target's min to max where its compiler picks the
// width), ascending, each with the targets that run it.
std::vector<std::pair<uint32_t, std::vector<const Target*>>> subgroup_widths(const std::vector<const Target*>& targets);

}  // namespace klint
