// A sweep: scenarios x parameter grid x mechanisms, one `simtlm run` per point (docs/sweeps.md).
// The sweep file is YAML:
//
//   name: darsie_fig8
//   scenarios: [matmul, vecadd]            # names in scenarios/, or paths to .yaml files
//   mechanisms: [baseline, darsie]         # `baseline` first: the reference of the ratios
//   config: configs/pascal.ini             # optional: --config for every point
//   energy: configs/energy/darsie_gpuwattch.yaml  # optional: --energy for every point
//   set: {darsie.skip_entries: [4, 8]}     # optional: a grid, every combination is a point
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace simtlm::cli {

struct SweepPoint {
  std::string scenario;      // its name (the file's stem)
  std::string scenarioFile;  // resolved path
  std::string mechanism;
  std::vector<std::pair<std::string, std::string>> sets;  // this point's grid values
  std::string id() const;    // file-name safe: scenario__mechanism[__key=value...]
  // The `simtlm run` arguments of the point, its result written to `json`.
  std::vector<std::string> runArgs(const std::string& configFile, const std::string& energyFile,
                                   const std::string& json) const;
};

struct SweepSpec {
  std::string file, name, configFile, energyFile;  // energyFile: empty for the default table
  std::vector<std::string> mechanisms;
  std::vector<std::string> gridKeys;  // in file order
  std::vector<SweepPoint> points;     // scenario-major, then grid, then mechanism
};

// Reads and checks a sweep file (errors name file, line, column and key: InputError).
SweepSpec loadSweep(const std::string& path);

}  // namespace simtlm::cli
