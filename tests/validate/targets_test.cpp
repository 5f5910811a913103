#include "validate/targets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace klint {
namespace {

namespace fs = std::filesystem;

// A valid target; each error test breaks one line of it, so the expected
// line numbers below count from here.
constexpr std::string_view kValid = R"({
  "schema": "klint-target-1",
  "name": "test-gpu",
  "description": "a test target",
  "vendor": "Test",
  "vulkan_version": "1.3",
  "max_compute_shared_memory_size": 32768,
  "max_compute_work_group_invocations": 1024,
  "max_compute_work_group_size": [1024, 1024, 64],
  "max_compute_work_group_count": [65535, 65535, 65535],
  "subgroup_size": {"min": 32, "max": 64, "preferred": 32},
  "subgroup_supported_operations": ["basic", "vote", "ballot"],
  "features": {
    "shader_float16": true,
    "shader_float64": false,
    "shader_int8": true,
    "shader_int16": true,
    "shader_int64": false,
    "storage_buffer_8bit_access": true,
    "storage_buffer_16bit_access": true,
    "subgroup_extended_types": true
  },
  "occupancy": {
    "shared_memory_per_compute_unit": 65536,
    "tiers": [{"max_shared_memory": 8192, "workgroups": 4}, {"max_shared_memory": 16384, "workgroups": 2}]
  },
  "sources": ["a made-up device for tests"]
}
)";

