#include "cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace simtlm::cli {
namespace {

std::string amount(double v) {  // 1234567 -> "1.23 M"
  char b[32];
  if (v >= 1e9) std::snprintf(b, sizeof b, "%.2f G", v / 1e9);
  else if (v >= 1e6) std::snprintf(b, sizeof b, "%.2f M", v / 1e6);
  else if (v >= 1e3) std::snprintf(b, sizeof b, "%.1f k", v / 1e3);
  else std::snprintf(b, sizeof b, "%.0f", v);
  return b;
}

std::string duration(double s) {
  char b[32];
  if (s >= 3600) std::snprintf(b, sizeof b, "%dh%02dm", static_cast<int>(s / 3600), static_cast<int>(s / 60) % 60);
  else if (s >= 60) std::snprintf(b, sizeof b, "%dm%02ds", static_cast<int>(s / 60), static_cast<int>(s) % 60);
  else std::snprintf(b, sizeof b, "%.0fs", s);
  return b;
}

}  // namespace

Progress::Progress(std::string what, uint64_t maxCycles, uint64_t maxInstructions)
    : what_(std::move(what)), maxCycles_(maxCycles), maxInstructions_(maxInstructions),
      enabled_(isatty(STDERR_FILENO) == 1), interval_(3.0), start_(Clock::now()), last_(start_) {
  if (const char* e = std::getenv("SIMTLM_PROGRESS_INTERVAL")) {
    char* end = nullptr;
    const double v = std::strtod(e, &end);
    if (end != e && v > 0) interval_ = v;
  }
}

void Progress::update(uint64_t cycles, uint64_t instructions) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (std::chrono::duration<double>(now - last_).count() < interval_) return;
  last_ = now;
  const double t = std::chrono::duration<double>(now - start_).count();
  std::string line = "simtlm: " + what_ + ": " + duration(t);
  if (cycles) line += ", " + amount(static_cast<double>(cycles)) + " cycles (" + amount(cycles / t) + " cycles/s)";
  line += ", " + amount(static_cast<double>(instructions)) + " warp instructions (" + amount(instructions / t) + "/s)";
  // Time to the nearer limit at the rate so far: when the run would stop if it never finished.
  double eta = -1;
  if (maxCycles_ && cycles && cycles < maxCycles_) eta = (maxCycles_ - cycles) / (cycles / t);
  if (maxInstructions_ && instructions && instructions < maxInstructions_) {
    const double e = (maxInstructions_ - instructions) / (instructions / t);
    eta = eta < 0 ? e : std::min(eta, e);
  }
  if (eta >= 0) line += "; the run limit in at most " + duration(eta);
  std::cerr << line << std::endl;
}

}  // namespace simtlm::cli
