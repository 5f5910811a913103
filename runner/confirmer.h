// The runs `klint --confirm` makes of one kernel (runner/confirm.h): the
// harness of each setup it tries, the runs of each (kept, since the findings
// of one kernel shrink along the same steps), shrinking, and the replay and
// reproducer that show a witness again.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/diagnostic.h"
#include "reflect/reflection.h"
#include "runner/confirm.h"
#include "runner/evidence.h"
#include "runner/harness.h"
#include "runner/infer_setup.h"
#include "runner/instrument.h"
#include "runner/manifest.h"
#include "runner/observe.h"
#include "validate/loaded_shader.h"

namespace klint::runner {

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
bool smaller(const Shape& shape, const Shape& than);

// Runs the kernel of one file in the setups a confirmation tries.
class Confirmer {
 public:
  Confirmer(const std::vector<uint32_t>& spirv, const ModuleOrigin& origin, const LoadedShader& shader,
            const reflect::ModuleReflection& module, const reflect::EntryPoint& entry, const KernelManifest* manifest,
            const Inferred* inferred, const ConfirmOptions& options, InstrumentOptions logged);

  // The workgroup sizes to try after the default when findings remain
  // unconfirmed: the first specialized dimension halved and doubled, within
  // kMaxVariantInvocations; first, where a finding is about an index past an
  // array's end (a loop that steps by the workgroup size), one and a half
  // times it, which divides none of the powers of two the default divides.
  std::vector<std::array<uint32_t, 3>> workgroup_variants(const Harness& harness) const;
  // The workgroup size of `harness` with `size` along `axis`, where a
  // specialization constant sets that axis, the size is not the one it has,
  // and the workgroup stays within kMaxVariantInvocations.
  std::optional<std::array<uint32_t, 3>> workgroup_with(const Harness& harness, size_t axis, uint32_t size) const;

  // "shape rows=1 cols=16, grid 2,1,1, workgroup 64,1,1": the workgroup only
  // where a specialization constant sets it.
  std::string setup_text(const Shape& shape, const Harness& harness) const;

  // The harness for a shape (ignored without a manifest or an inferred
  // setup), with the grid overridden where `grid` says.
  std::optional<Harness> harness(const Setup& setup, std::string* error, bool contents = true) const;

  // The runs of one setup at the given sizes at least. A setup run before
  // (the findings of one kernel shrink along the same steps) runs only at the
  // sizes it has not run at yet, and comes with every run it had.
  std::shared_ptr<const Observations> observe(const Harness& harness, const std::vector<uint32_t>& sizes,
                                              std::string* error) const;

  // The runs of a setup run before at every size of `sizes` (on a device
  // other than lavapipe, at all), or nullptr. A harness made without
  // contents finds them.
  std::shared_ptr<const Observations> observed(const Harness& harness, const std::vector<uint32_t>& sizes) const;

  // How setups run at these subgroup sizes.
  ObserveOptions observe_options(const std::vector<uint32_t>& sizes) const;

  // How each of the harness's buffers reads, by its binding's type.
  std::vector<Words> words(const Harness& harness) const;

  // Fewer workgroups first, then smaller shape variables, each halved for as
  // long as the finding still shows; each try runs at the subgroup sizes that
  // showed it only. The workgroup keeps the size that showed the finding:
  // each size is another pipeline, a compile of seconds to a minute for a
  // real kernel, and larger at each halving where the size sets an unrolled
  // loop's trip count (`n / WARP_SIZE`); the witness names its invocations.
  void shrink(RunEvidence evidence, const Covered& lines, Setup& setup, Harness& harness, Found& found) const;

  // The workgroup's specialization constants (the ones confirming runs vary,
  // or all of them) where `harness` gives them other values than their
  // defaults, as constant_id and value.
  std::vector<std::pair<uint32_t, uint32_t>> specialized_workgroup(const Harness& harness,
                                                                   bool varied_only) const;

  // The `klint run` command that shows the witness again, from the folder
  // klint ran in: the setup, and everything that made the module the runs
  // ran (compile options, what the lint gave the pipeline, the manifest's
  // klint.toml), quoted for a POSIX shell.
  std::string replay(const Shape& shape, const Harness& harness, const Found& found, bool lavapipe) const;

  // A klint.toml for the setup that showed the finding, written to `file`:
  // the settings that made the module (as klint.toml keys) and a [[kernel]]
  // table with every expression evaluated at its shape, to replay with
  // --confirm --config. Its paths are relative to its own folder, so that it
  // replays wherever the tree it sits in is copied.
  std::string reproducer(const Diagnostic& d, const Shape& shape, const Harness& harness, const Found& found,
                         const std::filesystem::path& file) const;

  uint64_t seed() const;

  // The bindings separate_registers moved, said with every setup's guesses.
  void say_moved(std::vector<std::string> moved);

  // Whether the workgroup variants include one that divides what the default does not.
  void vary_unevenly(bool uneven);

  // Logs what `logged` says from the next run on, where that is less than
  // before: once the findings that needed every storage access are
  // settled, the others get the log's room. The runs kept were logged
  // otherwise, and are dropped.
  void log_less(InstrumentOptions logged);

 private:
  // What tells the runs of one setup from another's: grid, push constants,
  // shape and specialization.
  static std::string key_of(const Harness& harness);

  static std::vector<int64_t> integers(const Shape& shape);

  // `"SET.BINDING" = elements` for each buffer ending in a runtime array, as
  // the harness sized it: an inferred setup's sizes, for its reproducer.
  std::vector<std::string> runtime_arrays(const Harness& harness) const;

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
  // What the findings need logged: their branches, operations and storage
  // accesses, arrivals, spreads.
  InstrumentOptions logged_;
  // Observations by setup (grid, sizes, push constants, shape, constants):
  // few, since each holds the runs' buffers.
  static constexpr size_t kRemembered = 24;
  mutable std::map<std::string, std::shared_ptr<Observations>> observed_;
  // The module the rules saw, whose indices size an inferred setup's buffers.
  const Module* analyzed_ = nullptr;
  std::vector<std::string> moved_;
};

}  // namespace klint::runner
