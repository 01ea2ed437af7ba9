#include "model/mechanisms/registry.h"

#include <algorithm>
#include <stdexcept>

#include "model/mechanisms/affine/affine_mechanism.h"
#include "model/mechanisms/bow/bow_mechanism.h"
#include "model/mechanisms/composite.h"
#include "model/mechanisms/dac/dac_mechanism.h"
#include "model/mechanisms/darsie/darsie_mechanism.h"
#include "model/mechanisms/uv/uv_mechanism.h"

namespace simtlm::mechanisms {

namespace {

using Mechanism = config::Mechanism;
using G = HookGroup;

const HookGroupInfo kGroups[kNumHookGroups] = {
    {G::FetchProbe, "fetch-probe", "the front end's fetch probe", "beforeFetch, holdsFetch"},
    {G::Decode, "decode", "the front end's decode", "delivered, fetchStopsAfter"},
    {G::IssueStall, "issue-stall", "issue's stall", "holdsIssue"},
    {G::OnIssue, "on-issue", "issue's on-issue hooks", "issuing, issued"},
    {G::RetireSkips, "retire-skips", "issue's skip retirement", "retireSkips"},
    {G::OperandMapping, "operand-mapping", "the operand stage's register mapping",
     "regsPerBlock, the operand stage's renaming"},
    {G::ExecuteWriteBack, "execute-writeback", "execute and write-back",
     "beforeExecute, planExecute, afterExecute, written"},
    {G::Control, "control", "control (branches, barriers, reconvergence, flushes)",
     "issued (branches), barrierReleased, flushed"},
    {G::Memory, "memory", "memory (stores, atomics, fences)", "beforeExecute (memory instructions), compactAddress"},
    {G::AdmissionExit, "admission-exit", "admission and exit",
     "kernelStarted, blockAdmitted, blockRetired, warpExited, warpDrained"},
    {G::OperandBypass, "operand-bypass", "the operand stage's bypass buffer", "collecting, holdsResult, remapped"},
    {G::ValueStorage, "value-storage", "the warps' register values (rows mapped for an instruction, values written at skips)",
     "planExecute, afterExecute (register rows), retireSkips (register writes)"},
};

struct Entry {
  MechanismInfo info;
  ResourcesFn resources;
  AttachFn attach;
};

// The DARSIE variants are flags of one mechanism.
template <bool IgnoreStores, bool NoCfSync, bool EarlySkip = false>
std::unique_ptr<sm::SmMechanism> attachDarsie(sm::SmContext& sm, stats::Registry& r) {
  return std::make_unique<darsie::DarsieMechanism>(sm, r, darsie::DarsieVariant{IgnoreStores, NoCfSync, EarlySkip});
}

// DARSIE decides fetch PCs (skips, holds), tags I-buffer entries, renames onto its pool and
// steers branches and barriers (majority path): those it needs alone.
Entry darsieEntry(Mechanism id, const char* summary, AttachFn attach) {
  return {{id, config::mechanismName(id), summary, "darsie.skipped",
           {G::FetchProbe, G::Decode, G::IssueStall, G::OnIssue, G::RetireSkips, G::OperandMapping,
            G::ExecuteWriteBack, G::Control, G::Memory, G::AdmissionExit},
           {G::FetchProbe, G::Decode, G::OperandMapping, G::Control}},
          darsie::DarsieMechanism::resources,
          std::move(attach)};
}

Entry uvEntry(Mechanism id, const char* summary, uv::UvVariant variant) {
  return {{id, config::mechanismName(id), summary, "",
           {G::OperandMapping, G::ExecuteWriteBack, G::AdmissionExit, G::ValueStorage},
           {G::OperandMapping}},
          [](const config::GpuConfig&) { return sm::MechanismResources{}; },
          [variant](sm::SmContext& sm, stats::Registry& r) -> std::unique_ptr<sm::SmMechanism> {
            return std::make_unique<uv::UvMechanism>(sm, r, variant);
          }};
}

// Compact affine execution maps ASRF registers onto expanded rows for the instruction (as UV's
// broadcast path) and keeps per-warp tags of the warp's own values: it needs the register mapping
// alone. affine-ab also watches branches at issue; affine-abm describes memory addresses.
Entry affineEntry(Mechanism id, const char* summary, affine::AffineVariant variant) {
  std::vector<G> uses{G::OperandMapping, G::ExecuteWriteBack, G::AdmissionExit, G::ValueStorage};
  if (variant.branches) uses.insert(uses.begin(), G::OnIssue);
  if (variant.memory) uses.insert(uses.end() - 1, G::Memory);
  return {{id, config::mechanismName(id), summary, "", uses, {G::OperandMapping}},
          [](const config::GpuConfig&) { return sm::MechanismResources{}; },
          [variant](sm::SmContext& sm, stats::Registry& r) -> std::unique_ptr<sm::SmMechanism> {
            return std::make_unique<affine::AffineMechanism>(sm, r, variant);
          }};
}

Entry bowEntry(Mechanism id, const char* summary, bow::BowKind kind) {
  return {{id, config::mechanismName(id), summary, "",
           {G::OperandBypass, G::ExecuteWriteBack, G::AdmissionExit, G::ValueStorage},
           {G::OperandBypass, G::ValueStorage}},
          // One BOC per warp: instructions from different BOCs go to the units round-robin
          // (BOW Sec. IV-A). The RFC keeps the baseline's collectors.
          [kind](const config::GpuConfig&) {
            sm::MechanismResources r;
            r.dispatchRoundRobin = kind != bow::BowKind::Rfc;
            return r;
          },
          [kind](sm::SmContext& sm, stats::Registry& r) -> std::unique_ptr<sm::SmMechanism> {
            return std::make_unique<bow::BowMechanism>(sm, r, kind);
          }};
}

// One row per configuration name (config::mechanismName); baseline has none. Registrations
// append (ids past the built-in ones).
std::vector<Entry>& table() {
  static std::vector<Entry> t = [] {
    std::vector<Entry> v;
    v.push_back(darsieEntry(Mechanism::Darsie,
                            "DARSIE: followers skip thread-block-redundant instructions (DARSIE Sec. 4)",
                            attachDarsie<false, false>));
    v.push_back(darsieEntry(Mechanism::DarsieIgnoreStore,
                            "DARSIE whose stores clear no load entry (DARSIE Fig. 8; idealized time)",
                            attachDarsie<true, false>));
    v.push_back(darsieEntry(
        Mechanism::DarsieNoCfSync,
        "DARSIE without branch barriers or freelist synchronization (DARSIE Fig. 12; idealized time)",
        attachDarsie<false, true>));
    v.push_back(darsieEntry(Mechanism::DarsieEarlySkip,
                            "DARSIE whose followers skip without waiting for LeaderWB; readers of the "
                            "value wait in the scoreboard (deviates from Sec. 4.3.2, to measure that wait)",
                            attachDarsie<false, false, true>));
    // UV computes uniform instructions on one lane and reads token registers through broadcast
    // rows it maps for the instruction (uv-token, uv): it needs the register mapping alone. uv-irb
    // maps nothing but keeps the same tokens: it conflicts with DARSIE's renaming all the same
    // (a renamed register's values are the leader's version, not the warp's).
    v.push_back(uvEntry(Mechanism::UvToken,
                        "UV, token design: intra-warp uniform instructions run on one lane (UV Sec. 3.1.1)",
                        {true, false, false}));
    v.push_back(uvEntry(Mechanism::UvIrb,
                        "UV, instruction reuse buffer: uniform instructions reuse another warp's result (UV Sec. 3.2)",
                        {false, true, false}));
    v.push_back(uvEntry(Mechanism::Uv, "UV: token design and instruction reuse buffer together (UV Sec. 5.1)",
                        {true, true, false}));
    v.push_back(uvEntry(Mechanism::UvSrf,
                        "UV, SRF design: uniform instructions run on one lane, their results renamed into a "
                        "scalar register file (UV Sec. 3.1.2)",
                        {true, false, true}));
    v.push_back(uvEntry(Mechanism::UvSrfIrb, "UV: SRF design and instruction reuse buffer together (UV Sec. 5.1, Fig. 6)",
                        {true, true, true}));
    // DAC-IDEAL removes instances before fetch (the fetch probe, alone), turns fetched ones into
    // skips (their I-buffer tag, alone) and writes followers' registers itself where their skips
    // retire: it conflicts with any mapping of register values.
    v.push_back({{Mechanism::DacIdeal, config::mechanismName(Mechanism::DacIdeal),
                  "DAC-IDEAL: uniform and affine instances executed once per thread block, removed "
                  "before fetch for the other warps (DARSIE Sec. 5; idealized time)",
                  "dac.removed",
                  {G::FetchProbe, G::Decode, G::OnIssue, G::RetireSkips, G::OperandMapping, G::Control,
                   G::AdmissionExit, G::ValueStorage},
                  {G::FetchProbe, G::Decode}},
                 [](const config::GpuConfig&) { return sm::MechanismResources{}; },
                 [](sm::SmContext& sm, stats::Registry& r) -> std::unique_ptr<sm::SmMechanism> {
                   return std::make_unique<dac::DacMechanism>(sm, r);
                 }});
    // Compact affine execution maps ASRF registers onto expanded rows for the instruction (as
    // UV's broadcast path) and keeps per-warp tags of the warp's own values: it needs the register
    // mapping alone.
    v.push_back(affineEntry(Mechanism::AffineA,
                            "compact affine execution: affine arithmetic on base/stride pairs in an affine "
                            "register file, lazy expansion after divergence (Kim et al. Sec. 4.1-4.3)",
                            {false, false}));
    v.push_back(affineEntry(Mechanism::AffineAb,
                            "compact affine execution with affine and uniform branches: coherent compares "
                            "resolved once on the affine unit (Kim et al. Sec. 4.2)",
                            {true, false}));
    v.push_back(affineEntry(Mechanism::AffineAbm,
                            "compact affine execution with affine branches and affine memory operations: "
                            "global loads and stores of an affine address skip per-lane address generation, "
                            "their transactions generated from base and stride (Kim et al. Sec. 4.1)",
                            {true, true}));
    // BOW and the register-file cache keep register values in buffers of their own (the warp's
    // registers mapped onto their rows for an instruction, dirty values written back later): the
    // value storage alone. They compose with DARSIE, which renames through the operand stage and
    // so tells them (remapped).
    v.push_back(bowEntry(Mechanism::Bow,
                         "BOW: a bypassing operand collector per warp serves operands accessed in the last IW "
                         "instructions; results written through (Esfeden et al. Sec. IV-A)",
                         bow::BowKind::Bow));
    v.push_back(bowEntry(Mechanism::BowWr,
                         "BOW-WR: results kept in the BOC and written back when they leave the window, "
                         "steered by compiler hints (Esfeden et al. Sec. IV-B)",
                         bow::BowKind::BowWr));
    v.push_back(bowEntry(Mechanism::BowWrHalf,
                         "BOW-WR with half-size BOCs and FIFO eviction (Esfeden et al. Sec. IV-C)",
                         bow::BowKind::BowWrHalf));
    v.push_back(bowEntry(Mechanism::Rfc,
                         "register-file cache: a small per-warp write-back cache organized like the register "
                         "file, allocated on write, FIFO (Gebhart et al. ISCA 2011; BOW Sec. VI)",
                         bow::BowKind::Rfc));
    return v;
  }();
  return t;
}

std::vector<MechanismInfo>& infos() {
  static std::vector<MechanismInfo> all = [] {
    std::vector<MechanismInfo> v{
        {Mechanism::Baseline, "baseline", "the baseline SM: no mechanism attached", "", {}, {}}};
    for (const Entry& e : table()) v.push_back(e.info);
    return v;
  }();
  return all;
}

const Entry* find(Mechanism m) {
  for (const Entry& e : table())
    if (e.info.id == m) return &e;
  return nullptr;
}

bool has(const std::vector<G>& v, G g) { return std::find(v.begin(), v.end(), g) != v.end(); }

// "a, b, c or d", as the scenario loader lists names.
std::string knownNames() {
  std::string s;
  const auto& all = registered();
  for (size_t i = 0; i < all.size(); ++i)
    s += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].name;
  return s;
}

// Empty when `a` and `b` may be composed, else why not (naming both and the group).
std::string conflict(const MechanismInfo& a, const MechanismInfo& b) {
  for (const HookGroupInfo& g : kGroups) {
    const bool ax = has(a.exclusive, g.group), bx = has(b.exclusive, g.group);
    if (ax && bx) return a.name + " and " + b.name + " both need " + g.phrase + " exclusively";
    if (ax && has(b.uses, g.group))
      return a.name + " needs " + g.phrase + " exclusively and " + b.name + " uses it too";
    if (bx && has(a.uses, g.group))
      return b.name + " needs " + g.phrase + " exclusively and " + a.name + " uses it too";
  }
  return {};
}

std::string shown(const std::string& s) { return s.size() > 60 ? s.substr(0, 60) + "..." : s; }

// Throws ConfigError when the mechanisms of a composition conflict.
void checkComposition(const std::vector<Mechanism>& list, const std::string& name) {
  for (size_t i = 0; i < list.size(); ++i)
    for (size_t j = i + 1; j < list.size(); ++j) {
      const std::string why = conflict(infoOf(list[i]), infoOf(list[j]));
      if (!why.empty()) throw config::ConfigError("composition '" + shown(name) + "': " + why);
    }
}

std::string joined(const std::vector<Mechanism>& list) {
  std::string s;
  for (Mechanism m : list) s += (s.empty() ? "" : "+") + infoOf(m).name;
  return s;
}

}  // namespace

