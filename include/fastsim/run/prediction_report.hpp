// run --predict: the predicted equilibria beside the measured ones, per interval, with the
// relative error (summary.json's `prediction`; docs/predict.md).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "fastsim/config/scenario.hpp"
#include "fastsim/predict/predict.hpp"
#include "fastsim/run/results.hpp"

namespace fastsim::run {

/// {"tolerance", "intervals": [measured vs predicted per interval], "model": the full prediction}.
nlohmann::json prediction_json(const config::Scenario& scenario, const RunResult& r, const predict::Prediction& p);

}  // namespace fastsim::run
