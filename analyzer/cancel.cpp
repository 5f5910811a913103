#include "analyzer/cancel.h"

namespace klint::cancel {
namespace {

thread_local const std::atomic<bool>* current = nullptr;

}  // namespace

Scope::Scope(const std::atomic<bool>& flag) : previous_(current) { current = &flag; }

Scope::~Scope() { current = previous_; }

bool requested() { return current && current->load(std::memory_order_relaxed); }

}  // namespace klint::cancel
