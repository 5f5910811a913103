// The layers of docs/architecture.md, checked on the tree: a library includes
// headers only of itself and the layers below it, and its CMake target links
// exactly the libraries whose headers it includes. Every library's include
// root is the repository root, so the compiler would let any file include any
// header; this test is what holds the direction. It also holds what the
// bottom layer knows: analyzer/ names a finding's rule, but the rule's
// documentation, a run's confirmation and the driver's variants live above it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

namespace fs = std::filesystem;

// Each library folder and the folders it may include, below it.
const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> layers{
      {"analyzer", {}},
      {"validate", {"analyzer"}},
      {"reflect", {"analyzer"}},
      {"rules", {"analyzer", "validate"}},
      {"runner", {"analyzer", "validate", "reflect", "rules"}},
      {"driver", {"analyzer", "validate", "reflect", "rules", "runner"}},
  };
  return layers;
}

// The folder a CMake target of the tree belongs to.
const std::map<std::string, std::string>& target_folders() {
  static const std::map<std::string, std::string> folders{
      {"klint_analyzer", "analyzer"}, {"klint_validate", "validate"}, {"klint_reflect", "reflect"},
      {"klint_rule_api", "rules"},    {"klint_rules", "rules"},       {"klint_runner", "runner"},
      {"klint_driver", "driver"},
  };
  return folders;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Other layers' folders that the sources of `folder` include.
std::map<std::string, std::vector<std::string>> included_layers(const fs::path& root, const std::string& folder) {
  static const std::regex include(R"re(^\s*#\s*include\s*"([a-z_]+)/[^"]*")re");
  std::map<std::string, std::vector<std::string>> found;  // layer -> "file:line"
  for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() || (extension != ".h" && extension != ".cpp")) continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch match;
      if (!std::regex_search(line, match, include)) continue;
      const std::string layer = match[1];
      if (layer == folder || !allowed().count(layer)) continue;
      found[layer].push_back(fs::relative(entry.path(), root).string() + ":" + std::to_string(number));
    }
  }
  return found;
}

// The klint libraries that the targets defined in `folder`'s CMakeLists.txt
// link, other than the folder's own.
std::set<std::string> linked_layers(const fs::path& root, const std::string& folder) {
  const std::string text = read(root / folder / "CMakeLists.txt");
  static const std::regex link(R"re(target_link_libraries\s*\(\s*([A-Za-z_]+)([^)]*)\))re");
  static const std::regex target(R"re(\bklint_[a-z_]+\b)re");
  std::set<std::string> layers;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
    auto owner = target_folders().find((*it)[1]);
    if (owner == target_folders().end() || owner->second != folder) continue;  // the klint executable, tests
    const std::string arguments = (*it)[2];
    for (auto t = std::sregex_iterator(arguments.begin(), arguments.end(), target); t != std::sregex_iterator(); ++t) {
      auto linked = target_folders().find(t->str());
      if (linked != target_folders().end() && linked->second != folder) layers.insert(linked->second);
    }
  }
  return layers;
}

// One line per include against the direction, and per library whose links
// differ from what it includes.
std::vector<std::string> check_layers(const fs::path& root) {
  std::vector<std::string> problems;
  for (const auto& [folder, below] : allowed()) {
    std::map<std::string, std::vector<std::string>> included = included_layers(root, folder);
    std::set<std::string> used;
    for (const auto& [layer, sites] : included) {
      used.insert(layer);
      if (below.count(layer)) continue;
      for (const std::string& site : sites) {
        problems.push_back(site + ": " + folder + "/ includes " + layer + "/, which is not below it");
      }
    }
    std::set<std::string> linked = linked_layers(root, folder);
    for (const std::string& layer : used) {
      if (below.count(layer) && !linked.count(layer)) {
        problems.push_back(folder + "/CMakeLists.txt: includes " + layer + "/ but does not link it");
      }
    }
    for (const std::string& layer : linked) {
      if (!used.count(layer)) problems.push_back(folder + "/CMakeLists.txt: links " + layer + " but includes none of it");
    }
  }
  return problems;
}

// A concept that belongs above analyzer/, and the words of code that would
// bring it back there.
struct Foreign {
  const char* concept_name;
  const char* owner;
  std::regex words;
};

