#include "cli/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <stdexcept>

namespace simtlm::cli {
namespace {

// The children running now, for the signal handler (lock-free: a handler may not lock).
constexpr int kSlots = 256;
std::atomic<pid_t> gChildren[kSlots];
std::atomic<bool> gStopping{false};

int track(pid_t pid) {
  for (int i = 0; i < kSlots; ++i) {
    pid_t none = 0;
    if (gChildren[i].compare_exchange_strong(none, pid)) return i;
  }
  return -1;
}

void onStopSignal(int sig) {
  gStopping = true;
  for (auto& c : gChildren)
    if (const pid_t pid = c.load(); pid > 0) kill(pid, SIGTERM);
  signal(sig, SIG_DFL);  // then end as the signal would have
  raise(sig);
}

}  // namespace

void stopChildrenOnSignal() {
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

ChildResult runSelf(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"simtlm"};
  argv.insert(argv.end(), args.begin(), args.end());
  return runProgram("/proc/self/exe", argv);
}

ChildResult runProgram(const std::string& program, const std::vector<std::string>& args) {
  // argv is built before fork: the child only calls async-signal-safe functions, so callers
  // may start children from several threads (compare --jobs).
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
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
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // and if the parent dies without a chance to tell us
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    dup2(fds[1], 1);  // dup2 clears close-on-exec on 1 and 2
    dup2(fds[1], 2);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  close(fds[1]);
  const int slot = track(pid);
  if (gStopping) kill(pid, SIGTERM);  // the stop signal came between fork and track
  ChildResult r;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) r.output.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (slot >= 0) gChildren[slot] = 0;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace simtlm::cli
