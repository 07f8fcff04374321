// The presentation of a proven misère quotient: generators, normal forms
// and relations (private to host/src/misere/).
#pragma once

#include <string>
#include <vector>

#include "cgtb/octal_quotient.hpp"
#include "quotient_search.hpp"

namespace cgtb::misere_detail {

/// The monoid of a finished search `q` whose letters are named
/// `letter_names`: its product table and P-portion, the generators (the
/// letters, in order, whose element the earlier generators do not give;
/// named "a", "b", ..., then "x27", ...), each element's normal form (the
/// shortlex least word: fewest letters, then alphabetical) and the relations
/// (the minimal words that are not normal forms, each equated with its
/// normal form: a complete rewriting system for the monoid). No errors.
misere_quotient present(const quotient_search& q, const std::vector<std::string>& letter_names);

}  // namespace cgtb::misere_detail
