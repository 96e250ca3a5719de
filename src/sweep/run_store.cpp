// Sweep folders, run status files and the execution of one run (see run_store.hpp).
#include "fastsim/sweep/run_store.hpp"

#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "fastsim/config/parse.hpp"
#include "fastsim/core/build_identity.hpp"
#include "fastsim/core/huge_pages.hpp"
#include "fastsim/run/experiment.hpp"
#include "fastsim/trace/atomic_file.hpp"

namespace fastsim::sweep {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path run_dir(const fs::path& out, const std::string& id) {
  return out / "runs" / id;
}

std::optional<RunStatus> read_status(const fs::path& dir) {
  std::ifstream in(dir / "status.json");
  if (!in)
    return std::nullopt;
  try {
    const json j = json::parse(in);
    RunStatus s;
    s.exit_code = j.at("exit_code").get<int>();
    s.wall_time_s = j.at("wall_time_s").get<double>();
    s.error = j.at("error").get<std::string>();
    s.build = j.value("fastsim_build", "");
    return s;
  } catch (const json::exception&) {
    return std::nullopt;  // unreadable: as if absent (it is written atomically, so this is not ours)
  }
}

void write_status(const fs::path& dir, const RunStatus& s) {
  json j = {{"exit_code", s.exit_code}, {"wall_time_s", s.wall_time_s}, {"error", s.error}};
  if (!s.build.empty())
    j["fastsim_build"] = s.build;
  trace::write_file_atomically((dir / "status.json").string(), j.dump(2) + "\n");
}

void remove_status(const fs::path& dir) {
  std::error_code ec;
  fs::remove(dir / "status.json", ec);
  if (ec)
    throw std::system_error(ec, "cannot remove " + (dir / "status.json").string());
}

RunState run_state(const fs::path& out, const std::string& id) {
  const auto s = read_status(run_dir(out, id));
  if (!s)
    return RunState::kMissing;
  return s->exit_code == 0 ? RunState::kOk : RunState::kFailed;
}

void write_plan(const fs::path& out, const json& spec_doc, const std::vector<RunPlan>& runs,
                const std::string& version, const SweepSpec* spec) {
  json list = json::array();
  for (const auto& r : runs) {
    list.push_back(
        {{"index", r.index}, {"id", r.id}, {"params", r.params}, {"replication", r.replication}, {"seed", r.seed}});
    const fs::path dir = run_dir(out, r.id);
    fs::create_directories(dir);
    if (r.scenario.is_null() && spec == nullptr)
      throw std::logic_error(fmt::format("run {}: no scenario document and no spec to make it from", r.id));
    const std::string text = (r.scenario.is_null() ? scenario_of(*spec, r) : r.scenario).dump(2) + "\n";
    trace::write_file_atomically((dir / "scenario.json").string(), text);
  }
  const json plan = {{"fastsim_version", version}, {"spec", spec_doc}, {"runs", list}};
  trace::write_file_atomically((out / "sweep.json").string(), plan.dump(2) + "\n");
}

std::vector<RunPlan> read_plan(const fs::path& out, std::string* fastsim_version) {
  std::ifstream in(out / "sweep.json");
  if (!in)
    throw std::runtime_error(fmt::format("{}: no sweep.json (not a sweep folder)", out.string()));
  std::vector<RunPlan> runs;
  try {
    std::stringstream text;
    text << in.rdbuf();
    const json plan = config::parse_json_text(text.str(), (out / "sweep.json").string());  // bounded depth
    if (fastsim_version != nullptr)
      *fastsim_version = plan.value("fastsim_version", "");
    for (const auto& r : plan.at("runs")) {
      RunPlan p;
      p.index = r.at("index").get<size_t>();
      p.id = r.at("id").get<std::string>();
      p.params = r.at("params");
      p.replication = r.at("replication").get<uint64_t>();
      p.seed = r.at("seed").get<uint64_t>();
      runs.push_back(std::move(p));
    }
  } catch (const config::ScenarioError& e) {
    throw std::runtime_error(e.issues().front().message);
  } catch (const json::exception& e) {  // valid JSON, but not the plan fastsim sweep writes
    throw std::runtime_error(fmt::format(
        "{}/sweep.json is not a plan fastsim sweep wrote (an object with \"runs\": [{{\"index\", \"id\", "
        "\"params\", \"replication\", \"seed\"}}, ...]; here: {}): was it edited? Rerun the sweep into a new folder",
        out.string(), e.what()));
  }
  return runs;
}

void release_documents(std::vector<RunPlan>& runs) {
  for (RunPlan& r : runs)
    json().swap(r.scenario);
  // The documents' many small nodes stay resident in the heap otherwise; the heap's huge-page
  // reserve is made again for the workers forked next.
  release_free_heap_memory();
}

int execute_run(const fs::path& dir, std::ostream& log) {
  const auto start = std::chrono::steady_clock::now();
  RunStatus status;
  status.build = build_identity();
  try {
    const auto doc = config::load_json_file((dir / "scenario.json").string());
    // Its limits were checked when the sweep was validated (with the sweep's --limit values,
    // which the run folder does not keep): none is applied again. The experiment takes the
    // scenario and releases what only the build reads.
    config::Limits validated;
    validated.memory_bytes = UINT64_MAX;  // the count check of parse_scenario
    run::Experiment exp(config::parse_scenario(doc, validated));
    run::RunOptions options;
    options.out_dir = dir.string();
    const auto& r = exp.run(options);
    log << fmt::format("done: {} s simulated, {} events, {} data packets\n", r.sim_time_s, r.events,
                       r.data_packets_delivered);
  } catch (const config::ScenarioError& e) {
    status.exit_code = 1;
    status.error = e.what();
  } catch (const std::exception& e) {
    status.exit_code = 3;
    status.error = e.what();
  }
  if (status.exit_code != 0)
    log << "failed: " << status.error << "\n";
  status.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  try {
    write_status(dir, status);
  } catch (const std::exception& e) {
    log << "cannot write status.json: " << e.what() << "\n";
    return 3;
  }
  return status.exit_code;
}

}  // namespace fastsim::sweep