std::string replaced(std::string_view from, std::string_view to) {
  std::string text(kValid);
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The error parse_target gives for `text`, or "" when it parses.
std::string error_of(std::string_view text) {
  std::string error;
  std::optional<Target> target = parse_target(text, "targets/x.json", &error);
  EXPECT_EQ(target.has_value(), error.empty()) << error;
  return error;
}

TEST(TargetParse, ValidTargetReadsEveryField) {
  std::string error;
  std::optional<Target> target = parse_target(kValid, "targets/x.json", &error);
  ASSERT_TRUE(target) << error;
  EXPECT_EQ(target->name, "test-gpu");
  EXPECT_EQ(target->max_compute_shared_memory_size, 32768u);
  EXPECT_EQ(target->max_compute_work_group_size, (std::array<uint32_t, 3>{1024, 1024, 64}));
  EXPECT_EQ(target->subgroup_size, (SubgroupSizes{32, 64, 32}));
  EXPECT_EQ(target->subgroup_supported_operations, uint32_t{kSubgroupBasic | kSubgroupVote | kSubgroupBallot});
  EXPECT_TRUE(target->subgroup_supported_in_compute);  // the default
  EXPECT_EQ(target->features.shader_int8, true);
  EXPECT_EQ(target->features.shader_int64, false);
  EXPECT_EQ(target->occupancy.shared_memory_per_compute_unit, 65536u);
  EXPECT_EQ(target->occupancy.min_workgroups_to_hide_latency, 2u);  // the default
  ASSERT_EQ(target->occupancy.tiers.size(), 2u);
  EXPECT_EQ(target->occupancy.tiers[1], (TargetOccupancy::Tier{16384, 2}));
  EXPECT_FALSE(target->peak_bandwidth_gb_per_s);
  EXPECT_EQ(target->sources, std::vector<std::string>{"a made-up device for tests"});
}

TEST(TargetParse, SyntaxErrorGivesLineAndColumn) {
  // A missing comma at the end of line 5: the parser stops at the end of the
  // next key, as nlohmann's own message says.
  EXPECT_EQ(error_of(replaced("\"Test\",", "\"Test\"")),
            "targets/x.json:6:18: syntax error while parsing object - unexpected string literal; expected '}'");
}

TEST(TargetParse, TruncatedFileGivesLineAndColumn) {
  EXPECT_EQ(error_of("{\n  \"schema\": "),
            "targets/x.json:2:13: syntax error while parsing value - unexpected end of input; expected '[', '{', or a "
            "literal");
}

TEST(TargetParse, UnknownKeyIsAnError) {
  EXPECT_EQ(error_of(replaced("\"max_compute_shared_memory_size\"", "\"max_shared\"")),
            "targets/x.json:7:3: unknown key 'max_shared'");
}

TEST(TargetParse, UnknownNestedKeyIsNamedWithItsPath) {
  EXPECT_EQ(error_of(replaced("\"shader_int8\"", "\"shader_int9\"")),
            "targets/x.json:16:5: unknown key 'features.shader_int9'");
}

TEST(TargetParse, DuplicateKeyIsAnError) {
  EXPECT_EQ(error_of(replaced("\"vendor\": \"Test\",", "\"vendor\": \"Test\", \"vendor\": \"Other\",")),
            "targets/x.json:5:21: duplicate key 'vendor'");
}

TEST(TargetParse, MissingKeyIsAnError) {
  EXPECT_EQ(error_of(replaced("  \"vendor\": \"Test\",\n", "")), "targets/x.json:1:1: missing key 'vendor'");
  EXPECT_EQ(error_of(replaced(", \"preferred\": 32", "")),
            "targets/x.json:11:3: missing key 'subgroup_size.preferred'");
}

TEST(TargetParse, WorkGroupSizeMustBeThreePositiveIntegers) {
  const std::string expected =
      "targets/x.json:9:3: 'max_compute_work_group_size' must be an array of 3 positive integers";
  EXPECT_EQ(error_of(replaced("[1024, 1024, 64]", "[1024, 1024]")), expected);
  EXPECT_EQ(error_of(replaced("[1024, 1024, 64]", "[1024, 0, 64]")), expected);
  EXPECT_EQ(error_of(replaced("[1024, 1024, 64]", "\"1024x1024x64\"")), expected);
}

TEST(TargetParse, SubgroupWidthChosenPerShader) {
  std::string error;
  auto plain = parse_target(std::string(kValid), "targets/x.json", &error);
  ASSERT_TRUE(plain) << error;
  EXPECT_FALSE(plain->subgroup_size.varies_per_shader);  // the default
  const Target* intel = find_target("intel-xe");
  ASSERT_NE(intel, nullptr);
  EXPECT_TRUE(intel->subgroup_size.varies_per_shader);
  auto again = parse_target(target_to_json(*intel), "intel-xe.json", &error);
  ASSERT_TRUE(again) << error;
  EXPECT_TRUE(again->subgroup_size.varies_per_shader);
}

TEST(TargetParse, NullFeatureIsNotVerified) {
  std::string error;
  auto target = parse_target(replaced("\"shader_int8\": true", "\"shader_int8\": null"), "targets/x.json", &error);
  ASSERT_TRUE(target) << error;
  EXPECT_FALSE(target->features.shader_int8.has_value());
  EXPECT_NE(target_to_json(*target).find("\"shader_int8\": null"), std::string::npos);
}

TEST(TargetParse, WrongTypesAreErrors) {
  EXPECT_EQ(
      error_of(replaced("\"max_compute_shared_memory_size\": 32768", "\"max_compute_shared_memory_size\": \"32K\"")),
      "targets/x.json:7:3: 'max_compute_shared_memory_size' must be a positive integer");
  EXPECT_EQ(error_of(replaced("\"max_compute_shared_memory_size\": 32768", "\"max_compute_shared_memory_size\": -1")),
            "targets/x.json:7:3: 'max_compute_shared_memory_size' must be a positive integer");
  EXPECT_EQ(error_of(replaced("\"shader_int8\": true", "\"shader_int8\": 1")),
            "targets/x.json:16:5: 'features.shader_int8' must be true, false or null (not verified)");
  EXPECT_EQ(error_of(replaced("\"name\": \"test-gpu\"", "\"name\": \"Test GPU\"")),
            "targets/x.json:3:3: 'name' must be kebab-case (a-z, 0-9, '-' and '.'), not 'Test GPU'");
  EXPECT_EQ(error_of(replaced("\"klint-target-1\"", "\"klint-target-2\"")),
            "targets/x.json:2:3: 'schema' must be \"klint-target-1\", not \"klint-target-2\"");
  EXPECT_EQ(error_of(replaced("[\"a made-up device for tests\"]", "[]")),
            "targets/x.json:27:3: 'sources' must be a non-empty array of strings");
  EXPECT_EQ(error_of("[]"), "targets/x.json:1:1: a target must be a JSON object");
}

TEST(TargetParse, UnknownSubgroupOperationIsAnError) {
  EXPECT_EQ(
      error_of(replaced("\"ballot\"]", "\"balot\"]")),
      "targets/x.json:12:54: unknown subgroup operation 'balot' in 'subgroup_supported_operations' (known: basic, "
      "vote, arithmetic, ballot, shuffle, shuffle_relative, clustered, quad)");
  EXPECT_EQ(error_of(replaced("\"ballot\"]", "\"vote\"]")),
            "targets/x.json:12:54: subgroup operation 'vote' is listed twice");
  EXPECT_EQ(error_of(replaced("[\"basic\", \"vote\", \"ballot\"]", "[\"vote\"]")),
            "targets/x.json:12:3: 'subgroup_supported_operations' must include \"basic\": Vulkan requires it wherever "
            "subgroups are supported");
}

TEST(TargetParse, SubgroupSizesMustBeOrderedPowersOfTwo) {
  EXPECT_EQ(error_of(replaced("\"min\": 32, \"max\": 64", "\"min\": 64, \"max\": 32")),
            "targets/x.json:11:21: 'subgroup_size.min' (64) is greater than 'subgroup_size.max' (32)");
  EXPECT_EQ(error_of(replaced("\"max\": 64", "\"max\": 48")),
            "targets/x.json:11:32: 'subgroup_size.max' must be a power of two, not 48");
  EXPECT_EQ(error_of(replaced("\"max\": 64", "\"max\": 256")),
            "targets/x.json:11:32: 'subgroup_size.max' must be at most 128");
  EXPECT_EQ(error_of(replaced("\"preferred\": 32", "\"preferred\": 16")),
            "targets/x.json:11:43: 'subgroup_size.preferred' (16) is outside 'subgroup_size.min'..'subgroup_size.max' "
            "(32..64)");
}

TEST(TargetParse, OccupancyTiersMustAscend) {
  EXPECT_EQ(error_of(replaced("\"max_shared_memory\": 16384", "\"max_shared_memory\": 4096")),
            "targets/x.json:25:61: 'occupancy.tiers' must ascend by max_shared_memory: 4096 follows 8192");
}

TEST(TargetFile, MissingFileGivesReason) {
  std::string error;
  EXPECT_FALSE(load_target_file("/nonexistent/gpu.json", &error));
  EXPECT_EQ(error, "/nonexistent/gpu.json: cannot open the target file: No such file or directory");
}

TEST(TargetFile, UserFileLoads) {
  const fs::path path = fs::temp_directory_path() / "klint_targets_test_user.json";
  std::ofstream(path) << kValid;
  std::string error;
  std::optional<Target> target = load_target_file(path.string(), &error);
  ASSERT_TRUE(target) << error;
  EXPECT_EQ(target->name, "test-gpu");
  fs::remove(path);
}

TEST(TargetCatalog, EveryBuiltinTargetParses) {
  EXPECT_EQ(builtin_target_errors(), std::vector<std::string>{});
  const std::vector<Target>& targets = builtin_targets();
  EXPECT_EQ(targets.size(), embedded_target_files().size());
  EXPECT_TRUE(
      std::is_sorted(targets.begin(), targets.end(), [](const Target& a, const Target& b) { return a.name < b.name; }));
  for (const Target& target : targets) {
    SCOPED_TRACE(target.name);
    EXPECT_FALSE(target.sources.empty());
    EXPECT_FALSE(target.description.empty());
    EXPECT_GE(target.max_compute_shared_memory_size, 16384u);  // the Vulkan minimum
    // 0: no source gives the limit (null in the file).
    if (target.max_compute_work_group_invocations != 0) EXPECT_GE(target.max_compute_work_group_invocations, 128u);
  }
}

TEST(TargetCatalog, EmbeddedTargetsMatchTheSourceFiles) {
  // A JSON edit without a rebuild shows up here as a difference.
  size_t files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(fs::path(KLINT_SOURCE_DIR) / "targets")) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    SCOPED_TRACE(entry.path().string());
    std::string error;
    std::optional<Target> from_file = load_target_file(entry.path().string(), &error);
    ASSERT_TRUE(from_file) << error;
    EXPECT_EQ(from_file->name, entry.path().stem().string());
    const Target* embedded = find_target(from_file->name);
    ASSERT_NE(embedded, nullptr) << "not built in; rebuild";
    EXPECT_TRUE(*embedded == *from_file) << "differs from the built-in copy; rebuild";
  }
  EXPECT_EQ(files, builtin_targets().size());
}

