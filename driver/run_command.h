// `klint run FILE`: reads the options and the file's [[kernel]] manifest,
// compiles the kernel, has the runner run it (runner/run.h) and prints what
// each run did.
#pragma once

#include <CLI/CLI.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/frontend.h"

namespace klint {

struct RunOptions {
  std::optional<uint32_t> device;  // nullopt: the CPU device (lavapipe), else device 0
  double timeout_seconds = 10;
  std::optional<uint64_t> seed;  // nullopt: the manifest's, else 1
  std::string grid;              // X[,Y[,Z]] workgroups, as typed; "": the manifest's, else 1,1,1
  std::string shape;             // --shape NAME=VALUE,...: one shape of the manifest; "": its every shape
  std::string specialization;    // --specialization CONSTANT=VALUE,...: by constant_id or name, over the manifest's
  std::string push_constants;    // --push-constants MEMBER=VALUE,...: by member name, over the manifest's
  std::string uniforms;          // --uniforms PATH=VALUE,...: scalar members of uniform blocks, by path
  // --workgroup-size X[,Y[,Z]], as typed: the size the host gives a kernel
  // that declares none, or the dimensions a specialization constant sets, as
  // the lint's --workgroup-size gives it; "": the kernel's own.
  std::string workgroup_size;
  std::optional<std::string> config;  // --config: the klint.toml to read instead of the nearest one
  bool shadow = false;  // --shadow: run instrumented, print races, unwritten reads, indices out of range
  bool time = false;    // --time: print how long the dispatch took
  std::vector<std::string> probes;    // --probe FILE:LINE[:NAME], as typed (driver/probe_report.h)
  std::optional<size_t> probe_rows;   // --probe-rows: invocations a probe table shows (default 64)
};

// Adds the options of `klint run` that are plain strings and flags of
// RunOptions (--grid, --shadow, --time, --shape, --specialization,
// --push-constants, --probe) to its subcommand.
void add_run_options(CLI::App& run, RunOptions& options);

// Prints the device, what the harness guessed, each buffer after the run
// (size, words changed or never written, its first words, guard bytes
// written) and a verdict line; with a manifest, a header line and all that
// for each shape; with probes, a table of the values they recorded before each
// verdict. Returns 0 when every run completed within its buffers, 1
// when one timed out, crashed, lost the device or wrote out of bounds, 2 when
// the file could not be read, compiled or run, the manifest does not fit the
// kernel, or an option is wrong (`klint: error: FILE: reason` on `err`).
int run_file(const std::string& path, const CompileOptions& compile_options, const RunOptions& options,
             std::ostream& out, std::ostream& err);

}  // namespace klint
