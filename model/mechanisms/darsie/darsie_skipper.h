// Which warps DARSIE's skipper looks at (darsie_skipper.cpp; docs/darsie.md, "The skipper"), a
// bit per warp slot. Most warps have nothing to decide most cycles, and a follower whose wait
// cannot have ended is counted without a table lookup: the bits say which are which.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlm::darsie {

// `cand`: warps that can need a decision, set when the SM wakes the warp or DARSIE changes it,
// cleared when the skipper finds it has nothing to decide. `parked`: warps whose last probe
// waited, with nothing since that could end the wait (their own events clear the bit; a change
// of a skip table bumps `epoch`): the skipper counts the same wait without probing again.
// `parkedWb`: of those, the ones waiting for LeaderWB at the current epoch (a bump clears it),
// counted a run of them at a time instead of visited one by one.
struct SkipperWatch {
  // The three masks of 64 warp slots side by side (one address for a touch, the SM's hottest
  // call into DARSIE).
  struct Word {
    uint64_t cand = 0, parked = 0, parkedWb = 0;
  };
  std::vector<Word> words;
  uint64_t epoch = 0;
  unsigned rr = 0;  // the skipper's round-robin start

  void reset(size_t warps) {
    words.assign((warps + 63) / 64, Word{~uint64_t{0}, 0, 0});
    bumpEpoch();
  }
  // The warp's state changed in a way the skipper must look at again (a wait may have ended).
  void touch(int slot) {
    Word& w = words[static_cast<size_t>(slot) / 64];
    const uint64_t m = uint64_t{1} << (slot % 64);
    w.cand |= m;
    w.parked &= ~m;
    w.parkedWb &= ~m;
  }
  void touchAll() {
    for (Word& w : words) w = Word{~uint64_t{0}, 0, 0};
  }
  void park(int slot, bool leaderWb) {
    Word& w = words[static_cast<size_t>(slot) / 64];
    const uint64_t m = uint64_t{1} << (slot % 64);
    w.parked |= m;
    if (leaderWb) w.parkedWb |= m;
    else w.parkedWb &= ~m;
  }
  void bumpEpoch() {
    epoch++;
    for (Word& w : words) w.parkedWb = 0;
  }
};

}  // namespace simtlm::darsie