TEST(TargetCatalog, RequiredTargetsExist) {
  for (std::string_view name :
       {"vulkan-1.3-minimum", "lavapipe", "nvidia-ampere", "nvidia-ada", "nvidia-hopper", "amd-rdna2-wave32",
        "amd-rdna2-wave64", "amd-rdna3-wave32", "amd-rdna3-wave64", "amd-gcn-wave64", "intel-xe", "apple-m1",
        "apple-m2", "apple-m3", "apple-m4", "arm-mali-valhall", "qualcomm-adreno-6xx", "qualcomm-adreno-7xx"}) {
    EXPECT_NE(find_target(name), nullptr) << name;
  }
}

TEST(TargetCatalog, MinimumTargetIsTheSpecMinimum) {
  const Target* minimum = find_target("vulkan-1.3-minimum");
  ASSERT_NE(minimum, nullptr);
  EXPECT_EQ(minimum->max_compute_shared_memory_size, 16384u);
  EXPECT_EQ(minimum->max_compute_work_group_invocations, 128u);
  EXPECT_EQ(minimum->max_compute_work_group_size, (std::array<uint32_t, 3>{128, 128, 64}));
  EXPECT_EQ(minimum->max_compute_work_group_count, (std::array<uint32_t, 3>{65535, 65535, 65535}));
  EXPECT_EQ(minimum->subgroup_supported_operations, uint32_t{kSubgroupBasic});
  for (const Target& target : builtin_targets()) {
    SCOPED_TRACE(target.name);
    EXPECT_GE(target.max_compute_shared_memory_size, minimum->max_compute_shared_memory_size);
    for (size_t i = 0; i < 3; ++i) {
      if (target.max_compute_work_group_size[i] == 0) continue;  // no source gives it
      EXPECT_GE(target.max_compute_work_group_size[i], minimum->max_compute_work_group_size[i]);
    }
    EXPECT_EQ(target.subgroup_supported_operations & kSubgroupBasic, uint32_t{kSubgroupBasic});
  }
}

