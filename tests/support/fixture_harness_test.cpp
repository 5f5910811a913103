// The fixture harness itself: how expect and expect-note lines parse, and that
// a finding's pinned notes fail the fixture when they are missing, extra, or
// pinned to another finding.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rules/rule.h"
#include "tests/support/fixture.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

const std::string kPath = "/fixtures/bad_example.comp";

Note note_at(uint32_t line, std::string message) { return {Location{.file = kPath, .line = line}, std::move(message)}; }

Diagnostic finding(std::string_view rule, uint32_t line, std::string message, std::vector<Note> notes) {
  Diagnostic d;
  d.rule = RuleRegistry::find(rule);
  d.message = std::move(message);
  d.location = Location{.file = kPath, .line = line};
  d.notes = std::move(notes);
  return d;
}

// Lines 3 and 6 hold two barrier findings; their notes point at lines 2 and 5.
const std::string kTwoFindings = R"(void main() {
    if (i < 16) {
        barrier();  // expect: barrier-in-divergent-control-flow
    }
    // expect@+1: barrier-in-divergent-control-flow "gl_LocalInvocationID"
    if (i % 2 == 0) barrier();
}
)";

std::vector<Diagnostic> two_findings() {
  const std::string why = "barrier in control flow that depends on gl_LocalInvocationID";
  return {finding("barrier-in-divergent-control-flow", 3, why,
                  {note_at(2, "this branch depends on 'i'"), note_at(1, "'i' differs between invocations")}),
          finding("barrier-in-divergent-control-flow", 6, why, {note_at(6, "this branch depends on 'i % 2'")})};
}

// `text` with `line` (1-based) replaced, so each test reads as the one edit it makes.
std::string with_line(const std::string& text, size_t line, const std::string& replacement) {
  size_t begin = 0;
  for (size_t n = 1; n < line; ++n) begin = text.find('\n', begin) + 1;
  return text.substr(0, begin) + replacement + text.substr(text.find('\n', begin));
}

std::string problems_text(const std::vector<std::string>& problems) {
  std::string out;
  for (const std::string& p : problems) out += p + "\n";
  return out;
}

TEST(FixtureHarness, WithoutExpectNoteTheNotesAreUnchecked) {
  Fixture fixture = parse_fixture(kPath, kTwoFindings);
  ASSERT_TRUE(fixture.errors.empty()) << problems_text(fixture.errors);
  ASSERT_EQ(fixture.expectations.size(), 2u);
  EXPECT_TRUE(fixture.expectations[0].notes.empty());
  EXPECT_TRUE(match_fixture(fixture, two_findings()).empty());
}

TEST(FixtureHarness, ANoteBelongsToTheClosestExpectBeforeIt) {
  Fixture fixture = parse_fixture(
      kPath, with_line(kTwoFindings, 4, R"(    } // expect-note@-2: "depends on 'i'" // expect-note@-3: "differs")"));
  ASSERT_TRUE(fixture.errors.empty()) << problems_text(fixture.errors);
  ASSERT_EQ(fixture.expectations.size(), 2u);
  const std::vector<NoteExpectation>& notes = fixture.expectations[0].notes;
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].line, 2u);
  EXPECT_EQ(notes[0].message_substring, "depends on 'i'");
  EXPECT_EQ(notes[0].written_on, 4u);
  EXPECT_EQ(notes[1].line, 1u);
  EXPECT_TRUE(fixture.expectations[1].notes.empty());
  EXPECT_TRUE(match_fixture(fixture, two_findings()).empty()) << problems_text(match_fixture(fixture, two_findings()));

  // After an expect on the same line, a note is that expectation's.
  fixture = parse_fixture(
      kPath, with_line(kTwoFindings, 3,
                       R"(  barrier();  // expect: barrier-in-divergent-control-flow // expect-note@-1: "depends on 'i'")"));
  ASSERT_TRUE(fixture.errors.empty()) << problems_text(fixture.errors);
  ASSERT_EQ(fixture.expectations[0].notes.size(), 1u);
  EXPECT_EQ(fixture.expectations[0].notes[0].line, 2u);
}

