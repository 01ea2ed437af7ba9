// The mechanisms the timing model knows, by configuration name (docs/mechanisms.md): what each
// reserves in the SM before it is built, which groups of hooks it uses (and which of them it
// needs alone), and how it attaches to an SM. Whoever builds the SMs asks here (factoryFor) and
// hands the answer in; the SM never names or looks up a mechanism itself.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/sm/sm_mechanism.h"

namespace simtlm::mechanisms {

// The groups of hooks of sm_mechanism.h, by what a mechanism does through them. Mechanisms
// compose when no group one of them needs exclusively is used by another: a group is exclusive
// where two users' answers cannot be combined (one fetch PC decided, one tag per I-buffer entry,
// one region of mechanism registers in the banks, one SIMT path per warp).
enum class HookGroup {
  FetchProbe,        // beforeFetch, holdsFetch: who decides a warp's fetch PC (hold, skip)
  Decode,            // delivered, fetchStopsAfter: the I-buffer entry's one tag
  IssueStall,        // holdsIssue
  OnIssue,           // issued
  RetireSkips,       // retireSkips
  OperandMapping,    // regsPerBlock and the operand stage's register mapping (renaming)
  ExecuteWriteBack,  // beforeExecute, planExecute, afterExecute, written
  Control,           // branches and reconvergence (issued), barrierReleased, flushed
  Memory,            // stores, atomics and fences (beforeExecute of memory instructions)
  AdmissionExit,     // kernelStarted, blockAdmitted, blockRetired, warpExited, warpDrained
  OperandBypass,     // collecting, holdsResult, remapped: the operand stage's bypass buffer
  ValueStorage,      // where register values live between instructions: rows a mechanism maps a
                     // warp's registers onto for an instruction, or writes into itself
};
constexpr int kNumHookGroups = 12;
struct HookGroupInfo {
  HookGroup group;
  const char* key;     // for `simtlm mechanisms`: "fetch-probe"
  const char* phrase;  // for messages: "the front end's fetch probe"
  const char* hooks;   // the hooks of sm_mechanism.h it covers
};
const HookGroupInfo& hookGroupInfo(HookGroup g);

// A configuration name the timing model runs, baseline included.
struct MechanismInfo {
  config::Mechanism id;
  std::string name;         // its configuration name (config::mechanismName for a built-in)
  std::string summary;      // one line for `simtlm mechanisms`
  // The per-SM statistic (after "smN.") counting warp instructions the mechanism removed
  // without issuing them, or empty: issued plus removed equals the interpreter's count.
  std::string removedStat;
  std::vector<HookGroup> uses;       // the hook groups it attaches to
  std::vector<HookGroup> exclusive;  // those of them no other mechanism of a composition may use
};
// In registration order, baseline first. A registration (below) adds to it.
const std::vector<MechanismInfo>& registered();
const MechanismInfo& infoOf(config::Mechanism m);

// A mechanism defined outside this file (tests: one that only observes), registered for the rest
// of the process beside the built-in ones; `info.id` is ignored and the new id returned. Its
// name must be new. Not thread-safe: register before any simulation starts.
using ResourcesFn = std::function<sm::MechanismResources(const config::GpuConfig&)>;
using AttachFn = std::function<std::unique_ptr<sm::SmMechanism>(sm::SmContext&, stats::Registry&)>;
config::Mechanism registerMechanism(MechanismInfo info, ResourcesFn resources, AttachFn attach);

// The mechanisms a configuration name attaches, in list order: none for "baseline", one for a
// registered name, each element of a composition "a+b" (docs/mechanisms.md, "Composition").
// Throws config::ConfigError with the reason alone (the caller says where the name came from):
// an unknown name; in a composition also an empty, repeated or baseline element, or two
// mechanisms that both use a hook group one of them needs exclusively (naming both and the group).
std::vector<config::Mechanism> parseMechanisms(const std::string& name);
// Sets cfg.mechanism and cfg.composition from a name parseMechanisms accepts.
void configure(config::GpuConfig& cfg, const std::string& name);
// The mechanisms `cfg` attaches, in list order (none for baseline). Throws config::ConfigError
// for a composition whose hook groups conflict.
std::vector<config::Mechanism> attachedBy(const config::GpuConfig& cfg);
// The removed statistics (MechanismInfo::removedStat) of the mechanisms of a configuration name
// parseMechanisms accepts, the empty ones left out.
std::vector<std::string> removedStatsOf(const std::string& name);

// Registers, banks and the like the configured mechanisms need in each SM (none for baseline).
sm::MechanismResources resourcesFor(const config::GpuConfig& cfg);
// The configured mechanism attached to one SM (a CompositeMechanism for a composition), or null
// for baseline. Its statistics are registered in `stats` under the SM's prefix.
std::unique_ptr<sm::SmMechanism> attach(const config::GpuConfig& cfg, sm::SmContext& sm, stats::Registry& stats);
// Both, for whoever builds the SMs (sm::GridEngine::Parts::mechanism): resourcesFor(cfg), and
// attach with the SM's own configuration (none for baseline). Throws as resourcesFor.
sm::MechanismFactory factoryFor(const config::GpuConfig& cfg);

}  // namespace simtlm::mechanisms
