// What klint's fuzz targets share (docs/fuzzing.md). A target feeds its
// input through one of klint's front doors and calls fail() for what must
// never happen: libFuzzer and the sanitizers then report the input. Crashes,
// hangs, leaks and sanitizer reports need nothing from the target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "analyzer/frontend.h"
#include "driver/lint.h"

namespace klint::fuzz {

// Prints `what` and aborts, so that libFuzzer keeps the input.
[[noreturn]] void fail(std::string_view what);

// A directory of this process's own, created on first use, for the paths that
// inputs are linted as.
const std::string& scratch_directory();

// Lints `data` as the contents of `name` (in scratch_directory()) with every
// rule selected, then renders the report as text, JSON and SARIF, as klint
// would print it. Fails when any stage threw (an internal-error finding) or a
// finding has no message.
FileReport lint_everything(std::string_view name, Language language, const uint8_t* data, size_t size);

}  // namespace klint::fuzz
