#include "cli/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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

// Runs `program` with `args` (argv[0] first), stdout and stderr into one string; tracked for
// stopChildrenOnSignal.
ChildResult runChild(const std::string& program, const std::vector<std::string>& args) {
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
  return runChild("/proc/self/exe", argv);
}

std::string shellQuote(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:") ==
                        std::string::npos)
    return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string findOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    const std::string f = dir + "/" + name;
    if (access(f.c_str(), X_OK) == 0 && !std::filesystem::is_directory(f))
      return std::filesystem::absolute(f).lexically_normal().string();
    start = end + 1;
  }
  return "";
}

ProgramResult runProgram(const std::vector<std::string>& args) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe for " + args[0]);
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(out[0]);
    close(out[1]);
    throw std::runtime_error("cannot create a pipe for " + args[0]);
  }
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out[0], out[1], err[0], err[1]}) close(fd);
    throw std::runtime_error("cannot start " + args[0]);
  }
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  ProgramResult r;
  // Both pipes at once: a program that fills one while we block on the other would never end.
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int live = 2;
  char buf[4096];
  while (live > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --live;
      }
    }
  }
  for (const pollfd& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace simtlm::cli
