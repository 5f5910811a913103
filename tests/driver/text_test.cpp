#include "driver/output/text.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

namespace klint {
namespace {

constexpr RuleInfo kTestRule{
    .id = "test-rule",
    .category = Category::Correctness,
    .default_severity = Severity::Error,
};

constexpr const char* kShader =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "void main() {\n"
    "    if (gl_LocalInvocationID.x < 16) {\n"
    "        barrier();\n"
    "    }\n"
    "}\n";

Finding make_diagnostic(Location location, std::string message = "barrier in divergent control flow") {
  Finding diagnostic;
  diagnostic.rule = &kTestRule;
  diagnostic.severity = Severity::Error;
  diagnostic.message = std::move(message);
  diagnostic.location = std::move(location);
  return diagnostic;
}

Location at(uint32_t line, uint32_t column = 0, uint32_t end_column = 0, std::string file = "a.comp") {
  return Location{.file = std::move(file), .line = line, .column = column, .end_column = end_column, .excerpt = {}};
}

class TextOutput : public ::testing::Test {
 protected:
  void SetUp() override { sources_.add("a.comp", kShader); }

  std::string print(const Finding& diagnostic, bool color = false) {
    std::ostringstream out;
    print_diagnostic(out, diagnostic, sources_, TextStyle{.color = color});
    return out.str();
  }
  // Prints a diagnostic at `column`..`end_column` of a one-line file holding `line`.
  std::string print_line(const std::string& line, uint32_t column, uint32_t end_column = 0) {
    sources_.add("line.comp", line + "\n");
    return print(make_diagnostic(at(1, column, end_column, "line.comp"), "m"));
  }