TEST(FixtureHarness, AllPinnedNotesMatchedPasses) {
  std::string text =
      with_line(kTwoFindings, 4, R"(    } // expect-note@-2: "depends on 'i'" // expect-note@-3: "'i' differs")");
  text = with_line(text, 6, R"(    if (i % 2 == 0) barrier(); // expect-note: "depends on 'i % 2'")");
  Fixture fixture = parse_fixture(kPath, text);
  ASSERT_TRUE(fixture.errors.empty()) << problems_text(fixture.errors);
  EXPECT_EQ(problems_text(match_fixture(fixture, two_findings())), "");
}

TEST(FixtureHarness, AMissingNoteFails) {
  std::string text = with_line(
      kTwoFindings, 6, R"(    if (i % 2 == 0) barrier(); // expect-note: "depends on 'i % 2'" // expect-note@-5: "loaded from")");
  std::vector<std::string> problems = match_fixture(parse_fixture(kPath, text), two_findings());
  ASSERT_EQ(problems.size(), 1u) << problems_text(problems);
  EXPECT_EQ(problems[0], "missing note: " + kPath + ":1: \"loaded from\" (expect-note on line 6) of the finding at " +
                             kPath + ":6 [barrier-in-divergent-control-flow]");

  // The right text on the wrong line is missing too.
  text = with_line(kTwoFindings, 6, R"(    if (i % 2 == 0) barrier(); // expect-note@-1: "depends on 'i % 2'")");
  problems = match_fixture(parse_fixture(kPath, text), two_findings());
  ASSERT_EQ(problems.size(), 2u) << problems_text(problems);
  EXPECT_EQ(problems[0].rfind("missing note: " + kPath + ":5: \"depends on 'i % 2'\"", 0), 0u) << problems[0];
  EXPECT_EQ(problems[1].rfind("unexpected note: " + kPath + ":6: note: this branch depends on 'i % 2'", 0), 0u)
      << problems[1];
}

TEST(FixtureHarness, AnUnexpectedNoteFails) {
  // The first finding has two notes; pinning one leaves the other unexpected.
  std::string text = with_line(kTwoFindings, 4, R"(    } // expect-note@-2: "depends on 'i'")");
  std::vector<std::string> problems = match_fixture(parse_fixture(kPath, text), two_findings());
  ASSERT_EQ(problems.size(), 1u) << problems_text(problems);
  EXPECT_EQ(problems[0], "unexpected note: " + kPath + ":1: note: 'i' differs between invocations (of the finding at " +
                             kPath + ":3 [barrier-in-divergent-control-flow], whose notes are pinned)");

  // One expect-note pins one note: two cannot share it.
  text = with_line(kTwoFindings, 4, R"(    } // expect-note@-2: "'i'" // expect-note@-2: "'i'")");
  problems = match_fixture(parse_fixture(kPath, text), two_findings());
  ASSERT_EQ(problems.size(), 2u) << problems_text(problems);
  EXPECT_EQ(problems[0].rfind("missing note: " + kPath + ":2: \"'i'\" (expect-note on line 4)", 0), 0u) << problems[0];
  EXPECT_EQ(problems[1].rfind("unexpected note: " + kPath + ":1:", 0), 0u) << problems[1];
}

TEST(FixtureHarness, ANoteAttachedToTheWrongFindingFails) {
  // The first finding's notes, written after the second finding's expect,
  // belong to the second finding and do not match there.
  std::string text =
      with_line(kTwoFindings, 7, R"(} // expect-note@-5: "depends on 'i'" // expect-note@-6: "'i' differs")");
  std::vector<std::string> problems = match_fixture(parse_fixture(kPath, text), two_findings());
  ASSERT_EQ(problems.size(), 3u) << problems_text(problems);
  const std::string second = "of the finding at " + kPath + ":6 [barrier-in-divergent-control-flow]";
  EXPECT_NE(problems[0].find("missing note: " + kPath + ":2: \"depends on 'i'\""), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find(second), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("missing note: " + kPath + ":1: \"'i' differs\""), std::string::npos) << problems[1];
  EXPECT_EQ(problems[2].rfind("unexpected note: " + kPath + ":6: note: this branch depends on 'i % 2' (" + second, 0),
            0u)
      << problems[2];
}

