#include "tests/support/fixture.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "validate/targets.h"

namespace klint::testing {

Fixture parse_fixture(const std::string& path, const std::string& text) {
  Fixture fixture;
  fixture.path = path;
  fixture.options.compile.force_compute = false;
  static const std::regex kExpect(R"((?://|;)\s*expect(?:@([+-]\d+))?:\s*([a-z0-9-]+)(?:\s+\"([^\"]*)\")?)");
  static const std::regex kOptions(R"((?://|;)\s*fixture-options:(.*))");
  std::istringstream lines(text);
  std::string line;
  for (uint32_t number = 1; std::getline(lines, line); ++number) {
    std::smatch match;
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
          std::string names = word.substr(9);
          for (size_t begin = 0; begin <= names.size();) {
            size_t end = std::min(names.find(',', begin), names.size());
            std::string name = names.substr(begin, end - begin);
            if (const Target* target = find_target(name)) fixture.options.rule_options.targets.push_back(target);
            else fixture.errors.push_back(fmt::format("line {}: unknown target '{}'", number, name));
            begin = end + 1;
          }
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
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kExpect); it != std::sregex_iterator(); ++it) {
      const std::smatch& m = *it;
      int offset = m[1].matched ? std::stoi(m[1].str()) : 0;
      fixture.expectations.push_back({static_cast<uint32_t>(static_cast<int>(number) + offset), m[2].str(),
                                      m[3].matched ? m[3].str() : ""});
    }
  }
  return fixture;
}

std::vector<std::string> check_fixture(const Fixture& fixture) {
  std::vector<std::string> problems = fixture.errors;
  auto language = language_for_path(fixture.path, false);
  if (!language) return {fmt::format("{}: not a shader klint lints", fixture.path)};
  SourceCache sources;
  FileReport report = lint_file(InputFile{fixture.path, *language, true}, fixture.options, sources);
  for (const InputMessage& message : report.messages) {
    problems.push_back(fmt::format("input message: {}", message.reason));
  }
  std::vector<bool> met(fixture.expectations.size(), false);
  for (const Diagnostic& d : report.diagnostics) {
    bool matched = false;
    for (size_t i = 0; i < fixture.expectations.size() && !matched; ++i) {
      const Expectation& e = fixture.expectations[i];
      if (met[i] || d.location.file != fixture.path || d.location.line != e.line || d.rule->id != e.rule) continue;
      if (d.message.find(e.message_substring) == std::string::npos) continue;
      met[i] = matched = true;
    }
    if (!matched) {
      problems.push_back(fmt::format("unexpected: {}:{}: {} [{}]", d.location.file, d.location.line, d.message,
                                     d.rule->id));
    }
  }
  for (size_t i = 0; i < met.size(); ++i) {
    if (met[i]) continue;
    const Expectation& e = fixture.expectations[i];
    problems.push_back(fmt::format("missing: line {}: {}{}", e.line, e.rule,
                                   e.message_substring.empty() ? "" : " \"" + e.message_substring + "\""));
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
  std::vector<std::string> out = fixture_files(std::string(KLINT_SOURCE_DIR) + "/tests/rules");
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
