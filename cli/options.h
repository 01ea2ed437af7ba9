// Parsing a subcommand's arguments the same way for every subcommand (docs/cli.md): --help
// prints its synopsis and options, an argument beyond its positional ones is an error naming
// it, and a missing positional argument is named as the user writes it (SCENARIO), not as the
// internal option that holds it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

namespace simtlm::cli {

// Thrown once --help has printed a command's usage: the command ends there with exit code 0.
struct HelpShown {};

// A positional argument: the option that holds it and its name in the synopsis ("SCENARIO").
struct Positional {
  std::string option, name;
};

// Parses `args` for `simtlm COMMAND` against `desc` (to which --help is added). `synopsis` is the
// usage line after "simtlm ". Throws HelpShown, std::invalid_argument (a missing or extra
// argument) or a boost::program_options::error (an unknown option, a bad value).
boost::program_options::variables_map parseCommand(const std::string& command, const std::string& synopsis,
                                                   boost::program_options::options_description& desc,
                                                   const std::vector<Positional>& positional,
                                                   const std::vector<std::string>& args);

// --log-level LEVELS (model/common/log.h): addLogOption adds it to a command's options;
// applyLogOption sets the loggers' levels from it (warn when it is not given). Throws
// std::invalid_argument naming the option and the allowed values.
void addLogOption(boost::program_options::options_description& desc);
void applyLogOption(const boost::program_options::variables_map& vm);

// "simtlm 0.1.0 (SystemC 2.3.4, ...)" for --version.
std::string versionText();

}  // namespace simtlm::cli
