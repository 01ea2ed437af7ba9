#include "cli/sweep_slurm.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/results.h"
#include "cli/subprocess.h"
#include "model/common/log.h"

namespace fs = std::filesystem;

namespace simtlm::cli {
namespace {

void requireTool(const std::string& name) {
  if (!findOnPath(name).empty()) return;
  throw std::runtime_error("--backend slurm: '" + name +
                           "' is not on PATH: load or install Slurm's client commands (on a cluster usually "
                           "`module load slurm`; Debian/Ubuntu: apt-get install slurm-client), or run the sweep "
                           "on this machine with --backend local");
}

std::string utcNow() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

std::string firstLine(const std::string& s) {
  std::string l = s.substr(0, s.find('\n'));
  return l.empty() ? "(no message)" : l;
}

// A command line as a shell would take it (for messages, the job script's comment, logs).
std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + shellQuote(w);
  return s;
}

// The last `n` lines of a task's log: why a point left no result.
std::string tailOf(const std::string& path, size_t n) {
  std::ifstream in(path);
  if (!in) return "  (no log: the task did not start, or the log is not visible here)\n";
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string s;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i) s += "  | " + lines[i] + "\n";
  return s;
}

// An array's tasks still in the queue; known false when Slurm no longer lists the job.
struct QueueState {
  bool known = false;
  int pending = 0, running = 0, other = 0;
  int total() const { return pending + running + other; }
};

// squeue lists an array's pending, running and completing tasks (one line each with -r); a job
// that ended is not listed (or, once forgotten, "Invalid job id"). Other failures (the
// controller unreachable) are transient: reported through `error`.
QueueState queueState(const std::string& jobId, std::string& error) {
  const ProgramResult r = runProgram({"squeue", "-h", "-r", "-j", jobId, "-o", "%T"});
  error.clear();
  QueueState q;
  if (r.exitCode != 0) {
    if (r.err.find("Invalid job id") == std::string::npos) error = "squeue: " + firstLine(r.err);
    return q;
  }
  std::istringstream in(r.out);
  for (std::string s; in >> s;) {
    q.known = true;
    if (s == "PENDING") q.pending++;
    else if (s == "RUNNING" || s == "COMPLETING" || s == "CONFIGURING") q.running++;
    else q.other++;
  }
  return q;
}

class SlurmSweep {
 public:
  SlurmSweep(const SweepSpec& spec, const std::string& outDir, const SweepFiles& files, const SlurmOptions& o)
      : spec_(spec), files_(files), o_(o), out_(fs::absolute(outDir).lexically_normal().string()),
        dir_(out_ + "/slurm"), statePath_(dir_ + "/state.json"), shownOut_(outDir),
        again_("simtlm sweep " + shellQuote(spec.file) + " --out " + shellQuote(outDir)) {}

  SlurmOutcome run() {
    lockFolder();
    loadState();
    std::vector<const SweepPoint*> todo = pending();
    if (todo.empty()) return SlurmOutcome::kFinished;  // nothing for Slurm to do: aggregate
    requireTool("sbatch");
    requireTool("squeue");
    if (!state_["submissions"].empty()) {  // an earlier array: let it finish before resubmitting
      const std::string last = state_["submissions"].back().value("job", "");
      std::string error;
      if (queueState(last, error).known || !error.empty()) {
        if (!o_.collect && !error.empty())
          throw std::runtime_error(error + " (cannot tell whether job " + last + " of this sweep is still in the queue)");
        if (!o_.collect)
          throw std::runtime_error("job " + last + " of this sweep is still in Slurm's queue: wait for it with `" + again_ +
                                   " --collect`, or cancel it with `scancel " + last + "`");
        if (!o_.wait) return reportQueued(last);
        if (!waitFor(last)) return SlurmOutcome::kStillQueued;
      }
      todo = pending();
      reportMissing(state_["submissions"].back());
      if (todo.empty()) return SlurmOutcome::kFinished;
      std::cerr << "simtlm sweep " << spec_.name << ": " << todo.size() << " of " << spec_.points.size()
                << (todo.size() == 1 ? " point still has" : " points still have")
                << " no passed result: submitting " << (todo.size() == 1 ? "it" : "them") << " again\n";
    }
    const std::string job = submit(todo);
    if (!o_.wait) {
      std::cout << "simtlm sweep " << spec_.name << ": submitted job array " << job << " (" << todo.size()
                << (todo.size() == 1 ? " task" : " tasks") << "); follow it with `squeue -j " << job << "`, then collect the results with `"
                << again_ << " --collect`\n";
      return SlurmOutcome::kSubmitted;
    }
    if (!waitFor(job)) return SlurmOutcome::kStillQueued;
    if (reportMissing(state_["submissions"].back()) > 0)
      std::cerr << "simtlm sweep " << spec_.name << ": submit the points without a passed result again with `" << again_
                << " --collect`\n";
    return SlurmOutcome::kFinished;
  }

