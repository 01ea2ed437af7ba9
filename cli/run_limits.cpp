#include "cli/run_limits.h"

#include <stdexcept>
#include <utility>

#include "cli/config_loader.h"

namespace po = boost::program_options;

namespace simtlm::cli {

void addLimitOptions(po::options_description& desc, bool withCycles) {
  if (withCycles)
    desc.add_options()("max-cycles", po::value<std::string>(),
                       "stop after N core cycles, all launches together (limits.max_cycles; 0: no limit)");
  desc.add_options()("max-instructions", po::value<std::string>(),
                     "stop after N warp instructions, all launches together (limits.max_instructions; 0: no limit)");
}

std::vector<std::string> limitSets(const po::variables_map& vm) {
  std::vector<std::string> out;
  for (const auto& [option, key] : {std::pair{"max-cycles", "limits.max_cycles"}, {"max-instructions", "limits.max_instructions"}}) {
    if (!vm.count(option)) continue;
    const std::string text = vm[option].as<std::string>();
    config::GpuConfig probe;
    if (std::string err = config::assignmentError(probe, key, text); !err.empty())
      throw std::invalid_argument(std::string("--") + option + " " + text + ": " + err);
    out.push_back(std::string(key) + "=" + text);
  }
  return out;
}

std::string limitHint(const std::string& error) {
  if (error.find("instruction limit reached") != std::string::npos)
    return "limits.max_instructions: raise it with --max-instructions N or the scenario's limits: {max_instructions: N} (0: no limit)";
  if (error.find("limit study: more than") != std::string::npos) return "run without the limit study (--no-study)";
  if (error.find("cycle limit reached") != std::string::npos)
    return "limits.max_cycles: raise it with --max-cycles N or the scenario's limits: {max_cycles: N} (0: no limit)";
  return "";
}

}  // namespace simtlm::cli
