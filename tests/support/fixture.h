// Closed-world rule fixtures: a shader with inline expectations.
//
//   barrier();                       // expect: barrier-in-divergent-control-flow
//   // expect@+1: rule-id "message substring"
//   ; expect: rule-id                 (SPIR-V assembly)
//
// Every diagnostic must match an expectation and every expectation a
// diagnostic. A fixture may set options on a line of its own:
//   // fixture-options: --max-shared-memory=16384 -DTILE=32 --target-env=vulkan1.1
//   // fixture-options: --target=apple-m1,nvidia-ampere
#pragma once

#include <string>
#include <vector>

#include "driver/lint.h"

namespace klint::testing {

struct Expectation {
  uint32_t line = 0;
  std::string rule;
  std::string message_substring;
};

struct Fixture {
  std::string path;
  std::vector<Expectation> expectations;
  LintOptions options;
  std::vector<std::string> errors;  // malformed expectations or options
};

Fixture parse_fixture(const std::string& path, const std::string& text);

// Lints the fixture and returns one line per mismatch (empty when it passes).
std::vector<std::string> check_fixture(const Fixture& fixture);

// Every fixture file under `directory` (recursively), sorted.
std::vector<std::string> fixture_files(const std::string& directory);

// Every rule fixture, clean kernel and example: the shaders whole-corpus tests run on.
std::vector<std::string> corpus_shaders();

// A gtest parameter name for a shader path, relative to the source tree.
std::string shader_test_name(const std::string& path);

// Reads and compiles a corpus shader with its fixture options.
struct CompiledFixture {
  Fixture fixture;
  CompiledShader compiled;
};
CompiledFixture compile_fixture(const std::string& path);

}  // namespace klint::testing
