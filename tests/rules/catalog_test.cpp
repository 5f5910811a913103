// Every rule is documented, has fixtures of both kinds, and its docs on disk are
// what the code generates.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "driver/docs.h"
#include "tests/support/fixture.h"
#include "validate/targets.h"

namespace klint::testing {
namespace {

namespace fs = std::filesystem;
const fs::path kSource = KLINT_SOURCE_DIR;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first ```glsl block after `heading` in a rule's doc.
std::string code_block(std::string_view doc, std::string_view heading) {
  size_t at = doc.find(heading);
  if (at == std::string_view::npos) return {};
  size_t begin = doc.find("```glsl\n", at);
  if (begin == std::string_view::npos) return {};
  begin += 8;
  size_t end = doc.find("```", begin);
  return std::string(doc.substr(begin, end - begin));
}

size_t findings_of(const RuleInfo& rule, const std::string& source, const std::string& name) {
  fs::path dir = fs::temp_directory_path() / "klint-doc-examples";
  fs::create_directories(dir);
  fs::path path = dir / (name + ".comp");
  std::ofstream(path) << "#version 450\n" << source;
  LintOptions options;
  // An example written for declared devices says so on its first line:
  // `// klint --target NAME,NAME`.
  static constexpr std::string_view kTargets = "// klint --target ";
  if (source.starts_with(kTargets)) {
    std::string names = source.substr(kTargets.size(), source.find('\n') - kTargets.size());
    options.rule_options.targets.clear();
    options.rule_options.targets_declared = true;
    for (size_t begin = 0; begin <= names.size();) {
      size_t end = std::min(names.find(',', begin), names.size());
      const Target* target = find_target(names.substr(begin, end - begin));
      EXPECT_NE(target, nullptr) << rule.id << " " << name << " names an unknown target";
      if (target) options.rule_options.targets.push_back(target);
      begin = end + 1;
    }
  }
  SourceCache sources;
  FileReport report = lint_file(InputFile{path.string(), Language::Glsl, true}, options, sources);
  size_t count = 0;
  for (const Diagnostic& d : report.diagnostics) {
    EXPECT_NE(d.rule, &kCompileError) << rule.id << " " << name << " example does not compile: " << d.message;
    count += d.rule == &rule;
  }
  return count;
}

TEST(RuleCatalog, EveryRuleHasFixturesOfBothKindsAndHlsl) {
  for (const auto& rule : RuleRegistry::rules()) {
    fs::path dir = kSource / "tests/rules" / std::string(rule->info().id);
    size_t bad = 0, good = 0, hlsl = 0;
    for (const std::string& file : fixture_files(dir.string())) {
      std::string stem = fs::path(file).stem().string();
      bad += stem.starts_with("bad");
      good += stem.starts_with("good");
      hlsl += fs::path(file).extension() == ".hlsl";
    }
    EXPECT_GE(bad, 1u) << rule->info().id << " has no bad_* fixture in " << dir;
    EXPECT_GE(good, 1u) << rule->info().id << " has no good_* fixture in " << dir;
    EXPECT_GE(hlsl, 1u) << rule->info().id << " has no HLSL fixture in " << dir;
  }
}

TEST(RuleCatalog, DocsHaveTheirSections) {
  for (const RuleInfo* rule : RuleRegistry::infos()) {
    const RuleDescription& description = RuleRegistry::describe(*rule);
    for (const char* section : {"## What it finds", "## Why it matters", "## Bad", "## Fix", "## Exceptions"}) {
      EXPECT_NE(description.doc.find(section), std::string_view::npos) << rule->id << " lacks " << section;
    }
    EXPECT_FALSE(description.summary.empty()) << rule->id;
    EXPECT_EQ(description.summary.back() == '.', false) << rule->id << ": summaries have no trailing period";
  }
}

TEST(RuleCatalog, BadExampleFiresAndFixExampleDoesNot) {
  for (const auto& rule : RuleRegistry::rules()) {
    const RuleInfo& info = rule->info();
    std::string bad = code_block(rule->description().doc, "## Bad");
    std::string fix = code_block(rule->description().doc, "## Fix");
    ASSERT_FALSE(bad.empty()) << info.id << ": no ```glsl block under ## Bad";
    ASSERT_FALSE(fix.empty()) << info.id << ": no ```glsl block under ## Fix";
    EXPECT_GE(findings_of(info, bad, std::string(info.id) + "-bad"), 1u) << info.id << ": its Bad example is silent";
    EXPECT_EQ(findings_of(info, fix, std::string(info.id) + "-fix"), 0u) << info.id << ": its Fix example fires";
  }
}

TEST(RuleCatalog, CommittedDocsMatchGeneratedDocs) {
  fs::path generated = fs::temp_directory_path() / "klint-generated-docs";
  fs::remove_all(generated);
  std::string error;
  ASSERT_TRUE(write_rule_docs(generated.string(), &error)) << error;
  size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(generated)) {
    fs::path committed = kSource / "docs/rules" / entry.path().filename();
    EXPECT_TRUE(fs::exists(committed)) << committed << " is missing: run klint --generate-docs docs/rules";
    EXPECT_EQ(read(committed), read(entry.path()))
        << committed << " differs from the rule's metadata: run klint --generate-docs docs/rules";
    ++compared;
  }
  for (const auto& entry : fs::directory_iterator(kSource / "docs/rules")) {
    EXPECT_TRUE(fs::exists(generated / entry.path().filename()))
        << entry.path() << " belongs to no rule: delete it";
  }
  size_t renamed = 0;
  for (const RuleInfo* rule : RuleRegistry::infos()) renamed += RuleRegistry::former_ids(*rule).size();
  EXPECT_EQ(compared, RuleRegistry::infos().size() + renamed + 1);  // + a page per old id, + README.md
}

// An old id names the rule it became and no other: it is never a rule's id
// now, it finds the rule it became, and a finding of that rule keeps the
// fingerprint it had under its first id.
TEST(RuleCatalog, RenamedIdsFindTheRuleTheyBecame) {
  size_t renamed = 0;
  for (const RuleInfo* rule : RuleRegistry::infos()) {
    for (std::string_view old_id : RuleRegistry::former_ids(*rule)) {
      ++renamed;
      EXPECT_EQ(RuleRegistry::find(old_id), rule) << old_id;
      EXPECT_EQ(RuleRegistry::renamed(old_id), rule->id) << old_id;
      for (const RuleInfo* other : RuleRegistry::infos()) EXPECT_NE(other->id, old_id) << "an old id is a rule's id";
    }
    EXPECT_EQ(RuleRegistry::first_id(*rule),
              RuleRegistry::former_ids(*rule).empty() ? rule->id : RuleRegistry::former_ids(*rule).front());
    EXPECT_FALSE(RuleRegistry::renamed(rule->id)) << rule->id << " is a rule's id and an old id";
  }
  EXPECT_GE(renamed, 1u);
  EXPECT_EQ(RuleRegistry::find("shader-feature-unsupported"), RuleRegistry::find("numeric-type-unsupported"));
}

}  // namespace
}  // namespace klint::testing