const std::vector<Foreign>& foreign_to_the_analyzer() {
  static const std::vector<Foreign> concepts{
      {"rule documentation", "the rule API's (rules/rule.h)",
       std::regex(R"re(\b(summary|doc|RuleDescription|RunEvidence|run_evidence)\b|R"md\(|## What it finds)re")},
      {"confirmation", "the runner's (runner/confirm.h)", std::regex(R"re(\w*[Cc]onfirm\w*)re")},
      {"variants", "the driver's (driver/finding.h)", std::regex(R"re(\b([Vv]ariants|Variant)\b)re")},
  };
  return concepts;
}

// `line` without its comments; `in_block` carries a /* comment over lines.
// A "//" inside a string literal cuts the line short, which only ever hides
// words, never invents them.
std::string code_of(const std::string& line, bool& in_block) {
  std::string code;
  for (size_t i = 0; i < line.size(); ++i) {
    if (in_block) {
      if (line.compare(i, 2, "*/") == 0) {
        in_block = false;
        ++i;
      }
    } else if (line.compare(i, 2, "/*") == 0) {
      in_block = true;
      ++i;
    } else if (line.compare(i, 2, "//") == 0) {
      break;
    } else {
      code += line[i];
    }
  }
  return code;
}

// One line per line of analyzer/ code (comments may point elsewhere) that
// names a concept of a layer above it.
std::vector<std::string> check_analyzer_vocabulary(const fs::path& root) {
  std::vector<std::string> problems;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root / "analyzer")) {
    const std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() && (extension == ".h" || extension == ".cpp")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::ifstream in(file);
    std::string line;
    bool in_block = false;
    for (int number = 1; std::getline(in, line); ++number) {
      const std::string code = code_of(line, in_block);
      for (const Foreign& foreign : foreign_to_the_analyzer()) {
        std::smatch match;
        if (!std::regex_search(code, match, foreign.words)) continue;
        problems.push_back(fs::relative(file, root).string() + ":" + std::to_string(number) + ": analyzer/ names " +
                           foreign.concept_name + " ('" + match.str() + "'), which is " + foreign.owner);
      }
    }
  }
  return problems;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(Layers, TheTreeFollowsTheDirection) {
  std::vector<std::string> problems = check_layers(KLINT_SOURCE_DIR);
  EXPECT_TRUE(problems.empty()) << joined(problems);
}

TEST(Layers, TheAnalyzerKnowsNoRuleDocumentationConfirmationOrVariants) {
  std::vector<std::string> problems = check_analyzer_vocabulary(KLINT_SOURCE_DIR);
  EXPECT_TRUE(problems.empty()) << joined(problems);
}

// A small tree of the same shape, for the checker itself.
class LayerTree : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    for (const auto& [folder, below] : allowed()) {
      std::string links;
      for (const std::string& layer : below) links += " klint_" + std::string(layer == "rules" ? "rule_api" : layer);
      write(folder + "/CMakeLists.txt", "add_library(klint_" + folder + " STATIC a.cpp)\n" +
                                            (links.empty() ? "" : "target_link_libraries(klint_" + folder +
                                                                      " PUBLIC" + links + ")\n"));
      std::string includes;
      for (const std::string& layer : below) includes += "#include \"" + layer + "/x.h\"\n";
      write(folder + "/a.cpp", includes);
    }
  }
  fs::path root() const { return path(); }
};

TEST_F(LayerTree, AConformingTreePasses) { EXPECT_TRUE(check_layers(root()).empty()) << joined(check_layers(root())); }

TEST_F(LayerTree, AnIncludeAgainstTheDirectionFails) {
  write("analyzer/a.cpp", "#include <vector>\n#include \"rules/rule.h\"\n");
  std::vector<std::string> problems = check_layers(root());
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_EQ(problems[0], "analyzer/a.cpp:2: analyzer/ includes rules/, which is not below it");
}

TEST_F(LayerTree, AnIncludeWithoutItsLinkFails) {
  write("runner/CMakeLists.txt", "target_link_libraries(klint_runner PUBLIC klint_analyzer klint_reflect klint_rule_api)\n");
  std::vector<std::string> problems = check_layers(root());
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_EQ(problems[0], "runner/CMakeLists.txt: includes validate/ but does not link it");
}

TEST_F(LayerTree, ALinkWithoutAnIncludeFails) {
  write("validate/a.cpp", "");
  std::vector<std::string> problems = check_layers(root());
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_EQ(problems[0], "validate/CMakeLists.txt: links analyzer but includes none of it");
}

TEST_F(LayerTree, AnalyzerCodeNamingAConceptOfALayerAboveFails) {
  write("analyzer/diagnostic.h",
        "struct RuleInfo {\n"
        "  std::string_view id;\n"
        "  std::string_view doc;\n"
        "};\n"
        "struct Diagnostic {\n"
        "  std::vector<std::string> variants;\n"
        "  std::optional<Confirmation> confirmation;\n"
        "};\n");
  write("analyzer/ir/rules.cpp", "constexpr std::string_view kText = R\"md(\n## What it finds\n)md\";\n");
  std::vector<std::string> problems = check_analyzer_vocabulary(root());
  ASSERT_EQ(problems.size(), 5u) << joined(problems);
  EXPECT_EQ(problems[0], "analyzer/diagnostic.h:3: analyzer/ names rule documentation ('doc'), which is the rule API's "
                         "(rules/rule.h)");
  EXPECT_EQ(problems[1], "analyzer/diagnostic.h:6: analyzer/ names variants ('variants'), which is the driver's "
                         "(driver/finding.h)");
  EXPECT_EQ(problems[2], "analyzer/diagnostic.h:7: analyzer/ names confirmation ('Confirmation'), which is the "
                         "runner's (runner/confirm.h)");
  EXPECT_EQ(problems[3], "analyzer/ir/rules.cpp:1: analyzer/ names rule documentation ('R\"md('), which is the rule "
                         "API's (rules/rule.h)");
  EXPECT_EQ(problems[4], "analyzer/ir/rules.cpp:2: analyzer/ names rule documentation ('## What it finds'), which is "
                         "the rule API's (rules/rule.h)");
}

TEST_F(LayerTree, CommentsAndOtherWordsInTheAnalyzerPass) {
  write("analyzer/barriers.h",
        "// One answer, so that the rules and the runner's confirmation agree; docs in rules/.\n"
        "/* the driver's variants\n   and a rule's summary */\n"
        "#include <variant>\n"
        "using Value = std::variant<int, float>;\n"
        "int documented = 0;  // no word of a layer above\n");
  EXPECT_TRUE(check_analyzer_vocabulary(root()).empty()) << joined(check_analyzer_vocabulary(root()));
}

}  // namespace
}  // namespace klint::testing
