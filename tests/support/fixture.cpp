#include "tests/support/fixture.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

#include "driver/specialization.h"
#include "driver/variants.h"
#include "validate/targets.h"

namespace klint::testing {

namespace {

// Where a directive starts: a comment marker, then `expect` or `expect-note`
// as a whole word. From there to the next directive on the line (or its end)
// must parse in full.
const std::regex kDirective(R"((?://|;)\s*expect(-note)?(?![A-Za-z0-9_]))");
const std::regex kExpect(
    R"((?://|;)\s*expect(?:@([+-]\d+))?:\s*([a-z0-9-]+)(?:\s+(confirmed|not-reproduced|not-runnable|inconclusive))?(?:\s+\"([^\"]*)\")?\s*)");
const std::regex kExpectNote(R"((?://|;)\s*expect-note(?:@([+-]\d+))?:\s*\"([^\"]*)\"\s*)");

// Reads the expect and expect-note directives of one line, in text order.
void parse_directives(const std::string& line, uint32_t number, Fixture& fixture) {
  std::smatch start;
  for (auto pos = line.cbegin(); std::regex_search(pos, line.cend(), start, kDirective); pos = start[0].second) {
    std::smatch next;
    auto end = std::regex_search(start[0].second, line.cend(), next, kDirective) ? next[0].first : line.cend();
    bool is_note = start[1].matched;
    std::string directive(start[0].first, end);
    std::smatch m;
    if (!std::regex_match(start[0].first, end, m, is_note ? kExpectNote : kExpect)) {
      fixture.errors.push_back(fmt::format("line {}: malformed {}: '{}'", number, is_note ? "expect-note" : "expect",
                                           directive));
      continue;
    }
    int target = static_cast<int>(number) + (m[1].matched ? std::stoi(m[1].str()) : 0);
    if (target < 1) {
      fixture.errors.push_back(fmt::format("line {}: '{}' points before the first line", number, directive));
      continue;
    }
    if (!is_note) {
      fixture.expectations.push_back(
          {static_cast<uint32_t>(target), m[2].str(), m[4].matched ? m[4].str() : "", {}, m[3].matched ? m[3].str() : ""});
    } else if (fixture.expectations.empty()) {
      fixture.errors.push_back(fmt::format("line {}: expect-note with no expect before it: '{}'", number, directive));
    } else if (m[2].str().empty()) {
      fixture.errors.push_back(fmt::format("line {}: expect-note with an empty substring pins nothing", number));
    } else {
      fixture.expectations.back().notes.push_back({static_cast<uint32_t>(target), m[2].str(), number});
    }
  }
}

}  // namespace

Fixture parse_fixture(const std::string& path, const std::string& text) {
  Fixture fixture;
  fixture.path = path;
  fixture.options.compile.force_compute = false;
  static const std::regex kOptions(R"((?://|;)\s*fixture-options:(.*))");
  static const std::regex kFileNote(R"((?://|;)\s*expect-file-note:\s*\"([^\"]+)\"\s*$)");
  std::istringstream lines(text);
  std::string line;
  for (uint32_t number = 1; std::getline(lines, line); ++number) {
    std::smatch match;
    if (line.find("expect-file-note") != std::string::npos) {
      if (std::regex_search(line, match, kFileNote)) fixture.file_notes.push_back(match[1].str());
      else fixture.errors.push_back(fmt::format("line {}: malformed expect-file-note: '{}'", number, line));
      continue;
    }
    if (std::regex_search(line, match, kOptions)) {
      std::istringstream words(match[1].str());
      std::string word;
      while (words >> word) {
        if (word.rfind("--max-shared-memory=", 0) == 0) {
          fixture.options.rule_options.max_shared_memory = std::stoull(word.substr(20));
        } else if (word.rfind("-D", 0) == 0) {
          auto equals = word.find('=');
          fixture.options.compile.defines.emplace_back(word.substr(2, equals == std::string::npos ? equals : equals - 2),
                                                       equals == std::string::npos ? "" : word.substr(equals + 1));
        } else if (word.rfind("--target=", 0) == 0) {
          fixture.options.rule_options.targets.clear();
          fixture.options.rule_options.targets_declared = true;
          std::string names = word.substr(9);
          for (size_t begin = 0; begin <= names.size();) {
            size_t end = std::min(names.find(',', begin), names.size());
            std::string name = names.substr(begin, end - begin);
            if (const Target* target = find_target(name)) fixture.options.rule_options.targets.push_back(target);
            else fixture.errors.push_back(fmt::format("line {}: unknown target '{}'", number, name));
            begin = end + 1;
          }
        } else if (word.starts_with("--specialization=") || word.starts_with("--workgroup-size=") ||
                   word.starts_with("--subgroup-size-constant=")) {
          // The command line's own reading of these options.
          const size_t equals = word.find('=');
          const std::string option = word.substr(0, equals), value = word.substr(equals + 1);
          std::string error;
          std::optional<Specialization> given = command_line_specialization(
              option == "--specialization" ? std::vector<std::string>{value} : std::vector<std::string>{},
              option == "--workgroup-size" ? value : "", option == "--subgroup-size-constant" ? value : "", &error);
          if (given) add_specialization(fixture.options.specialization, *given);
          else fixture.errors.push_back(fmt::format("line {}: {}", number, error));
        } else if (word.rfind("--target-env=", 0) == 0) {
          auto env = parse_target_env(word.substr(13));
          if (env) fixture.options.compile.target_env = *env;
          else fixture.errors.push_back(fmt::format("line {}: bad target env '{}'", number, word));
        } else {
          fixture.errors.push_back(fmt::format("line {}: unknown fixture option '{}'", number, word));
        }
      }
      continue;
    }
    parse_directives(line, number, fixture);
  }
  return fixture;
}

namespace {

bool meets(const Diagnostic& d, const Expectation& e, const std::string& path) {
  return d.location.file == path && d.location.line == e.line && d.rule->id == e.rule &&
         d.message.find(e.message_substring) != std::string::npos;
}

bool meets(const Note& note, const NoteExpectation& e, const std::string& path) {
  return note.location.file == path && note.location.line == e.line &&
         note.message.find(e.message_substring) != std::string::npos;
}

// One note to one expect-note (a maximum matching, so a substring that fits
// several notes cannot take the only note another expect-note fits); then a
// line per expect-note left without a note and per note left without one.
std::vector<std::string> note_problems(const Diagnostic& d, const Expectation& e, const std::string& path) {
  std::vector<int> note_of(e.notes.size(), -1), expectation_of(d.notes.size(), -1);
  std::vector<bool> seen;
  auto augment = [&](auto& self, size_t i) -> bool {
    for (size_t n = 0; n < d.notes.size(); ++n) {
      if (seen[n] || !meets(d.notes[n], e.notes[i], path)) continue;
      seen[n] = true;
      if (expectation_of[n] < 0 || self(self, static_cast<size_t>(expectation_of[n]))) {
        expectation_of[n] = static_cast<int>(i);
        note_of[i] = static_cast<int>(n);
        return true;
      }
    }
    return false;
  };
  for (size_t i = 0; i < e.notes.size(); ++i) {
    seen.assign(d.notes.size(), false);
    augment(augment, i);
  }
  std::string finding = fmt::format("{}:{} [{}]", path, d.location.line, e.rule);
  std::vector<std::string> problems;
  for (size_t i = 0; i < e.notes.size(); ++i) {
    if (note_of[i] >= 0) continue;
    problems.push_back(fmt::format("missing note: {}:{}: \"{}\" (expect-note on line {}) of the finding at {}", path,
                                   e.notes[i].line, e.notes[i].message_substring, e.notes[i].written_on, finding));
  }
  for (size_t n = 0; n < d.notes.size(); ++n) {
    if (expectation_of[n] >= 0) continue;
    const Note& note = d.notes[n];
    problems.push_back(fmt::format("unexpected note: {}:{}: note: {} (of the finding at {}, whose notes are pinned)",
                                   note.location.file, note.location.line, note.message, finding));
  }
  return problems;
}

}  // namespace

std::vector<std::string> match_fixture(const Fixture& fixture, const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> problems = fixture.errors;
  const std::vector<Expectation>& expected = fixture.expectations;
  std::vector<bool> met(expected.size(), false);
  std::vector<std::optional<size_t>> match(diagnostics.size());
  auto take = [&](size_t d, auto&& fits) {
    for (size_t i = 0; i < expected.size() && !match[d]; ++i) {
      if (met[i] || !meets(diagnostics[d], expected[i], fixture.path) || !fits(expected[i])) continue;
      met[i] = true;
      match[d] = i;
    }
  };
  // Two findings on one line with one rule may both meet two expectations:
  // an expectation goes first to a finding whose notes it pins exactly, then
  // to one it does not pin, and only then to one whose notes do not match.
  for (size_t d = 0; d < diagnostics.size(); ++d) {
    take(d, [&](const Expectation& e) {
      return !e.notes.empty() && note_problems(diagnostics[d], e, fixture.path).empty();
    });
  }
  for (size_t d = 0; d < diagnostics.size(); ++d) take(d, [](const Expectation& e) { return e.notes.empty(); });
  for (size_t d = 0; d < diagnostics.size(); ++d) take(d, [](const Expectation&) { return true; });
  for (size_t d = 0; d < diagnostics.size(); ++d) {
    const Diagnostic& diagnostic = diagnostics[d];
    if (!match[d]) {
      problems.push_back(fmt::format("unexpected: {}:{}: {} [{}]", diagnostic.location.file, diagnostic.location.line,
                                     diagnostic.message, diagnostic.rule->id));
    } else if (!expected[*match[d]].notes.empty()) {
      for (std::string& problem : note_problems(diagnostic, expected[*match[d]], fixture.path)) {
        problems.push_back(std::move(problem));
      }
    }
  }
  for (size_t i = 0; i < met.size(); ++i) {
    if (met[i]) continue;
    const Expectation& e = expected[i];
    problems.push_back(fmt::format("missing: line {}: {}{}", e.line, e.rule,
                                   e.message_substring.empty() ? "" : " \"" + e.message_substring + "\""));
  }
  return problems;
}

std::vector<std::string> check_fixture(const Fixture& fixture) {
  auto language = language_for_path(fixture.path, false);
  if (!language) return {fmt::format("{}: not a shader klint lints", fixture.path)};
  SourceCache sources;
  // Once, or once per subgroup width with --subgroup-size-constant, merged as the driver merges them.
  std::vector<FileReport> reports;
  std::vector<std::string> names;
  for (const auto& [name, options] : subgroup_width_lints(fixture.options)) {
    reports.push_back(lint_file(InputFile{fixture.path, *language, true}, options, sources));
    names.push_back(name);
  }
  FileReport report = reports.size() == 1 ? std::move(reports.front()) : merge_variants(std::move(reports), names);
  // The fixture judges what linting found; the driver's additions to a finding play no part.
  std::vector<std::string> problems =
      match_fixture(fixture, std::vector<Diagnostic>(report.diagnostics.begin(), report.diagnostics.end()));
  std::vector<bool> expected(fixture.file_notes.size(), false);
  for (const InputMessage& message : report.messages) {
    bool matched = false;
    for (size_t i = 0; i < fixture.file_notes.size() && !matched; ++i) {
      if (!expected[i] && message.reason.find(fixture.file_notes[i]) != std::string::npos) matched = expected[i] = true;
    }
    if (!matched) problems.push_back(fmt::format("input message: {}", message.reason));
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!expected[i]) problems.push_back(fmt::format("missing file note: \"{}\"", fixture.file_notes[i]));
  }
  return problems;
}

