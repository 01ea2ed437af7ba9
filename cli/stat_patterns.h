// Statistics listed by pattern: the registry names every instance (`sm0.regfile.bank7.reads`),
// a reader wants one row per kind (`sm<N>.regfile.bank<B>.reads`). Used by `simtlm stats`.
#pragma once

#include <string>
#include <vector>

#include "model/common/stats.h"

namespace simtlm::cli {

struct StatPattern {
  std::string name;         // the pattern: `sm<N>.regfile.bank<B>.reads`
  std::string unit, description;
  bool derived = false;     // computed when read (a ratio, a rate) rather than counted
  size_t instances = 0;     // how many registered names it stands for
  // Instances whose unit or description differ from the first's (a model bug: one pattern,
  // one meaning), each as "NAME: unit 'U' (pattern's first: 'V')".
  std::vector<std::string> mismatches;
};

// The pattern of one name: index segments (`sm12`, `bank3`, `slice5`, ... of kIndexSegments)
// get their number replaced by a placeholder (`sm<N>`, `bank<B>`, `slice<S>`). Other segments
// ending in digits (`l1`, `l2`, `iw3`) name distinct things and stay as they are.
std::string patternOf(const std::string& name);

// One StatPattern per pattern, in the registration order of each pattern's first instance.
std::vector<StatPattern> collapse(const std::vector<stats::Registry::Entry>& entries);

}  // namespace simtlm::cli