  SourceCache sources_;
};

TEST_F(TextOutput, LineAndColumnShowsSourceAndCaret) {
  EXPECT_EQ(print(make_diagnostic(at(5, 9))),
            "a.comp:5:9: error: barrier in divergent control flow [test-rule]\n"
            "    5 |         barrier();\n"
            "      |         ^\n");
}

TEST_F(TextOutput, EndColumnUnderlinesTheRange) {
  EXPECT_EQ(print(make_diagnostic(at(5, 9, 18))),
            "a.comp:5:9: error: barrier in divergent control flow [test-rule]\n"
            "    5 |         barrier();\n"
            "      |         ^~~~~~~~~\n");
}

TEST_F(TextOutput, LineOnlyPutsCaretUnderFirstNonBlank) {
  EXPECT_EQ(print(make_diagnostic(at(4))),
            "a.comp:4: error: barrier in divergent control flow [test-rule]\n"
            "    4 |     if (gl_LocalInvocationID.x < 16) {\n"
            "      |     ^\n");
}

TEST_F(TextOutput, LineOnlyUnderlinesTheTokenAsAWholeIdentifier) {
  Location location = at(4);
  location.token = "gl_LocalInvocationID";
  EXPECT_EQ(print(make_diagnostic(location)),
            "a.comp:4: error: barrier in divergent control flow [test-rule]\n"
            "    4 |     if (gl_LocalInvocationID.x < 16) {\n"
            "      |         ^~~~~~~~~~~~~~~~~~~~\n");
  sources_.add("b.comp", "    memoryBarrierShared(); barrier();\n");
  Location whole{.file = "b.comp", .line = 1, .column = 0, .end_column = 0, .excerpt = {}, .token = "barrier"};
  EXPECT_EQ(print(make_diagnostic(whole, "m")),
            "b.comp:1: error: m [test-rule]\n"
            "    1 |     memoryBarrierShared(); barrier();\n"
            "      |                            ^~~~~~~\n");
  Location absent = at(4);
  absent.token = "barrier";
  EXPECT_NE(print(make_diagnostic(absent)).find("      |     ^\n"), std::string::npos) << "falls back to the line";
}

TEST_F(TextOutput, NoLineShowsExcerptWithoutCaret) {
  Location location{.file = "a.spv", .line = 0, .column = 0, .end_column = 0,
                    .excerpt = "OpControlBarrier %uint_2 %uint_2 %uint_264"};
  EXPECT_EQ(print(make_diagnostic(location)),
            "a.spv: error: barrier in divergent control flow [test-rule]\n"
            "      | OpControlBarrier %uint_2 %uint_2 %uint_264\n");
}

TEST_F(TextOutput, MultiLineExcerptGetsOneGutterLineEach) {
  Location location{.file = "a.spv", .line = 0, .column = 0, .end_column = 0, .excerpt = "%1 = OpLabel\nOpReturn"};
  EXPECT_EQ(print(make_diagnostic(location)),
            "a.spv: error: barrier in divergent control flow [test-rule]\n"
            "      | %1 = OpLabel\n"
            "      | OpReturn\n");
}

TEST_F(TextOutput, NoLocationAtAllIsOneLine) {
  Finding diagnostic = make_diagnostic(Location{}, "internal error in rule");
  diagnostic.rule = nullptr;
  EXPECT_EQ(print(diagnostic), "error: internal error in rule\n");
}

TEST_F(TextOutput, LineMissingFromFileFallsBackToExcerpt) {
  Location location = at(99, 1);
  location.excerpt = "OpReturn";
  EXPECT_EQ(print(make_diagnostic(location)),
            "a.comp:99:1: error: barrier in divergent control flow [test-rule]\n"
            "      | OpReturn\n");
}

TEST_F(TextOutput, NotesAndHelpFollowTheDiagnostic) {
  Finding diagnostic = make_diagnostic(at(5, 9, 18));
  diagnostic.severity = Severity::Warning;
  diagnostic.notes.push_back({at(4, 9, 36), "this branch depends on gl_LocalInvocationID"});
  diagnostic.notes.push_back({Location{}, "invocations of a workgroup must all reach a barrier"});
  diagnostic.fix_title = "move the barrier out of the branch";
  EXPECT_EQ(print(diagnostic),
            "a.comp:5:9: warning: barrier in divergent control flow [test-rule]\n"
            "    5 |         barrier();\n"
            "      |         ^~~~~~~~~\n"
            "a.comp:4:9: note: this branch depends on gl_LocalInvocationID\n"
            "    4 |     if (gl_LocalInvocationID.x < 16) {\n"
            "      |         ^~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
            "note: invocations of a workgroup must all reach a barrier\n"
            "  help: move the barrier out of the branch\n");
}

TEST_F(TextOutput, GutterWidensForLongLineNumbers) {
  std::string text;
  for (int i = 1; i < 123456; ++i) text += "x\n";
  text += "  y = 1;\n";
  sources_.add("long.comp", text);
  EXPECT_EQ(print(make_diagnostic(at(123456, 3, 0, "long.comp"), "m")),
            "long.comp:123456:3: error: m [test-rule]\n"
            " 123456 |   y = 1;\n"
            "        |   ^\n");
}

TEST_F(TextOutput, TabsExpandSoTheCaretLinesUp) {
  // Byte 3 ('b') follows a tab that fills columns 1..7.
  EXPECT_EQ(print_line("a\tb = 1;", 3),
            "line.comp:1:3: error: m [test-rule]\n"
            "    1 | a       b = 1;\n"
            "      |         ^\n");
}

TEST_F(TextOutput, ColumnJustPastTheEndMarksTheLineEnd) {
  EXPECT_EQ(print_line("x = 1", 6),
            "line.comp:1:6: error: m [test-rule]\n"
            "    1 | x = 1\n"
            "      |      ^\n");
  EXPECT_EQ(print_line("x = 1", 40),
            "line.comp:1:40: error: m [test-rule]\n"
            "    1 | x = 1\n"
            "      |      ^\n");
}

TEST_F(TextOutput, EndColumnPastTheEndStopsAtTheLineEnd) {
  EXPECT_EQ(print_line("x = 1", 1, 50),
            "line.comp:1:1: error: m [test-rule]\n"
            "    1 | x = 1\n"
            "      | ^~~~~\n");
}

TEST_F(TextOutput, ControlBytesAreEscapedAndShiftTheCaret) {
  // ESC would start a terminal escape sequence; it is shown as four characters.
  EXPECT_EQ(print_line("a\x1b[2Jb", 6),
            "line.comp:1:6: error: m [test-rule]\n"
            "    1 | a\\x1B[2Jb\n"
            "      |         ^\n");
}

TEST_F(TextOutput, Utf8IsKeptButInvalidBytesAndBidiControlsAreEscaped) {
  // "é" is one column; \xFF is not UTF-8; U+202E (right-to-left override) hides code.
  EXPECT_EQ(print_line("\xc3\xa9 \xff \xe2\x80\xae x", 10),
            "line.comp:1:10: error: m [test-rule]\n"
            "    1 | \xc3\xa9 \\xFF <U+202E> x\n"
            "      | " + std::string(16, ' ') + "^\n");
}

TEST_F(TextOutput, MessagesAreEscapedToo) {
  Finding diagnostic = make_diagnostic(at(0, 0, 0, "a\x1b.comp"), "bad\x07 name\nsecond line");
  EXPECT_EQ(print(diagnostic), "a\\x1B.comp: error: bad\\x07 name\\x0Asecond line [test-rule]\n");
}

TEST_F(TextOutput, LongLinesAreTrimmedAroundTheColumn) {
  std::string line = std::string(500, 'a');
  line[249] = 'X';
  std::string output = print_line(line, 250, 252);
  // 40 columns of context before the caret, 160 shown, "..." on both cut sides.
  std::string expected_line = "..." + std::string(40, 'a') + "X" + std::string(119, 'a') + "...";
  EXPECT_EQ(output,
            "line.comp:1:250: error: m [test-rule]\n"
            "    1 | " + expected_line + "\n"
            "      | " + std::string(43, ' ') + "^~\n");
}

TEST_F(TextOutput, LongLinesNearTheirStartAreCutOnlyAtTheEnd) {
  std::string output = print_line(std::string(250, 'b'), 5);
  EXPECT_EQ(output,
            "line.comp:1:5: error: m [test-rule]\n"
            "    1 | " + std::string(160, 'b') + "...\n"
            "      |     ^\n");
}

TEST_F(TextOutput, ColorsFollowClang) {
  Finding diagnostic = make_diagnostic(at(5, 9, 11));
  diagnostic.notes.push_back({at(4), "from here"});
  diagnostic.fix_title = "fix it";
  EXPECT_EQ(print(diagnostic, /*color=*/true),
            "\x1b[1ma.comp:5:9:\x1b[0m \x1b[1;31merror:\x1b[0m "
            "\x1b[1mbarrier in divergent control flow [test-rule]\x1b[0m\n"
            "    5 |         barrier();\n"
            "      |         \x1b[1;32m^~\x1b[0m\n"
            "\x1b[1ma.comp:4:\x1b[0m \x1b[1;36mnote:\x1b[0m \x1b[1mfrom here\x1b[0m\n"
            "    4 |     if (gl_LocalInvocationID.x < 16) {\n"
            "      |     \x1b[1;32m^\x1b[0m\n"
            "  \x1b[1mhelp:\x1b[0m fix it\n");
}

TEST_F(TextOutput, WarningIsMagentaWhenColored) {
  Finding diagnostic = make_diagnostic(at(0), "w");
  diagnostic.severity = Severity::Warning;
  EXPECT_EQ(print(diagnostic, true),
            "\x1b[1ma.comp:\x1b[0m \x1b[1;35mwarning:\x1b[0m \x1b[1mw [test-rule]\x1b[0m\n");
}

std::string input_message(InputMessage message, bool color = false) {
  std::ostringstream out;
  print_input_message(out, message, TextStyle{.color = color});
  return out.str();
}

TEST(TextInputMessage, ErrorAndNote) {
  EXPECT_EQ(input_message({"missing.comp", "no such file or directory", true}),
            "klint: error: missing.comp: no such file or directory\n");
  EXPECT_EQ(input_message({"a.vert", "not a compute shader (vertex stage); skipped", false}),
            "klint: note: a.vert: not a compute shader (vertex stage); skipped\n");
  EXPECT_EQ(input_message({"x", "why", true}, true), "klint: \x1b[1;31merror:\x1b[0m \x1b[1mx: why\x1b[0m\n");
}

std::string summary(const std::vector<Severity>& severities, size_t files, size_t input_errors) {
  std::vector<Finding> diagnostics;
  for (Severity severity : severities) {
    Finding diagnostic = make_diagnostic(Location{});
    diagnostic.severity = severity;
    diagnostics.push_back(diagnostic);
  }
  std::ostringstream out;
  print_summary(out, diagnostics, files, input_errors, TextStyle{});
  return out.str();
}

TEST(TextSummary, CleanRunPrintsNothingUnlessAsked) {
  EXPECT_EQ(summary({}, 3, 0), "");
  std::ostringstream out;
  print_summary(out, {}, 12, 0, TextStyle{}, /*show_clean=*/true);
  EXPECT_EQ(out.str(), "checked 12 files: no findings\n");
}

TEST(TextSummary, CountsArePluralisedAndZeroesOmitted) {
  using enum Severity;
  EXPECT_EQ(summary({Error}, 1, 0), "1 error in 1 file\n");
  EXPECT_EQ(summary({Warning, Warning}, 2, 0), "2 warnings in 2 files\n");
  EXPECT_EQ(summary({Note, Error, Warning, Error, Note, Note}, 3, 0), "2 errors, 1 warning, 3 notes in 3 files\n");
  EXPECT_EQ(summary({Note}, 1, 0), "1 note in 1 file\n");
}

TEST(TextSummary, InputErrorsAreAppended) {
  EXPECT_EQ(summary({Severity::Warning}, 1, 1), "1 warning in 1 file (1 input error)\n");
  EXPECT_EQ(summary({}, 2, 2), "checked 2 files: no findings (2 input errors)\n");
  // A broken configuration lints nothing, which must not read as a pass.
  EXPECT_EQ(summary({}, 0, 1), "nothing linted (1 input error)\n");
}

TEST(TextSummary, BoldWhenColored) {
  std::vector<Finding> diagnostics{make_diagnostic(Location{})};
  std::ostringstream out;
  print_summary(out, diagnostics, 1, 0, TextStyle{.color = true});
  EXPECT_EQ(out.str(), "\x1b[1m1 error in 1 file\x1b[0m\n");
}

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~ScopedEnv() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(TextUseColor, ExplicitModesWin) {
  ScopedEnv no_color("NO_COLOR", "1");
  EXPECT_TRUE(use_color(ColorMode::Always, -1));
  EXPECT_FALSE(use_color(ColorMode::Never, STDOUT_FILENO));
}

TEST(TextUseColor, AutoNeedsATerminal) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ScopedEnv no_color("NO_COLOR", nullptr);
  ScopedEnv term("TERM", "xterm-256color");
  EXPECT_FALSE(use_color(ColorMode::Auto, fds[1]));
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(TextUseColor, AutoHonoursNoColorAndDumbTerminals) {
  // Whether or not stderr is a terminal here, these settings must switch colour off.
  {
    ScopedEnv no_color("NO_COLOR", "1");
    ScopedEnv term("TERM", "xterm");
    EXPECT_FALSE(use_color(ColorMode::Auto, STDERR_FILENO));
  }
  {
    ScopedEnv no_color("NO_COLOR", nullptr);
    ScopedEnv term("TERM", "dumb");
    EXPECT_FALSE(use_color(ColorMode::Auto, STDERR_FILENO));
  }
  {
    // An empty NO_COLOR does not count (no-color.org).
    ScopedEnv no_color("NO_COLOR", "");
    ScopedEnv term("TERM", "xterm");
    EXPECT_EQ(use_color(ColorMode::Auto, STDERR_FILENO), ::isatty(STDERR_FILENO) == 1);
  }
}

}  // namespace
}  // namespace klint