std::vector<std::string> fixture_files(const std::string& directory) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(directory, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    std::string path = it->path().string();
    if (language_for_path(path, false)) out.push_back(path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> corpus_shaders() {
  // tests/rules/invalid-spirv holds modules SPIRV-Tools rejects, by design or
  // for what it does not know yet: not shaders to decode, reflect or run.
  std::vector<std::string> out;
  for (std::string& path : fixture_files(std::string(KLINT_SOURCE_DIR) + "/tests/rules")) {
    if (!path.starts_with(std::string(KLINT_SOURCE_DIR) + "/tests/rules/invalid-spirv/")) out.push_back(std::move(path));
  }
  for (const char* folder : {"/tests/clean", "/examples"}) {
    for (const std::string& path : fixture_files(std::string(KLINT_SOURCE_DIR) + folder)) out.push_back(path);
  }
  return out;
}

std::string shader_test_name(const std::string& path) {
  std::string name = std::filesystem::relative(path, KLINT_SOURCE_DIR).string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

CompiledFixture compile_fixture(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  CompiledFixture out{parse_fixture(path, text.str()), {}};
  SourceCache sources;
  auto language = language_for_path(path, false);
  if (language) out.compiled = compile(path, text.str(), *language, out.fixture.options.compile, sources);
  return out;
}

}  // namespace klint::testing
