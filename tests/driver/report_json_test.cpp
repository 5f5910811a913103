// What the result cache is built on: SHA-256 against the FIPS 180-4 examples,
// and a FileReport written as JSON and read back field by field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "driver/report_json.h"
#include "driver/sha256.h"

namespace klint::testing {
namespace {

using nlohmann::json;

TEST(Sha256, MatchesTheStandardExamples) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PiecesHashLikeTheWhole) {
  std::string text;
  for (int i = 0; i < 300; ++i) text += static_cast<char>(i * 7);
  std::string whole = sha256_hex(text);
  // Every split point around the 64-byte block and the 56-byte padding limit.
  for (size_t split = 0; split <= text.size(); ++split) {
    Sha256 hasher;
    hasher.update(std::string_view(text).substr(0, split)).update(std::string_view(text).substr(split));
    ASSERT_EQ(hasher.hex(), whole) << "split at " << split;
  }
  EXPECT_NE(sha256_hex(text.substr(1)), whole);
}

Location location(std::string file, uint32_t line, uint32_t column) {
  return Location{std::move(file), line, column, column + 4, "excerpt " + std::to_string(line), "token"};
}

FileReport full_report() {
  FileReport report;
  report.path = "shaders/main.comp";
  Finding race = Diagnostic{&kUnusedSuppression, Severity::Warning, "a message", location("shaders/main.comp", 3, 5),
                            {Note{location("inc/common.glsl", 7, 1), "the cause"}, Note{Location{"x.spv"}, "no line"}},
                            "fix it"};
  race.variants = {"TILE=16", "TILE=32"};
  Diagnostic no_rule{nullptr, Severity::Note, "ruleless", Location{"shaders/main.comp"}, {}, {}};
  report.diagnostics = {race, Finding(std::move(no_rule))};
  report.messages = {InputMessage{"shaders/main.comp", "a reason", true}, InputMessage{"b.vert", "skipped", false}};
  Diagnostic hidden{&kInvalidSpirv, Severity::Error, "hidden", location("shaders/main.comp", 9, 2), {}, ""};
  report.suppressed = {SuppressedDiagnostic{
      std::move(hidden), Suppression{"shaders/main.comp", 8, 9, {"invalid-spirv", "other-rule"}, "because"}}};
  report.files = {"shaders/main.comp", "inc/common.glsl"};
  return report;
}

void expect_same(const Location& a, const Location& b) {
  EXPECT_EQ(a.file, b.file);
  EXPECT_EQ(a.line, b.line);
  EXPECT_EQ(a.column, b.column);
  EXPECT_EQ(a.end_column, b.end_column);
  EXPECT_EQ(a.excerpt, b.excerpt);
  EXPECT_EQ(a.token, b.token);
}

void expect_same(const Finding& a, const Finding& b) {
  EXPECT_EQ(a.rule, b.rule);
  EXPECT_EQ(a.severity, b.severity);
  EXPECT_EQ(a.message, b.message);
  expect_same(a.location, b.location);
  ASSERT_EQ(a.notes.size(), b.notes.size());
  for (size_t i = 0; i < a.notes.size(); ++i) {
    expect_same(a.notes[i].location, b.notes[i].location);
    EXPECT_EQ(a.notes[i].message, b.notes[i].message);
  }
  EXPECT_EQ(a.fix_title, b.fix_title);
  EXPECT_EQ(a.variants, b.variants);
}

TEST(ReportJson, KeepsEveryField) {
  FileReport original = full_report();
  std::string error;
  // Through text, as the cache stores it.
  std::optional<FileReport> read = report_from_json(json::parse(report_to_json(original).dump()), &error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->path, original.path);
  ASSERT_EQ(read->diagnostics.size(), 2u);
  expect_same(read->diagnostics[0], original.diagnostics[0]);
  expect_same(read->diagnostics[1], original.diagnostics[1]);
  EXPECT_EQ(read->diagnostics[1].rule, nullptr);
  ASSERT_EQ(read->messages.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(read->messages[i].path, original.messages[i].path);
    EXPECT_EQ(read->messages[i].reason, original.messages[i].reason);
    EXPECT_EQ(read->messages[i].is_error, original.messages[i].is_error);
  }
  ASSERT_EQ(read->suppressed.size(), 1u);
  expect_same(read->suppressed[0].diagnostic, original.suppressed[0].diagnostic);
  const Suppression& suppression = read->suppressed[0].suppression;
  EXPECT_EQ(suppression.file, "shaders/main.comp");
  EXPECT_EQ(suppression.line, 8u);
  EXPECT_EQ(suppression.target_line, 9u);
  EXPECT_EQ(suppression.rules, (std::vector<std::string>{"invalid-spirv", "other-rule"}));
  EXPECT_EQ(suppression.reason, "because");
  EXPECT_EQ(read->files, original.files);
}

// Each damage gives no report and a reason naming what is wrong.
TEST(ReportJson, RejectsWhatItDidNotWrite) {
  json good = report_to_json(full_report());
  std::string error;
  ASSERT_TRUE(report_from_json(good, &error)) << error;
  auto reason = [](const json& damaged) {
    std::string error;
    return report_from_json(damaged, &error) ? std::string("<accepted>") : error;
  };
  json damaged = good;
  damaged["diagnostics"][0]["rule"] = "no-such-rule";
  EXPECT_EQ(reason(damaged), "unknown rule 'no-such-rule'");
  damaged = good;
  damaged["diagnostics"][1]["severity"] = "fatal";
  EXPECT_EQ(reason(damaged), "unknown severity 'fatal'");
  damaged = good;
  damaged["diagnostics"][0]["location"].erase("line");
  EXPECT_EQ(reason(damaged), "'line' is missing");
  damaged = good;
  damaged["diagnostics"][0]["location"]["line"] = -3;
  EXPECT_EQ(reason(damaged), "'line' is not a 32-bit unsigned number");
  damaged = good;
  damaged["diagnostics"][0]["notes"][0]["location"]["column"] = uint64_t{1} << 32;
  EXPECT_EQ(reason(damaged), "'column' is not a 32-bit unsigned number");
  damaged = good;
  damaged["diagnostics"][0]["notes"] = "none";
  EXPECT_EQ(reason(damaged), "'notes' is not an array");
  damaged = good;
  damaged["suppressed"][0]["suppression"]["rules"][1] = 7;
  EXPECT_EQ(reason(damaged), "a suppression's 'rules' is not a string");
  damaged = good;
  damaged["messages"][0]["error"] = "yes";
  EXPECT_EQ(reason(damaged), "a message's 'error' is not true or false");
  damaged = good;
  damaged.erase("files");
  EXPECT_EQ(reason(damaged), "'files' is missing");
  EXPECT_EQ(reason(json::array()), "the report is not an object");
  EXPECT_EQ(reason(json()), "the report is missing");
}

}  // namespace
}  // namespace klint::testing
