// The functional interpreter's statistics (interp.*, limit.*, bow.*) described in a statistics
// registry (model/common/stats.h), so that they carry a unit and a description as the timing
// model's do: a result's `units` map and `simtlm stats --interpreter` read them from here.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "isa/bow_study.h"
#include "isa/interpreter.h"
#include "isa/limit_study.h"
#include "model/common/stats.h"

namespace simtlm::cli {

// Registers the counts (and the limit study's, the BOW study's when given) in `r`. The structs
// must outlive the registry's reads.
void registerInterpreterStats(stats::Registry& r, isa::ExecCounts& counts, isa::LimitStudyResult* limit,
                              isa::BowStudyResult* bow);

// The unit of an interpreter statistic of any run (limit.* and bow.* included); "" for a name
// that is not one.
std::string interpreterStatUnit(const std::string& name);

// name -> unit for every key of `stats`: from `model` (name -> unit of the timing model's
// statistics, may be empty) or else from the interpreter's; a name neither knows is left out
// (tests check that none is).
nlohmann::json unitsOf(const nlohmann::json& stats, const nlohmann::json& model);

// name -> unit of every statistic of a registry.
nlohmann::json unitsOf(const stats::Registry& r);

}  // namespace simtlm::cli
