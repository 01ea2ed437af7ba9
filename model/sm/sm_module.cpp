#include "model/sm/sm_module.h"

namespace simtlm::sm {

SmModule::SmModule(sc_core::sc_module_name name)
    : sc_module(name),
      to_memory("to_memory"),
      port("port", mem::MemPort::Config{mem::MemPort::Mode::ApproximatelyTimed, 0, true}),
      memory_(port) {
  port.to_memory.bind(to_memory);  // hierarchical: the port's socket is the SM's
}

}  // namespace simtlm::sm
