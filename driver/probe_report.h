// `klint run --probe FILE:LINE[:NAME]`: reads the option and prints what each
// invocation recorded as a table; runner/probe.h places the probes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "runner/instrument.h"
#include "runner/probe.h"

namespace klint {

// FILE:LINE[:NAME] for the file being run (`path`, whose text is `text`):
// FILE must be that file, LINE one of its lines, NAME an identifier. Fails
// with a reason, e.g. "--probe 'x.comp': not FILE:LINE[:NAME]".
std::optional<runner::ProbeRequest> parse_probe(const std::string& spec, const std::string& path,
                                                const std::string& text, std::string* error);

// A line per probe saying what it records, then a table of one row per
// invocation of the grid (workgroup, then local index), at most `rows` of
// them, and a column per probe.
void print_probes(std::ostream& out, const runner::ProbedKernel& kernel, std::span<const uint8_t> log, size_t rows);

}  // namespace klint
