// Every game and value rule the backends are instantiated for.
#pragma once
#include "cgtb/games/cram.hpp"
#include "cgtb/games/rit.hpp"
#include "cgtb/rules/impartial.hpp"