const HookGroupInfo& hookGroupInfo(HookGroup g) { return kGroups[static_cast<int>(g)]; }

const std::vector<MechanismInfo>& registered() { return infos(); }

const MechanismInfo& infoOf(Mechanism m) {
  for (const MechanismInfo& i : registered())
    if (i.id == m) return i;
  return registered().front();
}

Mechanism registerMechanism(MechanismInfo info, ResourcesFn resources, AttachFn attach) {
  for (const MechanismInfo& i : registered())
    if (i.name == info.name) throw std::logic_error("registerMechanism: '" + info.name + "' is registered already");
  if (info.name.empty() || info.name.find('+') != std::string::npos)
    throw std::logic_error("registerMechanism: '" + info.name + "' is not a mechanism name");
  info.id = static_cast<Mechanism>(static_cast<int>(Mechanism::Baseline) + 1 + static_cast<int>(table().size()));
  table().push_back({info, std::move(resources), std::move(attach)});
  infos().push_back(info);
  return info.id;
}

std::vector<Mechanism> parseMechanisms(const std::string& name) {
  std::vector<std::string> parts;  // split at '+', empty parts kept ("darsie+")
  for (size_t start = 0;;) {
    const size_t plus = name.find('+', start);
    parts.push_back(name.substr(start, plus == std::string::npos ? std::string::npos : plus - start));
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  const bool composed = parts.size() > 1;
  const std::string where = composed ? "composition '" + shown(name) + "': " : "";
  std::vector<Mechanism> list;
  for (const std::string& part : parts) {
    if (composed && part.empty())
      throw config::ConfigError(where + "an empty name (join mechanism names with '+', for example darsie+NAME)");
    const auto known = std::find_if(registered().begin(), registered().end(),
                                    [&](const MechanismInfo& i) { return i.name == part; });
    if (known == registered().end())
      throw config::ConfigError(where + "unknown mechanism '" + shown(part) + "' (known: " + knownNames() + ")");
    if (known->id == Mechanism::Baseline) {
      if (composed) throw config::ConfigError(where + "baseline is no mechanism and cannot be composed");
      return {};
    }
    if (std::find(list.begin(), list.end(), known->id) != list.end())
      throw config::ConfigError(where + part + " is listed twice");
    list.push_back(known->id);
  }
  checkComposition(list, name);
  return list;
}

void configure(config::GpuConfig& cfg, const std::string& name) {
  const std::vector<Mechanism> list = parseMechanisms(name);
  cfg.mechanism = list.empty() ? Mechanism::Baseline : list.front();
  cfg.composition = list.size() > 1 ? list : std::vector<Mechanism>{};
}

std::vector<Mechanism> attachedBy(const config::GpuConfig& cfg) {
  if (!cfg.composition.empty()) {
    checkComposition(cfg.composition, joined(cfg.composition));
    return cfg.composition;
  }
  if (cfg.mechanism == Mechanism::Baseline) return {};
  return {cfg.mechanism};
}

std::vector<std::string> removedStatsOf(const std::string& name) {
  std::vector<std::string> out;
  for (Mechanism m : parseMechanisms(name))
    if (!infoOf(m).removedStat.empty()) out.push_back(infoOf(m).removedStat);
  return out;
}

sm::MechanismResources resourcesFor(const config::GpuConfig& cfg) {
  // One region of mechanism registers in the banks: a mechanism with registers needs the
  // operand mapping exclusively, so at most one of a composition has them.
  sm::MechanismResources r;
  for (Mechanism m : attachedBy(cfg)) {
    const Entry* e = find(m);
    if (!e) continue;
    sm::MechanismResources own = e->resources(cfg);
    r.dispatchRoundRobin = r.dispatchRoundRobin || own.dispatchRoundRobin;
    if (own.regsName.empty() && own.regsPerBlock == 0) continue;
    if (!r.regsName.empty() || r.regsPerBlock != 0)
      throw config::ConfigError("composition '" + joined(attachedBy(cfg)) + "': " + infoOf(m).name +
                                " keeps registers in the banks beside another mechanism's");
    own.dispatchRoundRobin = r.dispatchRoundRobin;
    r = own;
  }
  return r;
}

std::unique_ptr<sm::SmMechanism> attach(const config::GpuConfig& cfg, sm::SmContext& sm, stats::Registry& stats) {
  const std::vector<Mechanism> list = attachedBy(cfg);
  if (list.empty()) return nullptr;
  if (list.size() == 1) {  // a single mechanism runs unwrapped (no forwarding cost)
    const Entry* e = find(list.front());
    return e ? e->attach(sm, stats) : nullptr;
  }
  std::vector<std::unique_ptr<sm::SmMechanism>> parts;
  for (Mechanism m : list)
    if (const Entry* e = find(m)) parts.push_back(e->attach(sm, stats));
  return std::make_unique<CompositeMechanism>(std::move(parts));
}

sm::MechanismFactory factoryFor(const config::GpuConfig& cfg) {
  sm::MechanismFactory f;
  f.resources = resourcesFor(cfg);
  if (!attachedBy(cfg).empty())
    f.attach = [](sm::SmContext& sm, stats::Registry& stats) { return attach(sm.cfg, sm, stats); };
  return f;
}

}  // namespace simtlm::mechanisms
