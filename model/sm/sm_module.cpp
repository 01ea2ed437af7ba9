#include "model/sm/sm_module.h"

namespace simtlm::sm {

UnitModule::UnitModule(sc_core::sc_module_name name, const sc_core::sc_event* trigger, std::function<void()> step)
    : sc_module(name), step_(std::move(step)) {
  if (!trigger) return;
  SC_METHOD(run);
  sensitive << *trigger;
  dont_initialize();
}

SmModule::SmModule(sc_core::sc_module_name name, const std::vector<const char*>& units,
                   const std::vector<const sc_core::sc_event*>& triggers, const std::function<void(int unit)>& step)
    : sc_module(name),
      to_memory("to_memory"),
      port("port", mem::MemPort::Config{mem::MemPort::Mode::ApproximatelyTimed, 0, true}),
      memory_(port) {
  port.to_memory.bind(to_memory);  // hierarchical: the port's socket is the SM's
  for (size_t u = 0; u < units.size(); ++u)
    units_.push_back(std::make_unique<UnitModule>(units[u], triggers.empty() ? nullptr : triggers[u],
                                                  [step, u] { step(static_cast<int>(u)); }));
  if (triggers.empty()) return;
  answers_ = std::make_unique<sc_core::sc_fifo<GlobalResponse>>("ldst_answers", GlobalMemoryPort::kMaxResponses);
  executeResults_ = std::make_unique<sc_core::sc_fifo<PendingResult>>("execute_results", kMaxResultsPerStep);
  answerResults_ = std::make_unique<sc_core::sc_fifo<PendingResult>>("answer_results", kMaxResultsPerStep);
}

void SmModule::drainAnswers() {
  if (!answers_) return;
  GlobalResponse r;
  while (answers_->nb_read(r)) {
  }
  PendingResult p;
  while (executeResults_->nb_read(p)) {
  }
  while (answerResults_->nb_read(p)) {
  }
}

}  // namespace simtlm::sm
