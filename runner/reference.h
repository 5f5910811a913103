// The checks a [[kernel]] manifest asks of a run: its outputs beside those of
// a reference shader run on the same harness, and beside expected-output
// files. Differences are classified as the seeds' debugging walkthrough does
// (runner::compare).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reflect/reflection.h"
#include "runner/executor.h"
#include "runner/isolate.h"
#include "runner/manifest.h"
#include "runner/observe.h"

namespace klint::runner {

// One output compared: a binding the kernel writes beside the reference's, or
// a binding beside an expected file.
struct OutputCheck {
  std::string against;  // "reference", "expected y_1x16.bin"
  std::string binding;  // the binding's name, or as `expected` names it
  std::string theirs;   // how the difference names the other side: "the reference's", "expected"
  Words words = Words::Integers;
  std::optional<OutputDifference> difference;  // nullopt: they match
};

struct OutputChecks {
  std::vector<OutputCheck> checks;  // in the order made
  // A check that cannot be made (the reference does not compile or run, an
  // expected file is missing or of the wrong size); the checks before it were made.
  std::optional<std::string> error;

  bool all_match() const;
};

// Checks the outputs of `execution`, a run of the kernel on `harness` for
// `shape`. `reference` is the manifest's reference shader, compiled by the
// caller; nullptr where it does not compile.
OutputChecks check_outputs(const KernelManifest& manifest, const Shape& shape, const reflect::EntryPoint& entry,
                           const Harness& harness, const Execution& execution,
                           const std::vector<uint32_t>* reference, const IsolateOptions& isolate);

}  // namespace klint::runner
