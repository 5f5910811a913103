#include "tests/support/unprivileged.h"

#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

namespace klint::testing {

bool drop_privileges() {
  if (geteuid() != 0) return true;
  return setgroups(0, nullptr) == 0 && setgid(kUnprivilegedId) == 0 && setuid(kUnprivilegedId) == 0;
}

std::string run_unprivileged(const std::function<std::string()>& f) {
  int fds[2];
  if (pipe(fds) != 0) return "<child failed>";
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    if (!drop_privileges()) _exit(1);
    std::string result = f();
    size_t written = 0;
    while (written < result.size()) {
      ssize_t n = write(fds[1], result.data() + written, result.size() - written);
      if (n <= 0) _exit(1);
      written += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string result;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) result.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "<child failed>";
  return result;
}

}  // namespace klint::testing
