// Every game and value rule the backends are instantiated for.
#pragma once
#include "cgtb/games/cram.hpp"
#include "cgtb/games/cricket_pitch.hpp"
#include "cgtb/games/domineering.hpp"
#include "cgtb/games/impartial_as_partizan.hpp"
#include "cgtb/games/scoring_octal.hpp"
#include "cgtb/rules/impartial.hpp"
#include "cgtb/rules/partizan.hpp"
#include "cgtb/rules/scoring.hpp"
