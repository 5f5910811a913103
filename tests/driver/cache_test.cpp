// The result cache on real lint results: what hits, what misses, what is
// never stored, and that a damaged or unwritable cache only warns.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "driver/cache.h"
#include "driver/report_json.h"
#include "tests/support/fixture.h"
#include "tests/support/scratch.h"
#include "tests/support/unprivileged.h"
#include "validate/targets.h"

namespace klint::testing {
namespace {

namespace fs = std::filesystem;

// A finding in the included file and a suppressed one in the main file, so
// that a report read back has every part to compare.
constexpr const char* kCommon = R"(shared float tile[64];
void sync_some(uint i) {
    if (i < 16) {
        barrier();
    }
}
)";

constexpr const char* kMain = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
#include "common.glsl"
void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i] = data[gl_GlobalInvocationID.x];
    // klint-ignore-next-line: shared-memory-race -- on purpose
    data[gl_GlobalInvocationID.x] = tile[63 - i];
    sync_some(i);
}
)";

class Cache : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    // Readable by the unprivileged child of the permission test.
    fs::permissions(path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
    write("common.glsl", kCommon);
    write("main.comp", kMain);
    main_ = path("main.comp").string();
    key_ = settings_key(options_);
  }

  std::string cache_dir() const { return path("cache").string(); }

  // One run of klint on main.comp: lint it, as the driver does on a miss.
  FileReport lint(SourceCache& sources) {
    return lint_file(InputFile{main_, Language::Glsl, true}, options_, sources);
  }
  std::string text(const std::string& name) { return *read_file(path(name).string(), nullptr); }

  // Lints main.comp and stores the report in a fresh cache; returns it.
  FileReport lint_and_store() {
    SourceCache sources;
    FileReport report = lint(sources);
    ResultCache cache(cache_dir());
    cache.store(main_, text("main.comp"), key_, report, sources);
    EXPECT_EQ(cache.take_warnings(), std::vector<std::string>{});
    return report;
  }

  std::optional<FileReport> load(ResultCache& cache, const std::string& key) {
    SourceCache sources;
    return cache.load(main_, text("main.comp"), key, sources);
  }
  std::optional<FileReport> load() {
    ResultCache cache(cache_dir());
    return load(cache, key_);
  }

  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    std::error_code error;
    for (auto it = fs::recursive_directory_iterator(cache_dir(), error); !error && it != fs::end(it); ++it) {
      if (it->path().extension() == ".json") out.push_back(it->path());
    }
    return out;
  }

  std::string main_;
  LintOptions options_;
  std::string key_;
};

TEST_F(Cache, HitGivesTheReportThatWasStored) {
  EXPECT_FALSE(load()) << "nothing stored yet";
  FileReport stored = lint_and_store();
  ASSERT_FALSE(stored.diagnostics.empty());
  ASSERT_FALSE(stored.suppressed.empty());
  ASSERT_EQ(stored.files.size(), 2u) << "main.comp and common.glsl";
  EXPECT_TRUE(std::any_of(stored.diagnostics.begin(), stored.diagnostics.end(), [&](const Diagnostic& d) {
    return d.location.file == path("common.glsl").string();
  })) << "a finding in the included file";
  ASSERT_EQ(entries().size(), 1u);

  ResultCache cache(cache_dir());
  SourceCache sources;
  std::optional<FileReport> loaded = cache.load(main_, text("main.comp"), key_, sources);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(report_to_json(*loaded), report_to_json(stored));
  EXPECT_EQ(loaded->diagnostics[0].rule, stored.diagnostics[0].rule) << "the same RuleInfo object";
  // The output formats find the texts for excerpts without reading again.
  ASSERT_NE(sources.get(main_), nullptr);
  EXPECT_EQ(sources.get(main_)->text(), kMain);
  EXPECT_EQ(cache.take_warnings(), std::vector<std::string>{});
}

TEST_F(Cache, ChangedTextMisses) {
  lint_and_store();
  ResultCache cache(cache_dir());
  SourceCache sources;
  EXPECT_FALSE(cache.load(main_, text("main.comp") + "\n", key_, sources));
  EXPECT_FALSE(cache.load(path("./main.comp").string(), text("main.comp"), key_, sources)) << "another path";
  EXPECT_TRUE(cache.load(main_, text("main.comp"), key_, sources));
}

