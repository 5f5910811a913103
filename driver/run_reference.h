// The checks a [[kernel]] manifest asks of a run: its outputs beside those of
// a reference shader run on the same harness, and beside expected-output
// files. Differences are classified as the seeds' debugging walkthrough does
// (runner::compare).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/frontend.h"
#include "reflect/reflection.h"
#include "runner/executor.h"
#include "runner/isolate.h"
#include "runner/manifest.h"

namespace klint {

// Prints a line per output checked ("reference: 'y' matches", "expected
// y_1x16.bin: 'y' differs: word 3 is 1.5, expected 1.7 (...)") and returns
// whether all matched; nullopt with `error` when a check cannot be made (the
// reference does not compile or run, an expected file is missing or of the
// wrong size).
std::optional<bool> check_outputs(const runner::KernelManifest& manifest, const runner::Shape& shape,
                                  const reflect::EntryPoint& entry, const runner::Harness& harness,
                                  const runner::Execution& execution, const CompileOptions& compile_options,
                                  const runner::IsolateOptions& isolate, std::ostream& out, std::string* error);

}  // namespace klint