TEST(FixtureHarness, PinnedNotesChooseBetweenFindingsOnOneLine) {
  // Two findings meet both expectations. The first expectation pins the
  // second finding's note: taken in order, it would go to the first finding
  // and fail; it goes to the finding whose notes it pins.
  const std::string text = R"(// expect@+1: barrier-in-divergent-control-flow // expect-note@+1: "second"
barrier(); // expect: barrier-in-divergent-control-flow
)";
  std::vector<Diagnostic> findings{finding("barrier-in-divergent-control-flow", 2, "m", {note_at(2, "first")}),
                                   finding("barrier-in-divergent-control-flow", 2, "m", {note_at(2, "second")})};
  EXPECT_EQ(problems_text(match_fixture(parse_fixture(kPath, text), findings)), "");
}

TEST(FixtureHarness, MalformedDirectivesAreFixtureErrors) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"// expect-note: \"no expect before it\"\n", "line 1: expect-note with no expect before it"},
      {"x; // expect: shared-memory-race\n// expect-note: unquoted\n", "line 2: malformed expect-note"},
      {"x; // expect: shared-memory-race\n// expect-note@2: \"no sign\"\n", "line 2: malformed expect-note"},
      {"x; // expect: shared-memory-race\n// expect-note: \"a\" trailing\n", "line 2: malformed expect-note"},
      {"x; // expect: shared-memory-race\n// expect-notes: \"a\"\n", "line 2: malformed expect"},
      {"x; // expect: shared-memory-race\n// expect-note: \"\"\n", "line 2: expect-note with an empty substring"},
      {"x; // expect: shared-memory-race\n// expect-note@-3: \"before line 1\"\n", "line 2: '// expect-note@-3"},
      {"x; // expect: Shared-Memory-Race\n", "line 1: malformed expect"},
      {"OpReturn ; expect: shared-memory-race\n; expect-note \"no colon\"\n", "line 2: malformed expect-note"},
  };
  for (const auto& [text, error] : cases) {
    Fixture fixture = parse_fixture(kPath, text);
    ASSERT_EQ(fixture.errors.size(), 1u) << text << problems_text(fixture.errors);
    EXPECT_EQ(fixture.errors[0].rfind(error, 0), 0u) << text << fixture.errors[0];
    // A fixture error fails the fixture, whatever the findings.
    EXPECT_FALSE(match_fixture(fixture, {}).empty()) << text;
  }
  // The SPIR-V assembly spelling parses like the GLSL one.
  Fixture fixture = parse_fixture(kPath, "OpReturn ; expect: shared-memory-race\n; expect-note@-1: \"here\"\n");
  ASSERT_TRUE(fixture.errors.empty()) << problems_text(fixture.errors);
  ASSERT_EQ(fixture.expectations.at(0).notes.size(), 1u);
  EXPECT_EQ(fixture.expectations[0].notes[0].line, 1u);
}

// The same through klint itself: the notes a real finding carries.
class FixtureHarnessLint : public ScratchDirTest {};

TEST_F(FixtureHarnessLint, PinsTheNotesOfARealFinding) {
  const std::string shader = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    x[tid] = tile[(tid + 1) % 64];  // expect: shared-memory-race "invocation 0 reads tile[1]" NOTE
}
)";
  auto lint = [&](const std::string& note) {
    std::string text = shader;
    text.replace(text.find("NOTE"), 4, note);
    std::string path = write("bad_race.comp", text).string();
    return problems_text(check_fixture(parse_fixture(path, text)));
  };
  EXPECT_EQ(lint(R"(// expect-note@-1: "invocation 1 writes tile[1] here")"), "");
  EXPECT_NE(lint(R"(// expect-note: "invocation 1 writes tile[1] here")").find("missing note: "), std::string::npos);
  EXPECT_NE(lint(R"(// expect-note@-1: "invocation 2 writes")").find("unexpected note: "), std::string::npos);
}

}  // namespace
}  // namespace klint::testing
