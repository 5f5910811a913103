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
//   // fixture-options: --workgroup-size=64 --specialization=BLOCK=32,1=true
//   // fixture-options: --subgroup-size-constant=SUBGROUP_SIZE
// (those three read by the command line's own parser; with a subgroup-size
// constant the fixture is linted once per width and the findings merged).
//
// Notes, the finding's explanation, are pinned the same way:
//   // expect-note: "substring"           a note on this line
//   // expect-note@+2: "substring"        a note two lines down (@-N: up)
//   ; expect-note@-1: "substring"         (SPIR-V assembly)
// An expect-note belongs to the closest `expect` before it in the text (an
// earlier directive on the same line counts), whatever lines either points
// at, and is checked against the notes of the diagnostic that expectation
// matched. Pinning is opt-in per finding and then closed-world: a finding
// with at least one expect-note must have exactly those notes, one note to
// one expect-note, each on the line named, in this file, with the substring
// in its message. A finding without expect-note keeps its notes unchecked.
// Other tests name fixture lines (klint --confirm's verdicts), so write the
// expect-notes after their expect on its own line: no code line moves.
//   x = tile[i + 1];  // expect: shared-memory-race "reads tile[1]" // expect-note@-1: "writes tile[1] here"
//
// For the rules a run can show, the verdict of `klint --confirm` follows the
// rule id (tests/runner/confirm_cli_test.cpp checks it, closed-world):
//   x = tile[i + 1];  // expect: shared-memory-race confirmed "reads tile[1]"
//
// What klint says of the file as a whole (a note on stderr, the `inputs` of
// JSON output) is pinned closed-world too: every such message must match one
// of these, and each of these a message.
//   // expect-file-note: "substring"
//
// Directives are strict: an `expect` or `expect-note` that does not parse,
// carries trailing text, or (expect-note) has no expect before it or an empty
// substring is a fixture error, so a typo cannot silently unpin a finding.
#pragma once

#include <string>
#include <vector>

#include "driver/lint.h"

namespace klint::testing {

struct NoteExpectation {
  uint32_t line = 0;  // where the note must be
  std::string message_substring;
  uint32_t written_on = 0;  // the fixture line the expect-note is written on
};

struct Expectation {
  uint32_t line = 0;
  std::string rule;
  std::string message_substring;
  std::vector<NoteExpectation> notes;  // empty: the finding's notes are unchecked
  // What `klint --confirm` concludes: "confirmed", "not-reproduced",
  // "inconclusive" or "not-runnable"; empty when the fixture names none. Linting ignores it.
  std::string verdict;
};

struct Fixture {
  std::string path;
  std::vector<Expectation> expectations;
  std::vector<std::string> file_notes;  // expect-file-note substrings
  LintOptions options;
  std::vector<std::string> errors;  // malformed expectations or options
};

Fixture parse_fixture(const std::string& path, const std::string& text);

// Lints the fixture and returns one line per mismatch (empty when it passes).
std::vector<std::string> check_fixture(const Fixture& fixture);

// The matching half of check_fixture: the fixture's errors and one line per
// diagnostic, expectation or note that does not match.
std::vector<std::string> match_fixture(const Fixture& fixture, const std::vector<Diagnostic>& diagnostics);

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
