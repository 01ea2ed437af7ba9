// Where simtlm's shipped data lives: configs/ (with energy/), workloads/kernels/, scenarios/,
// sweeps/, examples/ and scripts/plot/, in that layout (docs/install.md).
//
// Looked up at run time, never compiled in, so that a moved checkout or a relocated
// installation keeps working:
//   1. the environment variable SIMTLM_DATA_DIR, when set;
//   2. the folder a program embedding simtlm named with setDataDir();
//   3. share/simtlm in the program's own folder or one of its four parents: <prefix>/share/simtlm
//      beside <prefix>/bin/simtlm when installed, <build>/share/simtlm (links into the source
//      tree, made when CMake configures) in a build tree, for the program and the test binaries.
#pragma once

#include <string>

namespace simtlm::workloads {

// The data folder, or std::runtime_error saying where it looked and how to name one.
std::string dataDir();
// For programs that link simtlm's libraries (a user's SystemC platform): the folder to use when
// SIMTLM_DATA_DIR is not set. An empty string undoes it.
void setDataDir(const std::string& dir);
// dataDir() + "/workloads/kernels".
std::string kernelDir();
// dataDir() + "/workloads/cuda": the CUDA workloads and the PTX nvcc compiled from them.
std::string cudaDir();

}  // namespace simtlm::workloads
