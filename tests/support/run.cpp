#include "tests/support/run.h"
#include "tests/support/unprivileged.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace klint::testing {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// `input`: what standard input holds; nullptr for /dev/null.
KlintRun run_binary(const std::vector<std::string>& args, const std::string& cwd, int timeout_seconds,
                    bool unprivileged, const std::string* input) {
  static int counter = 0;
  std::string base = (std::filesystem::temp_directory_path() /
                      ("klint-run-" + std::to_string(getpid()) + "-" + std::to_string(counter++)))
                         .string();
  std::string out_path = base + ".out", err_path = base + ".err";
  std::string in_path = input ? base + ".in" : "/dev/null";
  if (input) std::ofstream(in_path, std::ios::binary) << *input;
  // The build tree may sit where an unprivileged user cannot reach it.
  std::string binary = KLINT_BINARY;
  if (unprivileged) {
    binary = base + ".klint";
    std::filesystem::copy_file(KLINT_BINARY, binary, std::filesystem::copy_options::overwrite_existing);
    chmod(binary.c_str(), 0755);
  }
  pid_t pid = fork();
  if (pid == 0) {
    int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int in = open(in_path.c_str(), O_RDONLY);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    dup2(in, STDIN_FILENO);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    if (unprivileged && !drop_privileges()) _exit(127);
    unsetenv("NO_COLOR");
    std::vector<char*> argv{binary.data()};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  KlintRun run;
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      run.exit_code = 124;
      run.out = slurp(out_path);
      run.err = slurp(err_path);
      return run;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = slurp(out_path);
  run.err = slurp(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  if (input) std::remove(in_path.c_str());
  if (unprivileged) std::remove(binary.c_str());
  return run;
}

}  // namespace

KlintRun run_klint(const std::vector<std::string>& args, const std::string& cwd, int timeout_seconds,
                   bool unprivileged) {
  return run_binary(args, cwd, timeout_seconds, unprivileged, nullptr);
}

KlintRun run_klint_with_input(const std::vector<std::string>& args, const std::string& input, const std::string& cwd) {
  return run_binary(args, cwd, 60, false, &input);
}

}  // namespace klint::testing