TEST_F(Cache, ChangedIncludeMisses) {
  lint_and_store();
  ASSERT_TRUE(load());
  write("common.glsl", std::string(kCommon) + "// touched\n");
  EXPECT_FALSE(load());
  write("common.glsl", kCommon);
  EXPECT_TRUE(load()) << "the entry itself was kept";
  fs::remove(path("common.glsl"));
  EXPECT_FALSE(load());
}

TEST_F(Cache, ChangedSettingsOrBuildMiss) {
  lint_and_store();
  ResultCache cache(cache_dir());
  EXPECT_TRUE(load(cache, key_));
  EXPECT_FALSE(load(cache, key_ + " "));
  ResultCache other_build(cache_dir(), klint_identity() + " rebuilt");
  EXPECT_FALSE(load(other_build, key_));
}

TEST_F(Cache, SettingsKeyNamesEveryOption) {
  std::string base = settings_key(LintOptions{});
  EXPECT_EQ(settings_key(LintOptions{}), base);
  std::vector<LintOptions> changed(9);
  changed[0].compile.include_dirs = {"inc"};
  changed[1].compile.defines = {{"TILE", "16"}};
  changed[2].compile.defines = {{"TILE=16", ""}};  // the same text, joined otherwise
  changed[3].compile.target_env = TargetEnv::Vulkan1_1;
  changed[4].compile.force_compute = true;
  changed[5].compile.entry_point = "CSMain";
  changed[6].selection.ignore = {&kUnusedSuppression};
  changed[7].rule_options.max_shared_memory = 16384;
  // A target of the same name whose limits changed, as a target file may.
  static Target edited = *default_targets().front();
  edited.max_compute_shared_memory_size += 1;
  changed[8].rule_options.targets.front() = &edited;
  std::vector<std::string> keys{base};
  for (const LintOptions& options : changed) keys.push_back(settings_key(options));
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::unique(keys.begin(), keys.end()), keys.end()) << "two settings gave one key";
}

TEST_F(Cache, IdentityNamesTheVersionAndTheBinary) {
  EXPECT_TRUE(klint_identity().starts_with("klint " KLINT_VERSION " ")) << klint_identity();
  struct stat st {};
  ASSERT_EQ(stat("/proc/self/exe", &st), 0);
  EXPECT_NE(klint_identity().find(" " + std::to_string(st.st_size) + " "), std::string::npos) << klint_identity();
}

// Damage of each kind: a miss and one warning naming the entry; the next
// store repairs it.
TEST_F(Cache, CorruptEntryIsAMissWithAWarning) {
  lint_and_store();
  ASSERT_EQ(entries().size(), 1u);
  fs::path entry = entries().front();
  std::string good = text(fs::relative(entry, path()).string());
  nlohmann::json document = nlohmann::json::parse(good);
  nlohmann::json unknown_rule = document;
  unknown_rule["report"]["diagnostics"][0]["rule"] = "retired-rule";
  std::vector<std::pair<std::string, std::string>> damages{
      {std::string("\x00\xff\x13garbage", 10), "not valid JSON"},
      {good.substr(0, good.size() / 2), "not valid JSON"},
      {"", "not valid JSON"},
      {R"({"schema": "klint-cache-1", "report": []})", "not a klint-cache-2 entry"},
      {"[1, 2, 3]", "not a klint-cache-2 entry"},
      {unknown_rule.dump(), "unknown rule 'retired-rule'"},
  };
  for (const auto& [content, reason] : damages) {
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << content;
    ResultCache cache(cache_dir());
    EXPECT_FALSE(load(cache, key_)) << reason;
    EXPECT_FALSE(load(cache, key_)) << reason;
    EXPECT_EQ(cache.take_warnings(),
              std::vector<std::string>{"ignoring corrupt cache entry " + entry.string() + ": " + reason})
        << "one warning however often it is read";
    lint_and_store();
    EXPECT_TRUE(load()) << "repaired after " << reason;
  }
}

