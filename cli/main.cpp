// simtlm: the command-line front end. All work happens in the libraries; see cli/commands.h.
#include "cli/commands.h"

// libsystemc defines main() (calling sc_main); ours takes precedence and starts the simulation
// itself (sc_start in the timing commands). sc_main only satisfies libsystemc's reference.
extern "C" int sc_main(int, char**) { return 1; }

int main(int argc, char** argv) { return simtlm::cli::run(argc, argv); }
