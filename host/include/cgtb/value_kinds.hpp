// The value kinds a tablebase may store, in one table for every family:
// what `cgtb build --values` accepts, the fields each kind adds to the file
// (name, signedness, and the value rule's field id), and the names queries
// read them by.
#pragma once

#include <string>
#include <vector>

#include "cgtb/tablebase.hpp"

namespace cgtb {

/// Names of the stored fields, as in file headers (docs/format.md). Queries
/// look fields up by these.
namespace field_name {
inline constexpr const char* grundy = "grundy";              ///< normal-play Grundy value
inline constexpr const char* misere = "misere";              ///< misère Grundy value
inline constexpr const char* genus_prefix = "genus";         ///< genus1..genus7: gamma_k of the genus
inline constexpr const char* normal_class = "normal_class";  ///< partizan outcome class, normal play
inline constexpr const char* misere_class = "misere_class";  ///< partizan outcome class, misère play
inline constexpr const char* gs = "gs";                      ///< scoring play G_s, signed
inline constexpr const char* safe = "safe";                  ///< blocking games: a P-position at move 1
inline constexpr const char* winning = "winning";            ///< blocking games: winning options
}  // namespace field_name

/// A field a value kind stores: its header spec and the value rule's field
/// id (the `f` of Rule::field(record, f)).
struct stored_field {
  field_spec spec;
  int rule_field;
};

/// One value kind of one family ("impartial", "partizan", "scoring",
/// "blocking").
struct value_kind {
  std::string family;
  std::string name;                  ///< as written in --values and the header's values line
  std::vector<stored_field> fields;  ///< in storage order
  std::vector<std::string> brings;   ///< kinds it needs (genus: normal and misere)
};

/// Every value kind, family by family, each family's kinds in storage order.
const std::vector<value_kind>& value_kind_table();

/// The kinds a build stores: parsed from --values, in table order.
struct value_choice {
  std::string family;
  std::vector<const value_kind*> kinds;

  /// Parses "normal,misere", "all" or "" (every kind of the family) for a
  /// family; `alias` names another word for "all" (the scoring family's
  /// "scoring"). Throws input_error naming an unknown kind and the family's
  /// kinds.
  static value_choice parse(const std::string& family, const std::string& text);
  /// "normal,misere,genus": the header's values line.
  std::string text() const;
  /// The header's fields, in storage order.
  std::vector<field_spec> fields() const;
  /// The value rule's field id of each stored field, in storage order.
  std::vector<int> rule_fields() const;
  bool has(const std::string& kind) const;
};

}  // namespace cgtb
