#include "cli/darsie_storage.h"
#include "cli/options.h"

#include <boost/program_options.hpp>
#include <iostream>
#include <stdexcept>

#include "cli/config_loader.h"
#include "cli/results.h"
#include "model/mechanisms/darsie/storage.h"

namespace po = boost::program_options;

namespace simtlm::cli {

int cmdDarsieStorage(const std::vector<std::string>& args) {
  const darsie::StorageParams d;
  po::options_description desc("darsie-storage");
  desc.add_options()("config", po::value<std::string>(), "machine configuration (INI)")(
      "set", po::value<std::vector<std::string>>()->composing(), "override key=value")(
      "pc-bits", po::value<int>()->default_value(d.pcBits), "PC bits of a skip-table entry, 1..64")(
      "named-reg-bits", po::value<int>()->default_value(d.namedRegBits), "named-register bits, 1..64")(
      "tag-bits", po::value<int>()->default_value(d.physTagBits), "physical-register tag bits, 1..64")(
      "version-bits", po::value<int>()->default_value(d.versionBits), "version bits, 1..64")(
      "warps-per-tb", po::value<int>()->default_value(0), "warps per block (mask width), 1..1024; 0: 1024 / warp size")(
      "json", po::value<std::string>(), "write the table as JSON");
  po::variables_map vm = parseCommand("darsie-storage", "darsie-storage [options]", desc, {}, args);
  if (vm.count("json"))
    checkOutputs({{"json", vm["json"].as<std::string>()}},
                 {{"configuration file", vm.count("config") ? vm["config"].as<std::string>() : ""}});

  darsie::StorageParams p;
  auto width = [&](const char* option, int& field) {
    field = vm[option].as<int>();
    if (field < 1 || field > 64)
      throw std::invalid_argument(std::string("--") + option + " " + std::to_string(field) + " is outside [1, 64]");
  };
  width("pc-bits", p.pcBits);
  width("named-reg-bits", p.namedRegBits);
  width("tag-bits", p.physTagBits);
  width("version-bits", p.versionBits);
  p.maxWarpsPerTb = vm["warps-per-tb"].as<int>();
  if (p.maxWarpsPerTb < 0 || p.maxWarpsPerTb > 1024)
    throw std::invalid_argument("--warps-per-tb " + std::to_string(p.maxWarpsPerTb) +
                                " is outside [1, 1024] (0: derive from gpu.warp_size)");

  config::ConfigLoader loader;
  if (vm.count("config")) loader.loadFile(vm["config"].as<std::string>());
  if (vm.count("set")) loader.setAll(vm["set"].as<std::vector<std::string>>());
  const darsie::DarsieStorage s = darsie::computeStorage(loader.resolve(), p);
  std::cout << darsie::formatStorage(s);
  if (vm.count("json")) {
    nlohmann::json j = darsie::toJson(s);
    j = {{"command", "darsie-storage"},
         {"config_file", vm.count("config") ? vm["config"].as<std::string>() : std::string()},
         {"storage", j}};
    writeJsonAtomically(vm["json"].as<std::string>(), j);
  }
  return 0;
}

}  // namespace simtlm::cli
