// The energy layer's catalogue: every component an energy table must price, its events, and the
// statistics (docs/statistics.md) each event is charged from. One list drives the table loader
// (known and required entries), the calculator (what to read and how to weigh it) and the
// reports (names and order). docs/energy.md describes every row.
//
// A mechanism's own structures are components like any other, marked with the mechanism they
// belong to: they are charged only in runs of that mechanism (DARSIE's for `darsie` and its
// variants, UV's for the uv variants that have them) and reported separately as its overhead. A
// later mechanism (BOW's bypass buffers, an affine register file) plugs in by adding its rows
// here and its entries to the tables.
#pragma once

#include <string>
#include <vector>

namespace simtlm::energy {

// How a counter enters an event's count.
enum class Weight {
  One,        // the counter as it is
  Minus,      // subtracted (sm_base.idle_cycle = cycles - active_cycles)
  LaneGroup,  // x regfile.lane_group / 32: per-warp-access energy charged per active lane group
  PerL2Line,  // / l2.line: bytes to lines
};

struct Input {
  std::string counter;  // a per-SM suffix ("frontend.fetched" -> "sm<N>.frontend.fetched") or a full name
  Weight weight = Weight::One;
};

struct EventSpec {
  std::string name;
  std::string unit;  // what one priced event is ("warp instruction", "active lane", ...)
  std::vector<Input> inputs;
};

enum class Scope { PerSm, Gpu };

struct ComponentSpec {
  std::string name;
  std::string title;      // for people: "register file (bank reads and writes)"
  Scope scope = Scope::PerSm;
  // The mechanisms whose runs charge it, separated by spaces ("NAME-*" names a family of
  // variants): "" for the baseline machine; "darsie darsie-*": DARSIE's overhead.
  std::string mechanism;
  bool onChip = true;     // scaled with the supply voltage (DRAM is not: its own supply)
  std::vector<EventSpec> events;
  std::string needs = "";  // "l2": charged only when the machine has that cache
};

// Every component, in report order.
const std::vector<ComponentSpec>& catalogue();
// Index in catalogue() of the component called `name`, or -1.
int componentIndex(const std::string& name);
// True when `mechanism` (a run's mechanism name) turns on components of `owner` (a component's
// list: "darsie darsie-*" owns darsie, darsie-ignore-store and darsie-no-cf-sync, alone or in a
// composition such as darsie+NAME; "uv-token uv-irb uv" owns those three names exactly).
bool mechanismUses(const std::string& mechanism, const std::string& owner);

}  // namespace simtlm::energy
