#include "cli/ptx_command.h"

#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <regex>
#include <sstream>

#include "cli/options.h"
#include "cli/subprocess.h"
#include "isa/disassembler.h"
#include "isa/input_file.h"
#include "isa/ptx/ptx_translate.h"

namespace simtlm::cli {

namespace po = boost::program_options;

int ptxasRegisters(const std::string& ptxFile, const std::string& entry) {
  if (findOnPath("ptxas").empty()) return -1;
  const ProgramResult r = runProgram({"ptxas", "-v", "-arch=sm_75", ptxFile, "-o", "/dev/null"});
  if (r.exitCode != 0) return -1;
  // ptxas -v: "ptxas info    : Compiling entry function 'NAME' for 'sm_75'" ... "Used N registers"
  std::istringstream in(r.err + r.out);
  bool inEntry = false;
  for (std::string line; std::getline(in, line);) {
    if (line.find("Compiling entry function") != std::string::npos) inEntry = line.find("'" + entry + "'") != std::string::npos;
    static const std::regex used("Used ([0-9]+) registers");
    std::smatch m;
    if (inEntry && std::regex_search(line, m, used)) return std::stoi(m[1]);
  }
  return -1;
}

int cmdPtx(const std::vector<std::string>& args) {
  po::options_description desc("ptx");
  desc.add_options()("file", po::value<std::string>()->required(), "PTX module (.ptx)")(
      "list", "list the module's kernels (.entry)")(
      "entry", po::value<std::string>(), "the kernel to translate (needed when the module has several)")(
      "ptxas", "give ptxas -v's register count beside simtlm's (when ptxas is on PATH)");
  auto vm = parseCommand("ptx", "ptx FILE.ptx [--list] [--entry NAME] [--ptxas]", desc, {{"file", "FILE"}}, args);
  const std::string path = vm["file"].as<std::string>();
  const isa::ptx::Module m = isa::ptx::parseModule(readInputFile(path, "PTX file"), path);
  if (vm.count("list")) {
    for (const auto& e : m.entries) {
      isa::ptx::TranslationInfo info;
      const isa::Kernel k = isa::ptx::translate(m, e.name, &info);
      std::cout << e.name << ": " << e.params.size() << " parameters, " << info.ptxInstructions << " PTX instructions -> "
                << k.size() << " simtlm instructions, " << k.numRegs << " registers\n";
    }
    return 0;
  }
  const std::string entry = vm.count("entry") ? vm["entry"].as<std::string>() : "";
  const auto t0 = std::chrono::steady_clock::now();
  isa::ptx::TranslationInfo info;
  const isa::Kernel k = isa::ptx::loadPtxFile(path, entry, &info);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "// " << k.name << " translated from " << path << " (docs/ptx.md)\n"
            << "// " << info.ptxInstructions << " PTX instructions -> " << k.size() << " simtlm instructions; "
            << k.numRegs << " registers";
  if (vm.count("ptxas")) {
    const int ptxas = ptxasRegisters(path, k.name);
    std::cout << " (ptxas -v: " << (ptxas < 0 ? std::string("not available") : std::to_string(ptxas)) << ")";
  }
  std::cout << ", " << info.spilledRegs << " spilled to .local; " << info.virtualRegs << " virtual registers\n";
  if (!info.constSymbols.empty()) {
    std::cout << "// hidden parameters (__constant__ data, bind each to a buffer):";
    for (const auto& s : info.constSymbols) std::cout << " " << s;
    std::cout << "\n";
  }
  std::cout << "// translation took " << static_cast<long>(ms * 1000) / 1000.0 << " ms\n";
  std::cout << isa::disassemble(k);
  return 0;
}

}  // namespace simtlm::cli
