// simtlm: the command-line front end. All work happens in the libraries; see cli/commands.h.
#include "cli/commands.h"

int main(int argc, char** argv) { return simtlm::cli::run(argc, argv); }