 private:
  // One submitter or collector per folder at a time: two would submit the same points twice.
  // The lock lasts as long as this process (the descriptor stays open).
  void lockFolder() {
    fs::create_directories(dir_);
    const std::string path = dir_ + "/lock";
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0)
      throw std::runtime_error("another `simtlm sweep` is submitting or collecting in '" + shownOut_ + "' (it holds " +
                               path + "): let it finish, or collect later");
  }

  void loadState() {
    std::ifstream in(statePath_);
    if (!in) {
      if (o_.collect)
        throw std::runtime_error("--collect: '" + shownOut_ + "' holds no Slurm submission (no " + shownOut_ +
                                 "/slurm/state.json): submit the sweep first with `" + again_ +
                                 " --backend slurm`");
      state_ = {{"sweep", fs::absolute(spec_.file).lexically_normal().string()}, {"name", spec_.name},
                {"submissions", nlohmann::json::array()}};
      return;
    }
    try {
      state_ = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
      throw std::runtime_error(statePath_ + ": not a sweep's Slurm state (" + e.what() + ")");
    }
    if (!state_.is_object() || !state_.contains("submissions") || !state_["submissions"].is_array())
      throw std::runtime_error(statePath_ + ": not a sweep's Slurm state (no submissions list)");
    if (state_.value("name", "") != spec_.name)
      throw std::runtime_error("--out '" + shownOut_ + "' holds sweep '" + state_.value("name", "") +
                               "', not '" + spec_.name + "': give the sweep's own folder");
  }

  // Options not given on this command line come from the previous submission (a rerun goes
  // where the first run went).
  void inheritOptions() {
    if (state_["submissions"].empty()) return;
    const nlohmann::json& prev = state_["submissions"].back()["options"];
    if (o_.partition.empty()) o_.partition = prev.value("partition", "");
    if (o_.time.empty()) o_.time = prev.value("time", "");
    if (o_.sbatchArgs.empty()) o_.sbatchArgs = prev.value("sbatch_args", std::vector<std::string>{});
    if (o_.arrayLimit == 0) o_.arrayLimit = prev.value("array_limit", 0);
  }

  // The points without a passed result, in the sweep's order.
  std::vector<const SweepPoint*> pending() const {
    std::vector<const SweepPoint*> todo;
    for (const SweepPoint& p : spec_.points)
      if (!files_.done(p)) todo.push_back(&p);
    return todo;
  }

  std::string submit(const std::vector<const SweepPoint*>& todo) {
    inheritOptions();
    const int k = static_cast<int>(state_["submissions"].size()) + 1;
    const std::string tasks = dir_ + "/tasks-" + std::to_string(k) + ".txt";
    const std::string script = dir_ + "/job-" + std::to_string(k) + ".sh";
    fs::create_directories(dir_ + "/logs");  // sbatch does not make the folder of --output
    std::string lines;
    for (const SweepPoint* p : todo) lines += files_.command(*p) + "\n";
    writeFileAtomically(tasks, lines);
    std::vector<std::string> cmd = {"sbatch", "--parsable",
                                    "--array=0-" + std::to_string(todo.size() - 1) +
                                        (o_.arrayLimit > 0 ? "%" + std::to_string(o_.arrayLimit) : ""),
                                    "--job-name=simtlm-" + spec_.name, "--output=" + dir_ + "/logs/%A_%a.log",
                                    "--chdir=" + out_, "--ntasks=1"};
    if (!o_.partition.empty()) cmd.push_back("--partition=" + o_.partition);
    if (!o_.time.empty()) cmd.push_back("--time=" + o_.time);
    cmd.insert(cmd.end(), o_.sbatchArgs.begin(), o_.sbatchArgs.end());
    cmd.push_back(script);
    // Task N runs line N+1; `run --json` writes the result through a temporary name and a
    // rename, so a task killed half-way leaves no result that looks complete.
    writeFileAtomically(script, "#!/bin/sh\n"
                                "# simtlm sweep " + spec_.name + ", submission " + std::to_string(k) +
                                    ": array task N runs line N+1 of tasks-" + std::to_string(k) + ".txt\n"
                                "# submitted with: " + joined(cmd) + "\n"
                                "tasks=" + shellQuote(tasks) + "\n"
                                "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" \"$tasks\")\n"
                                "if [ -z \"$line\" ]; then echo \"simtlm sweep: no line for task $SLURM_ARRAY_TASK_ID in $tasks\" >&2; exit 2; fi\n"
                                "echo \"simtlm sweep: task $SLURM_ARRAY_TASK_ID on $(hostname): $line\" >&2\n"
                                "eval \"exec $line\"\n");
    fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
    spdlog::logger& logger = log::get("cli.sweep");
    logger.debug("submitting: {}", joined(cmd));
    const ProgramResult r = runProgram(cmd);
    if (r.exitCode != 0)
      throw std::runtime_error("sbatch failed (exit " + std::to_string(r.exitCode) + "): " +
                               (r.err.empty() ? firstLine(r.out) : r.err.substr(0, r.err.find_last_not_of('\n') + 1)) +
                               "\n  command: " + joined(cmd));
    std::cerr << r.err;  // sbatch's warnings, if any
    std::string job = firstLine(r.out);
    job = job.substr(0, job.find(';'));  // --parsable: "jobid[;cluster]"
    if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos)
      throw std::runtime_error("sbatch answered '" + firstLine(r.out) + "', not a job id\n  command: " + joined(cmd));
    nlohmann::json points = nlohmann::json::array();
    for (const SweepPoint* p : todo) points.push_back(p->id());
    state_["submissions"].push_back({{"job", job}, {"submitted", utcNow()}, {"script", script}, {"tasks", tasks},
                                     {"sbatch", cmd}, {"points", points},
                                     {"options", {{"partition", o_.partition}, {"time", o_.time},
                                                  {"sbatch_args", o_.sbatchArgs}, {"array_limit", o_.arrayLimit}}}});
    writeJsonAtomically(statePath_, state_);
    std::cerr << "simtlm sweep " << spec_.name << ": submitted job array " << job << ": " << todo.size()
              << (todo.size() == 1 ? " task" : " tasks") << ", logs in " << shownOut_ << "/slurm/logs" << std::endl;
    return job;
  }

  size_t pointsDone() const {
    return std::count_if(spec_.points.begin(), spec_.points.end(), [&](const SweepPoint& p) { return files_.done(p); });
  }

  // Polls squeue until the array leaves the queue (true) or --wait-timeout passes (false); the
  // interval grows from 1 s to 15 s. squeue failing for 5 minutes on end is an error.
  bool waitFor(const std::string& job) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    auto failingSince = clock::time_point::max();
    double interval = 1;
    std::string shown;
    for (;;) {
      std::string error;
      const QueueState q = queueState(job, error);
      const auto now = clock::now();
      if (error.empty()) {
        failingSince = clock::time_point::max();
        if (!q.known) return true;
        std::ostringstream s;
        s << "simtlm sweep " << spec_.name << ": job " << job << ": " << q.running << " running, " << q.pending
          << " pending" << (q.other ? ", " + std::to_string(q.other) + " held or suspended" : "") << "; "
          << pointsDone() << " of " << spec_.points.size() << " points have results";
        if (s.str() != shown) std::cerr << (shown = s.str()) << std::endl;
      } else {
        if (failingSince == clock::time_point::max()) {
          failingSince = now;
          std::cerr << "simtlm sweep: " << error << " (retrying)" << std::endl;
        }
        if (now - failingSince > std::chrono::minutes(5))
          throw std::runtime_error(error + " (for 5 minutes; the job array " + job +
                                   " may still run: collect later with --collect)");
      }
      const double waited = std::chrono::duration<double>(now - start).count();
      if (o_.waitTimeout > 0 && waited >= o_.waitTimeout) {
        std::cerr << "simtlm sweep " << spec_.name << ": stopped waiting for job " << job << " after " << o_.waitTimeout
                  << " s (--wait-timeout); the job stays in the queue: collect its results with `"
                  << again_ << " --collect`, or cancel it with `scancel " << job << "`\n";
        return false;
      }
      double sleep = interval;
      if (o_.waitTimeout > 0) sleep = std::min(sleep, o_.waitTimeout - waited);
      std::this_thread::sleep_for(std::chrono::duration<double>(std::max(sleep, 0.05)));
      interval = std::min(interval * 1.5, 15.0);
    }
  }

  SlurmOutcome reportQueued(const std::string& job) {
    std::string error;
    const QueueState q = queueState(job, error);
    std::cerr << "simtlm sweep " << spec_.name << ": job " << job << " is still in the queue (" << q.running
              << " running, " << q.pending << " pending); " << pointsDone() << " of " << spec_.points.size()
              << " points have results: collect again later\n";
    return SlurmOutcome::kStillQueued;
  }

  // The tasks of a finished array that left no passed result, with the end of their logs.
  size_t reportMissing(const nlohmann::json& submission) {
    const std::string job = submission.value("job", "");
    const auto ids = submission.value("points", std::vector<std::string>{});
    size_t missing = 0;
    for (size_t i = 0; i < ids.size(); ++i) {
      const auto p = std::find_if(spec_.points.begin(), spec_.points.end(), [&](const SweepPoint& q) { return q.id() == ids[i]; });
      if (p == spec_.points.end() || files_.done(*p)) continue;
      const std::string logFile = dir_ + "/logs/" + job + "_" + std::to_string(i) + ".log";
      std::cerr << "simtlm sweep: " << ids[i] << ": array task " << job << "_" << i << " left no passed result ("
                << logFile << "):\n"
                << tailOf(logFile, 6);
      ++missing;
    }
    return missing;
  }

  const SweepSpec& spec_;
  const SweepFiles& files_;
  SlurmOptions o_;
  const std::string out_, dir_, statePath_, shownOut_;
  const std::string again_;  // "simtlm sweep FILE --out DIR": the command line to suggest
  nlohmann::json state_;
};

}  // namespace

SlurmOutcome runSweepOnSlurm(const SweepSpec& spec, const std::string& outDir, const SweepFiles& files,
                             const SlurmOptions& options) {
  return SlurmSweep(spec, outDir, files, options).run();
}

}  // namespace simtlm::cli
