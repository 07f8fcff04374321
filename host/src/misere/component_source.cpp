// The component source interface's defaults, the option arena's writer and
// the lookup from a component's code to its source (component_source.hpp).
#include "component_source.hpp"

#include <stdexcept>

#include "cgtb/error.hpp"

namespace cgtb::misere_detail {

void set_genus(component_info& ci, const genus& gn) {
  for (int k = 0; k < 8; ++k) ci.run[k] = static_cast<std::uint8_t>(gn.run[static_cast<std::size_t>(k)]);
  ci.has_run = true;
  ci.kind = !gn.tame() ? shape::wild : gn.settle_index() == 0 ? shape::firm : shape::fickle;
}

option_writer::option_writer(option_arena& arena, component_info& ci) : arena_(arena), ci_(ci) {
  ci_.first_option = static_cast<std::uint32_t>(arena_.size());
}

void option_writer::begin_option() {
  head_ = arena_.size();
  arena_.push_back(0);
  ++ci_.options;
}

void option_writer::add_part(component p) {
  arena_.push_back(p);
  ++arena_[head_];
}

void option_writer::finish() const {
  if (arena_.size() > 0xffffffffu) throw resource_error("the sum search's option cache is full");
}

std::uint64_t component_source::generated_options(component) const {
  throw std::logic_error("generated_options: this source stores its options");
}

void component_source::generated_option(component, std::uint64_t, std::vector<component>&) const {
  throw std::logic_error("generated_option: this source stores its options");
}

std::int64_t component_source::plain_grundy(component) const { return -1; }

bool component_source::genus_within_reach(component) const { return false; }

component_sources::component_sources(const sum_settings& set, const has_move_fn& has_move)
    : heap_(make_nim_heap_source()),
      region_(make_cram_region_source()),
      octal_(make_octal_heap_source(has_move)),
      table_(make_table_source(set, has_move)) {}

component_source& component_sources::of(component c) const {
  switch (file_of(c)) {
    case kHeapFile:
      return *heap_;
    case kOctalFile:
      return *octal_;
    case kRegionFile:
      return *region_;
    default:
      return *table_;
  }
}

std::unique_ptr<sum_term> component_sources::parse(const std::string& raw) const {
  for (component_source* s : {heap_.get(), region_.get(), octal_.get(), table_.get()})
    if (s->accepts(raw)) return s->parse(raw);
  throw input_error("term '" + raw + "' is neither FILE:POSITION nor a Nim heap *n");
}

}  // namespace cgtb::misere_detail
