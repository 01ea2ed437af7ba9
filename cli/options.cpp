#include "cli/options.h"

#include <iostream>
#include <stdexcept>

#include <systemc>

#include "model/common/log.h"

namespace po = boost::program_options;

namespace simtlm::cli {

po::variables_map parseCommand(const std::string& command, const std::string& synopsis, po::options_description& desc,
                               const std::vector<Positional>& positional, const std::vector<std::string>& args) {
  desc.add_options()("help,h", "print this help and exit");
  po::options_description all;
  all.add(desc);
  // Arguments beyond the positional ones land here, so that the error can name the first.
  all.add_options()("unexpected-argument", po::value<std::vector<std::string>>());
  po::positional_options_description pos;
  for (const auto& p : positional) pos.add(p.option.c_str(), 1);
  pos.add("unexpected-argument", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: simtlm " << synopsis << "\n\n" << desc;
    throw HelpShown{};
  }
  if (vm.count("unexpected-argument"))
    throw std::invalid_argument(command + ": unexpected argument '" +
                                vm["unexpected-argument"].as<std::vector<std::string>>().front() +
                                "' (usage: simtlm " + synopsis + ")");
  try {
    po::notify(vm);
  } catch (const po::required_option& e) {
    std::string missing = e.get_option_name();
    for (const auto& p : positional)
      if (missing == "--" + p.option) missing = p.name;
    throw std::invalid_argument(command + ": missing " + missing + " (usage: simtlm " + synopsis + ")");
  }
  return vm;
}

void addLogOption(po::options_description& desc) {
  desc.add_options()("log-level", po::value<std::string>(),
                     "diagnostic messages on stderr: trace|debug|info|warn|error|off (default warn), then "
                     "MODULE=LEVEL items for a module and its children, e.g. warn,gpu.sm3=debug");
}

void applyLogOption(const po::variables_map& vm) {
  log::setLevels(vm.count("log-level") ? log::parseLevels(vm["log-level"].as<std::string>()) : log::Levels{});
}

std::string versionText() {
  return std::string("simtlm ") + SIMTLM_VERSION + " (SystemC " + sc_core::sc_release() + ")";
}

}  // namespace simtlm::cli
