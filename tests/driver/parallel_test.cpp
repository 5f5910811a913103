// -j: results come out in input order whatever finishes first, the output of
// a parallel run is the output of a serial one, and progress shows only on a
// terminal.
#include "driver/parallel.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "tests/support/run.h"

namespace klint::testing {
namespace {

TEST(OrderedParallelFor, ConsumesInOrderWhateverFinishesFirst) {
  std::vector<size_t> consumed;
  std::set<std::thread::id> workers;
  std::mutex mutex;
  ordered_parallel_for(
      40, 4,
      [&](size_t i) {
        // Early items are the slowest, so later ones finish first.
        std::this_thread::sleep_for(std::chrono::milliseconds(i < 4 ? 30 : 1));
        std::lock_guard lock(mutex);
        workers.insert(std::this_thread::get_id());
        return i * 10;
      },
      [&](size_t i, size_t result) {
        EXPECT_EQ(result, i * 10);
        consumed.push_back(i);
      });
  ASSERT_EQ(consumed.size(), 40u);
  for (size_t i = 0; i < consumed.size(); ++i) EXPECT_EQ(consumed[i], i);
  EXPECT_GT(workers.size(), 1u);
}

TEST(OrderedParallelFor, HandlesNoWorkAndOneThread) {
  size_t calls = 0;
  ordered_parallel_for(0, 8, [](size_t i) { return i; }, [&](size_t, size_t) { ++calls; });
  EXPECT_EQ(calls, 0u);
  ordered_parallel_for(3, 1, [](size_t i) { return i; }, [&](size_t i, size_t r) { calls += (i == r); });
  EXPECT_EQ(calls, 3u);
}

// Every third fixture of a few rule folders: enough files, of unequal cost,
// to finish out of order (about 50), few enough for the sanitizer build as
// the folders grow.
std::vector<std::string> some_fixtures() {
  std::vector<std::string> files;
  for (const char* rule : {"shared-memory-race", "barrier-in-divergent-control-flow", "subgroup-size-assumed"}) {
    std::set<std::string> folder;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(KLINT_SOURCE_DIR) + "/tests/rules/" + rule)) {
      const std::string extension = entry.path().extension().string();
      if (extension == ".comp" || extension == ".hlsl" || extension == ".spvasm") folder.insert(entry.path().string());
    }
    size_t index = 0;
    for (const std::string& file : folder) {
      if (index++ % 3 == 0) files.push_back(file);
    }
  }
  return files;
}

TEST(ParallelLint, OutputIsTheSameWithAnyNumberOfJobs) {
  std::vector<std::string> serial_args{"--no-cache", "--color=never", "-j", "1"};
  std::vector<std::string> parallel_args{"--no-cache", "--color=never", "-j", "3"};
  for (const std::string& folder : some_fixtures()) {
    serial_args.push_back(folder);
    parallel_args.push_back(folder);
  }
  KlintRun serial = run_klint(serial_args, "", 300);
  KlintRun parallel = run_klint(parallel_args, "", 300);
  ASSERT_EQ(serial.exit_code, 1) << serial.err;
  EXPECT_GT(serial.out.size(), 5000u);
  EXPECT_EQ(parallel.exit_code, serial.exit_code);
  EXPECT_EQ(parallel.out, serial.out);
  EXPECT_EQ(parallel.err, serial.err);
}

// Everything a report holds survives the cache: a warm run prints, in every
// format, what the cold run printed.
TEST(CachedLint, AWarmRunPrintsWhatAColdRunPrinted) {
  namespace fs = std::filesystem;
  fs::path cache = fs::temp_directory_path() / ("klint-warm-" + std::to_string(getpid()));
  fs::remove_all(cache);
  ASSERT_EQ(setenv("KLINT_CACHE_DIR", cache.c_str(), 1), 0);
  std::vector<std::string> inputs = some_fixtures();
  inputs.push_back(std::string(KLINT_SOURCE_DIR) + "/tests/rules/unused-suppression");
  for (const char* format : {"text", "json", "sarif"}) {
    std::vector<std::string> args{"--color=never", "--format", format, "-j", "2"};
    if (std::string_view(format) == "sarif") args.push_back("--include-suppressed");
    args.insert(args.end(), inputs.begin(), inputs.end());
    fs::remove_all(cache);
    KlintRun cold = run_klint(args, "", 300);
    size_t entries = 0;
    for (const auto& entry : fs::recursive_directory_iterator(cache)) entries += entry.is_regular_file();
    EXPECT_GT(entries, 20u) << format;
    KlintRun warm = run_klint(args, "", 300);
    EXPECT_EQ(cold.exit_code, 1) << format << cold.err;
    EXPECT_EQ(warm.exit_code, cold.exit_code) << format;
    EXPECT_EQ(warm.out, cold.out) << format;
    EXPECT_EQ(warm.err, cold.err) << format;
  }
  fs::remove_all(cache);
}

TEST(ParallelLint, ZeroJobsIsAUsageError) {
  KlintRun run = run_klint({"-j", "0", std::string(KLINT_SOURCE_DIR) + "/examples"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "klint: error: --jobs: '0' is not a number of jobs, 1 or more\n");
}

// Runs `command` with a terminal as its standard error (util-linux script).
std::string on_a_terminal(const std::string& command) {
  std::string line = "script -qefc '" + command + "' /dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(line.c_str(), "r"), pclose);
  std::string out;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe.get())) out.append(buffer, n);
  return out;
}

TEST(ParallelLint, ProgressShowsOnATerminalAndIsErased) {
  std::string folders;
  for (const std::string& folder : some_fixtures()) folders += " " + folder;
  std::string terminal = on_a_terminal(std::string(KLINT_BINARY) + " --no-cache -j 2" + folders + " >/dev/null");
  EXPECT_NE(terminal.find("files"), std::string::npos) << terminal;  // the summary
  size_t progress = terminal.find("] ");
  ASSERT_NE(progress, std::string::npos) << terminal;
  EXPECT_NE(terminal.find("\r\x1b[2K", progress), std::string::npos) << terminal;  // erased before the summary
  // Not a terminal: no progress.
  KlintRun piped = run_klint({"--no-cache", "-j", "2", some_fixtures()[0]});
  EXPECT_EQ(piped.err.find("\x1b[2K"), std::string::npos);
}

}  // namespace
}  // namespace klint::testing