TEST(TargetCatalog, DefaultTargetsResolve) {
  const std::vector<const Target*> targets = default_targets();
  ASSERT_EQ(targets.size(), default_target_names().size());
  for (size_t i = 0; i < targets.size(); ++i) {
    ASSERT_NE(targets[i], nullptr);
    EXPECT_EQ(targets[i]->name, default_target_names()[i]);
  }
}

TEST(TargetCatalog, DocsTableListsEveryTarget) {
  std::ifstream in(fs::path(KLINT_SOURCE_DIR) / "docs" / "targets.md");
  const std::string docs((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(docs.empty());
  for (const Target& t : builtin_targets()) {
    const auto& size = t.max_compute_work_group_size;
    // A limit no source gives is null in the file and "unknown" in the table.
    auto limit = [](uint32_t value) { return value ? std::to_string(value) : std::string("unknown"); };
    const std::string dimensions =
        size[0] ? limit(size[0]) + " x " + limit(size[1]) + " x " + limit(size[2]) : std::string("unknown");
    const std::string row = "| `" + t.name + "` | " + std::to_string(t.max_compute_shared_memory_size) + " | " +
                            limit(t.max_compute_work_group_invocations) + " | " + dimensions + " | " +
                            std::to_string(t.subgroup_size.min) + "-" + std::to_string(t.subgroup_size.max) + " (" +
                            std::to_string(t.subgroup_size.preferred) + ") |";
    EXPECT_NE(docs.find(row), std::string::npos) << "docs/targets.md lacks or misstates: " << row;
  }
}

TEST(TargetCatalog, FindTargetUnknownIsNull) {
  EXPECT_EQ(find_target("no-such-gpu"), nullptr);
  EXPECT_EQ(find_target(""), nullptr);
  EXPECT_EQ(find_target("lavapip"), nullptr);
}

TEST(TargetCatalog, EveryTargetRoundTripsThroughJson) {
  for (const Target& target : builtin_targets()) {
    SCOPED_TRACE(target.name);
    std::string error;
    std::optional<Target> again = parse_target(target_to_json(target), "round-trip.json", &error);
    ASSERT_TRUE(again) << error;
    EXPECT_TRUE(*again == target);
  }
}

}  // namespace
}  // namespace klint
