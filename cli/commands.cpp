#include "cli/commands.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/bench.h"
#include "cli/compare.h"
#include "cli/faults.h"
#include "cli/darsie_storage.h"
#include "cli/emulate.h"
#include "cli/microbench.h"
#include "cli/energy_options.h"
#include "cli/options.h"
#include "cli/plot.h"
#include "cli/ptx_command.h"
#include "cli/results.h"
#include "cli/run_limits.h"
#include "cli/scenario_run.h"
#include "cli/stats_command.h"
#include "cli/sweep.h"
#include "cli/timeline.h"
#include "isa/annotate.h"
#include "isa/assembler.h"
#include "isa/binary.h"
#include "isa/bow_hints.h"
#include "isa/darsie_analysis.h"
#include "isa/diagnostics.h"
#include "isa/input_file.h"
#include "isa/disassembler.h"
#include "cli/config_loader.h"
#include "model/mechanisms/registry.h"
#include "workloads/data_dir.h"

namespace po = boost::program_options;

namespace simtlm::cli {
namespace {

const char* kUsage =
    "usage: simtlm [COMMAND] [OPTIONS]     (simtlm COMMAND --help: its options; simtlm --version)\n"
    "  (no command)              the default job: matmul (2D) and vecadd (1D) on the functional\n"
    "                            interpreter, verified, with the redundancy limit study; then\n"
    "                            matmul on the timing model, baseline vs DARSIE with energy\n"
    "  emulate WORKLOAD [--opt key=value]... [--json OUT] [--per-pc] [--no-study]\n"
    "          [--bow-study] [--max-instructions N]\n"
    "                            run a workload on the functional interpreter and verify it\n"
    "  emulate SCENARIO.yaml [--json OUT] [--no-study] [--max-instructions N]\n"
    "                            run a scenario file (docs/scenarios.md) on the functional\n"
    "                            interpreter and evaluate its checks\n"
    "  run SCENARIO.yaml [--mechanism M] [--config FILE.ini] [--set key=value]... [--json OUT]\n"
    "      [--limit-study] [--max-cycles N] [--max-instructions N] [--contract]\n"
    "      [--energy TABLE.yaml] [--energy-voltage V] [--energy-clock MHz]\n"
    "      [--power-trace OUT.csv|OUT.ptrace [--window N]]\n"
    "                            run a scenario on the timing model (GPU, host driver,\n"
    "                            interconnect, DRAM over TLM-2.0): cycles, IPC, statistics,\n"
    "                            energy and power, checks (equals_interpreter compares with\n"
    "                            the interpreter; --contract: the mechanism contract instead)\n"
    "  mechanisms [--names]      the mechanisms the timing model runs\n"
    "  compare SCENARIO.yaml [--mechanisms baseline,darsie] [--config FILE.ini]\n"
    "          [--set key=value]... [--json OUT] [--jobs N] [--chart OUT.svg|OUT.png]\n"
    "          [--max-cycles N] [--max-instructions N]\n"
    "          [--energy TABLE.yaml] [--energy-voltage V] [--energy-clock MHz]\n"
    "                            run a scenario once per mechanism (one child process each):\n"
    "                            cycles, speedup, fetched/executed/skipped, checks and energy\n"
    "                            per component (normalized to baseline) side by side\n"
    "  sweep SWEEP.yaml [--out DIR] [--jobs N] [--print-commands]\n"
    "                            scenarios x mechanisms x parameters, one child per point;\n"
    "                            results.csv and Fig. 1/2/8/9/11 as PNG and SVG (docs/sweeps.md)\n"
    "  plot sweep RESULTS.csv OUTDIR | energy COMPARE.json OUT | power POWER.csv OUT\n"
    "       | cpi RUN.json|SWEEPDIR... OUT\n"
    "                            draw figures with matplotlib (scripts/plot/simtlm_plot.py)\n"
    "  faults SCENARIO.yaml [--mechanism uv] [--target alu|register] [--injections N]\n"
    "          [--seed S] [--config FILE.ini] [--set key=value]... [--jobs N] [--json OUT]\n"
    "                            UV fault-injection campaign: one flipped bit per child run,\n"
    "                            detected / silent / masked, against the coverages (docs/uv.md)\n"
    "  bench [--sms 1,28] [--size 256] [--repeat 3] [--json OUT]\n"
    "                            simulation speed on the tiled matmul: interpreter and timing\n"
    "                            model (one child process per SM count)\n"
    "  microbench [--config FILE.ini] [--set key=value]... [--json OUT] [--jobs N]\n"
    "                            microbenchmark table: latencies, bandwidth, bank conflicts,\n"
    "                            issue rates, atomics beside published targets\n"
    "                            (docs/microbenchmarks.md)\n"
    "  asm KERNEL.s|KERNEL.ptx [--entry K] [-o OUT.bin] [--hints] [--window N]\n"
    "      [--annotate [--block X,Y,Z]\n"
    "               [--warp-size N] [--paper-tid-x-only]]\n"
    "                            assemble; print the listing annotated like DARSIE Fig. 6\n"
    "  disasm KERNEL.bin         disassemble a kernel binary\n"
    "  ptx FILE.ptx [--list] [--entry NAME] [--ptxas]\n"
    "                            list a PTX module's kernels, or print one translated into\n"
    "                            simtlm assembly (docs/ptx.md); .ptx files run wherever kernels do\n"
    "  workloads                 list the workloads and their options\n"
    "  params [--config FILE.ini] [--set key=value]...\n"
    "                            every machine parameter: value, default, unit, meaning\n"
    "  stats [--config FILE.ini] [--set key=value]... [--mechanism M] [--interpreter]\n"
    "        [--format text|markdown|json] [--markdown-doc]\n"
    "                            every statistic a run reports: name, unit, meaning\n"
    "  darsie-storage [--config FILE.ini] [--set key=value]... [--pc-bits N] [--named-reg-bits N]\n"
    "                 [--tag-bits N] [--version-bits N] [--warps-per-tb N] [--json OUT]\n"
    "                            DARSIE's storage per SM (Sec. 6.3): skip table, masks, rename\n";

// "32,32" or "32,32,1" -> Dim3; throws std::invalid_argument naming the option.
isa::Dim3 parseDim3(const std::string& text, const char* option) {
  isa::Dim3 d;
  uint32_t* parts[3] = {&d.x, &d.y, &d.z};
  std::stringstream ss(text);
  std::string item;
  int n = 0;
  while (std::getline(ss, item, ',')) {
    if (n == 3) throw std::invalid_argument(std::string(option) + ": at most three dimensions");
    size_t used = 0;
    long v = -1;
    try { v = std::stol(item, &used); } catch (...) { used = 0; }
    if (used != item.size() || v < 1 || v > 1024)
      throw std::invalid_argument(std::string(option) + ": '" + item + "' is not an integer in [1, 1024]");
    *parts[n++] = static_cast<uint32_t>(v);
  }
  if (n == 0) throw std::invalid_argument(std::string(option) + ": expected X[,Y[,Z]]");
  return d;
}

std::vector<InputFile> scenarioInputs(const scenario::Scenario& s) {
  std::vector<InputFile> out;
  for (const auto& [what, path] : s.inputFiles()) out.push_back({what, path});
  return out;
}

// The output options given, as OutputFiles.
std::vector<OutputFile> outputsOf(const po::variables_map& vm, std::initializer_list<const char*> options) {
  std::vector<OutputFile> out;
  for (const char* o : options)
    if (vm.count(o)) out.push_back({o, vm[o].as<std::string>()});
  return out;
}

isa::Kernel loadAnyKernel(const std::string& path, const std::string& entry = "") { return scenario::loadKernelFile(path, entry); }

int cmdAsm(const std::vector<std::string>& args) {
  po::options_description desc("asm");
  desc.add_options()("kernel", po::value<std::string>()->required(), "kernel source (.s, or .ptx: docs/ptx.md)")(
      "entry", po::value<std::string>(), "the kernel of a PTX module that holds several")(
      "output,o", po::value<std::string>(), "write the kernel binary here")(
      "hints", "write DARSIE (static V/CR/DR) and BOW-WR hint bits into the binary")(
      "window", po::value<int>()->default_value(3), "BOW instruction window, 1..8")(
      "annotate", "print the listing annotated with the static analyses")(
      "block", po::value<std::string>(), "launch block shape X,Y,Z for launch-time promotion")(
      "warp-size", po::value<int>()->default_value(32), "warp size, 1..32")(
      "paper-tid-x-only", "treat only tid.x as conditionally redundant (DARSIE Sec. 4.2)");
  auto vm = parseCommand("asm", "asm KERNEL.s [options]", desc, {{"kernel", "KERNEL"}}, args);
  int window = vm["window"].as<int>();
  int warp = vm["warp-size"].as<int>();
  if (window < 1 || window > 8) throw std::invalid_argument("--window " + std::to_string(window) + " is outside [1, 8]");
  if (warp < 1 || warp > 32) throw std::invalid_argument("--warp-size " + std::to_string(warp) + " is outside [1, 32]");
  checkOutputs(outputsOf(vm, {"output"}), {{"kernel file", vm["kernel"].as<std::string>()}});
  isa::Kernel k = loadAnyKernel(vm["kernel"].as<std::string>(), vm.count("entry") ? vm["entry"].as<std::string>() : "");
  if (vm.count("hints")) {
    isa::Cfg cfg(k);
    isa::applyStaticHints(k, isa::markRedundancy(k, cfg));
    isa::applyBowHints(k, window);
  }
  if (vm.count("annotate")) {
    isa::AnnotateOptions opt;
    if (vm.count("block")) opt.block = parseDim3(vm["block"].as<std::string>(), "--block");
    opt.warpSize = static_cast<uint32_t>(warp);
    opt.bowWindow = window;
    opt.conditionalTidYZ = !vm.count("paper-tid-x-only");
    std::cout << isa::annotateListing(k, opt);
  }
  if (vm.count("output")) writeFileAtomically(vm["output"].as<std::string>(), isa::serializeKernel(k));
  if (!vm.count("annotate") && !vm.count("output"))
    std::cout << k.name << ": " << k.size() << " instructions, " << k.numRegs << " registers, "
              << k.sharedBytes << " bytes shared, " << k.params.size() << " parameters\n";
  return 0;
}

int cmdDisasm(const std::vector<std::string>& args) {
  po::options_description desc("disasm");
  desc.add_options()("kernel", po::value<std::string>()->required(), "kernel binary or source");
  auto vm = parseCommand("disasm", "disasm KERNEL.bin", desc, {{"kernel", "KERNEL"}}, args);
  std::cout << isa::disassemble(loadAnyKernel(vm["kernel"].as<std::string>()));
  return 0;
}

// The one stderr line of a failed scenario: the first line of the error that stopped the run,
// and for a run limit how to raise it.
void reportFailure(const scenario::Scenario& s, const scenario::ScenarioResult& r) {
  std::cerr << "simtlm: error: scenario " << s.name << " FAILED";
  if (!r.error.empty()) std::cerr << ": " << r.error.substr(0, std::min(r.error.find("; where each warp was"), r.error.find('\n')));
  if (const std::string hint = limitHint(r.error); !hint.empty()) std::cerr << "; " << hint;
  std::cerr << "\n";
}

bool isScenarioPath(const std::string& a) {
  auto ends = [&](const std::string& suffix) {
    return a.size() > suffix.size() && a.compare(a.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends(".yaml") || ends(".yml");
}

int cmdEmulateScenario(const std::vector<std::string>& args) {
  po::options_description desc("emulate SCENARIO");
  desc.add_options()("scenario", po::value<std::string>()->required(), "scenario file (.yaml)")(
      "json", po::value<std::string>(), "write results as JSON")(
      "no-study", "run the interpreter alone, without the limit study (full speed)");
  addLimitOptions(desc, false);
  addLogOption(desc);
  auto vm = parseCommand("emulate", "emulate SCENARIO.yaml [options]", desc, {{"scenario", "SCENARIO"}}, args);
  applyLogOption(vm);
  scenario::Scenario s = scenario::loadScenario(vm["scenario"].as<std::string>());
  scenario::Overrides o;
  o.sets = limitSets(vm);
  scenario::applyOverrides(s, o);
  checkOutputs(outputsOf(vm, {"json"}), scenarioInputs(s));
  scenario::ScenarioResult r = scenario::runScenario(s, !vm.count("no-study"));
  scenario::printScenarioResult(std::cout, r);
  if (vm.count("json")) writeJsonAtomically(vm["json"].as<std::string>(), scenario::toJson(r));
  if (!r.passed) reportFailure(s, r);
  return r.passed ? 0 : 1;
}

int cmdRun(const std::vector<std::string>& args) {
  po::options_description desc("run");
  desc.add_options()("scenario", po::value<std::string>()->required(), "scenario file (.yaml)")(
      "mechanism", po::value<std::string>(), "mechanism (or a composition a+b) instead of the scenario's")(
      "config", po::value<std::string>(), "machine configuration instead of the scenario's")(
      "set", po::value<std::vector<std::string>>()->composing(), "override key=value after the scenario's")(
      "json", po::value<std::string>(), "write results as JSON")(
      "launch-stats", po::value<std::string>()->default_value("gpu"),
      "per-launch statistics in the JSON: none, gpu (the GPU-wide ones that changed) or all (every counter)")(
      "limit-study", "also run the redundancy limit study in the reference run (limit.* statistics)")(
      "contract", "check the mechanism contract instead of the scenario's checks: every buffer equals the "
                  "interpreter's, issued plus removed warp instructions equal its count");
  addLimitOptions(desc, true);
  addEnergyOptions(desc, true);
  addTimelineOptions(desc);
  addLogOption(desc);
  auto vm = parseCommand("run", "run SCENARIO.yaml [options]", desc, {{"scenario", "SCENARIO"}}, args);
  applyLogOption(vm);
  const std::string file = vm["scenario"].as<std::string>();
  if (!isScenarioPath(file))
    throw std::invalid_argument("run: '" + file + "' is not a scenario file (.yaml); see docs/scenarios.md");
  const EnergyRequest energy = energyRequestFrom(vm);
  const TimelineRequest timeline = timelineRequestFrom(vm);
  const scenario::LaunchStats launchStats = scenario::parseLaunchStats(vm["launch-stats"].as<std::string>());
  scenario::Scenario s = scenario::loadScenario(file);
  scenario::Overrides o;
  if (vm.count("mechanism")) o.mechanism = vm["mechanism"].as<std::string>();
  if (vm.count("config")) o.configFile = vm["config"].as<std::string>();
  if (vm.count("set")) o.sets = vm["set"].as<std::vector<std::string>>();
  for (const auto& kv : limitSets(vm)) o.sets.push_back(kv);
  o.contract = vm.count("contract") > 0;
  scenario::applyOverrides(s, o);
  std::vector<InputFile> inputs = scenarioInputs(s);
  inputs.push_back({"energy table", energy.tableFile});
  checkOutputs(outputsOf(vm, {"json", "power-trace", "timeline"}), inputs);
  scenario::ScenarioResult r = scenario::runScenarioTimed(s, &energy, vm.count("limit-study") > 0, &timeline);
  scenario::printScenarioResult(std::cout, r);
  if (vm.count("json")) scenario::writeJson(vm["json"].as<std::string>(), r, launchStats);
  if (!energy.traceFile.empty()) writeFileAtomically(energy.traceFile, r.powerTrace);
  if (!r.passed) reportFailure(s, r);
  return r.passed ? 0 : 1;
}

int cmdEmulate(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (isScenarioPath(a)) return cmdEmulateScenario(args);
  po::options_description desc("emulate");
  desc.add_options()("workload", po::value<std::string>()->required(), "workload name")(
      "opt", po::value<std::vector<std::string>>()->composing(), "workload option key=value")(
      "json", po::value<std::string>(), "write results as JSON")(
      "per-pc", "print the limit study per instruction")(
      "no-study", "run the interpreter alone, without the limit study (full speed)")(
      "bow-study", "also measure BOW's bypass opportunities for windows of 2..7 (bow.* statistics)");
  addLimitOptions(desc, false);
  addLogOption(desc);
  auto vm = parseCommand("emulate", "emulate WORKLOAD|SCENARIO.yaml [options]", desc,
                         {{"workload", "WORKLOAD (or SCENARIO.yaml)"}}, args);
  applyLogOption(vm);
  workloads::Options opts;
  if (vm.count("opt"))
    for (const auto& kv : vm["opt"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      size_t used = 0;
      long v = 0;
      if (eq != std::string::npos) {
        try { v = std::stol(kv.substr(eq + 1), &used); } catch (...) { used = 0; }
      }
      if (eq == std::string::npos || used == 0 || used != kv.size() - eq - 1)
        throw std::invalid_argument("--opt '" + kv + "': expected key=integer");
      opts[kv.substr(0, eq)] = v;
    }
  checkOutputs(outputsOf(vm, {"json"}), {});
  config::ConfigLoader limits;  // --max-instructions, checked as the parameter it sets
  limits.setAll(limitSets(vm));
  const long long maxInstructions = limits.resolve().limits.max_instructions;
  EmulateResult r = emulate(vm["workload"].as<std::string>(), opts, !vm.count("no-study"),
                            maxInstructions > 0 ? static_cast<uint64_t>(maxInstructions) : UINT64_MAX,
                            vm.count("bow-study") > 0);
  printEmulateResult(std::cout, r, vm.count("per-pc") > 0);
  if (vm.count("json")) writeJsonAtomically(vm["json"].as<std::string>(), toJson(r));
  return r.verifyMessage.empty() ? 0 : 1;
}

// Loads --config then applies --set in order, checks the result, and prints the table.
int cmdParams(const std::vector<std::string>& args) {
  po::options_description desc("params");
  desc.add_options()("config", po::value<std::string>(), "machine configuration (INI)")(
      "set", po::value<std::vector<std::string>>()->composing(), "override key=value");
  auto vm = parseCommand("params", "params [options]", desc, {}, args);
  config::ConfigLoader loader;
  if (vm.count("config")) loader.loadFile(vm["config"].as<std::string>());
  if (vm.count("set")) loader.setAll(vm["set"].as<std::vector<std::string>>());
  loader.resolve();
  std::cout << config::formatParams(loader);
  return 0;
}

// The mechanisms the timing model runs (model/mechanisms/registry.cpp), each with its hook
// groups; --names prints the names alone, one per line (scripts and tests iterate over them).
int cmdMechanisms(const std::vector<std::string>& args) {
  po::options_description desc("mechanisms");
  desc.add_options()("names", "print the names only");
  auto vm = parseCommand("mechanisms", "mechanisms [--names]", desc, {}, args);
  for (const auto& m : mechanisms::registered()) {
    std::cout << m.name;
    if (!vm.count("names")) {
      std::cout << ": " << m.summary << "\n  hooks:";
      for (auto g : m.uses) {
        const bool alone = std::find(m.exclusive.begin(), m.exclusive.end(), g) != m.exclusive.end();
        std::cout << (g == m.uses.front() ? " " : ", ") << mechanisms::hookGroupInfo(g).key << (alone ? "*" : "");
      }
      if (m.uses.empty()) std::cout << " none";
    }
    std::cout << "\n";
  }
  if (!vm.count("names"))
    std::cout << "(* needed exclusively: a composition a+b is refused when one mechanism needs a hook group\n"
                 "exclusively that the other uses; docs/mechanisms.md)\n";
  return 0;
}

int cmdWorkloads(const std::vector<std::string>& args) {
  po::options_description desc("workloads");
  parseCommand("workloads", "workloads", desc, {}, args);
  for (const auto& name : workloads::workloadNames())
    std::cout << name << ": " << workloads::makeWorkload(name)->description() << "\n";
  std::cout << "options: vecadd n=, block=; matmul size= (or m=, n=, k=); fig3 x=, y=; the other\n"
               "DARSIE Table 1 workloads and the UV Table 3 ones (CUDA-only): docs/cli.md and\n"
               "docs/workloads/<name>.md (an unknown option lists the valid ones)\n";
  return 0;
}

int cmdDefault() {
  std::cout << "simtlm: the default job runs the golden functional interpreter on a 2D kernel\n"
               "(tiled matrix multiply, 256^3, 32x32 blocks) and a 1D kernel (vector add, 1M\n"
               "elements, 256-thread blocks), verifies both against their C++ references, and\n"
               "measures how much of the work is redundant (DARSIE Fig. 1 and Fig. 2); then it\n"
               "runs the matrix multiply on the timing model (28-SM pascal) under the baseline and\n"
               "under DARSIE side by side: cycles, instructions skipped, energy per component.\n\n";
  int rc = 0;
  for (const char* w : {"matmul", "vecadd"}) {
    EmulateResult r = emulate(w, {});
    printEmulateResult(std::cout, r, false);
    std::cout << "\n";
    if (!r.verifyMessage.empty()) rc = 1;
  }
  std::cout << std::flush;
  if (cmdCompare({workloads::dataDir() + "/scenarios/matmul.yaml"}) != 0) rc = 1;
  return rc;
}

}  // namespace

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) return cmdDefault();
    std::string cmd = args[0];
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (cmd == "-h" || cmd == "--help" || cmd == "help") { std::cout << kUsage; return 0; }
    if (cmd == "--version" || cmd == "-V") { std::cout << versionText() << "\n"; return 0; }
    if (cmd == "asm") return cmdAsm(rest);
    if (cmd == "disasm") return cmdDisasm(rest);
    if (cmd == "ptx") return cmdPtx(rest);
    if (cmd == "emulate") return cmdEmulate(rest);
    if (cmd == "run") return cmdRun(rest);
    if (cmd == "bench") return cmdBench(rest);
    if (cmd == "microbench") return cmdMicrobench(rest);
    if (cmd == "workloads") return cmdWorkloads(rest);
    if (cmd == "mechanisms") return cmdMechanisms(rest);
    if (cmd == "params") return cmdParams(rest);
    if (cmd == "stats") return cmdStats(rest);
    if (cmd == "compare") return cmdCompare(rest);
    if (cmd == "sweep") return cmdSweep(rest);
    if (cmd == "plot") return cmdPlot(rest);
    if (cmd == "faults") return cmdFaults(rest);
    if (cmd == "darsie-storage") return cmdDarsieStorage(rest);
    std::cerr << "simtlm: error: unknown command '" << cmd << "' (commands: run, emulate, compare, sweep, plot, faults, bench, microbench, asm, disasm, ptx, workloads, mechanisms, params, stats, darsie-storage; see simtlm --help)\n";
    return 2;
  } catch (const HelpShown&) {
    return 0;
  } catch (const InputError& e) {  // messages may quote input: never its raw bytes
    std::cerr << printableText(e.what()) << "\n";
  } catch (const ExecError& e) {
    std::cerr << "simtlm: error: " << printableText(e.what()) << "\n";
  } catch (const po::error& e) {
    std::cerr << "simtlm: error: " << printableText(e.what()) << " (see simtlm --help)\n";
  } catch (const std::exception& e) {
    std::cerr << "simtlm: error: " << printableText(e.what()) << "\n";
  }
  return 1;
}

}  // namespace simtlm::cli
