#include "cli/subprocess.h"

#include <fcntl.h>
#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>

namespace simtlm::cli {

ChildResult runSelf(const std::vector<std::string>& args) {
  // argv is built before fork: the child only calls async-signal-safe functions, so callers
  // may start children from several threads (compare --jobs).
  std::vector<std::string> copy = args;
  std::string self = "simtlm";
  std::vector<char*> argv;
  argv.push_back(self.data());
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe for a child process");
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw std::runtime_error("cannot start a child process");
  }
  if (pid == 0) {
    dup2(fds[1], 1);  // dup2 clears close-on-exec on 1 and 2
    dup2(fds[1], 2);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  close(fds[1]);
  ChildResult r;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) r.output.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace simtlm::cli