TEST_F(Cache, UnwritableCacheWarnsOnceAndStopsStoring) {
  SourceCache sources;
  FileReport report = lint(sources);
  std::string main_text = text("main.comp");
  // A directory where the cache should be is a file.
  write("cache", "not a directory");
  ResultCache blocked(cache_dir());
  blocked.store(main_, main_text, key_, report, sources);
  blocked.store(main_, main_text, key_, report, sources);
  std::vector<std::string> warnings = blocked.take_warnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(warnings[0].starts_with("cannot write the result cache " + cache_dir() + ": ")) << warnings[0];
  EXPECT_TRUE(warnings[0].ends_with("; results of this run are not stored")) << warnings[0];
  fs::remove(path("cache"));
  blocked.store(main_, main_text, key_, report, sources);
  EXPECT_TRUE(entries().empty()) << "storing stays off for the run";

  // A directory without write permission (as root, only without root's rights).
  fs::create_directories(cache_dir());
  fs::permissions(cache_dir(), fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                   fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  std::string result = run_unprivileged([&] {
    ResultCache cache(cache_dir());
    cache.store(main_, main_text, key_, report, sources);
    std::string out;
    for (const std::string& warning : cache.take_warnings()) out += warning + "\n";
    return out;
  });
  EXPECT_EQ(result, "cannot write the result cache " + cache_dir() +
                        ": permission denied; results of this run are not stored\n");
  EXPECT_TRUE(entries().empty());
}

TEST_F(Cache, StoresOnlyWhatALaterRunWouldLintAlike) {
  ResultCache cache(cache_dir());
  auto stored = [&](const FileReport& report, const std::string& text, SourceCache& sources) {
    fs::remove_all(cache_dir());
    cache.store(main_, text, key_, report, sources);
    return !entries().empty();
  };
  // A missing include: it may appear later, and nothing in the key would see it.
  write("main.comp", std::string(kMain).replace(std::string(kMain).find("common"), 6, "absent"));
  SourceCache first;
  FileReport missing_include = lint(first);
  ASSERT_FALSE(missing_include.diagnostics.empty());
  ASSERT_EQ(missing_include.diagnostics[0].rule, &kCompileError);
  EXPECT_FALSE(stored(missing_include, text("main.comp"), first));

  write("main.comp", kMain);
  SourceCache sources;
  FileReport good = lint(sources);
  FileReport with_message = good;
  with_message.messages.push_back(InputMessage{main_, "not a compute shader (vertex stage); skipped", false});
  EXPECT_FALSE(stored(with_message, text("main.comp"), sources));
  FileReport internal = good;
  internal.diagnostics.push_back(Diagnostic{&kInternalError, Severity::Error, "out of memory", Location{main_}, {}, ""});
  EXPECT_FALSE(stored(internal, text("main.comp"), sources));
  FileReport no_files = good;
  no_files.files.clear();
  EXPECT_FALSE(stored(no_files, text("main.comp"), sources));
  // The file changed after the lint read it: the report may belong to either text.
  EXPECT_FALSE(stored(good, text("main.comp") + "// edited\n", sources));
  EXPECT_TRUE(stored(good, text("main.comp"), sources));
  EXPECT_EQ(cache.take_warnings(), std::vector<std::string>{});
}

TEST_F(Cache, ThreadsShareOneCache) {
  SourceCache sources;
  FileReport report = lint(sources);
  std::string main_text = text("main.comp");
  ResultCache cache(cache_dir());
  std::vector<std::thread> threads;
  std::atomic<int> hits{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::string key = key_ + std::to_string(t % 4);
      for (int i = 0; i < 20; ++i) {
        cache.store(main_, main_text, key, report, sources);
        hits += cache.load(main_, main_text, key, sources).has_value();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(hits.load(), 8 * 20);
  EXPECT_EQ(entries().size(), 4u) << "no temporary files left behind";
  EXPECT_EQ(cache.take_warnings(), std::vector<std::string>{});
}

TEST(CacheDir, FollowsTheEnvironment) {
  auto with = [](const char* klint, const char* xdg, const char* home) {
    for (auto [name, value] : {std::pair{"KLINT_CACHE_DIR", klint}, {"XDG_CACHE_HOME", xdg}, {"HOME", home}}) {
      if (value) {
        setenv(name, value, 1);
      } else {
        unsetenv(name);
      }
    }
    return default_cache_dir().value_or("<none>");
  };
  EXPECT_EQ(with("/k", "/x", "/h"), "/k");
  EXPECT_EQ(with("", "/x", "/h"), "/x/klint");
  EXPECT_EQ(with(nullptr, "relative", "/h"), "/h/.cache/klint") << "the XDG spec ignores relative paths";
  EXPECT_EQ(with(nullptr, nullptr, "/h"), "/h/.cache/klint");
  EXPECT_EQ(with(nullptr, nullptr, nullptr), "<none>");
}

}  // namespace
}  // namespace klint::testing
