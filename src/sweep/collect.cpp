// Sweep result tables (see collect.hpp).
#include "fastsim/sweep/collect.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <variant>

#include <fmt/format.h>
#include <boost/math/distributions/students_t.hpp>
#include <nlohmann/json.hpp>

#include "fastsim/config/parse.hpp"
#include "fastsim/sweep/csv.hpp"
#include "fastsim/sweep/param_columns.hpp"
#include "fastsim/sweep/run_store.hpp"
#include "fastsim/trace/atomic_file.hpp"

namespace fastsim::sweep {

namespace fs = std::filesystem;
using nlohmann::json;

Aggregate aggregate(const std::vector<double>& x, double level) {
  Aggregate a;
  a.n = x.size();
  if (x.empty())
    return a;
  double sum = 0;
  for (double v : x)
    sum += v;
  a.mean = sum / static_cast<double>(a.n);
  if (a.n < 2)
    return a;
  double ss = 0;
  for (double v : x)
    ss += (v - a.mean) * (v - a.mean);
  a.sd = std::sqrt(ss / static_cast<double>(a.n - 1));
  const boost::math::students_t t(static_cast<double>(a.n - 1));
  const double q = boost::math::quantile(t, 0.5 + level / 2);
  const double half = q * *a.sd / std::sqrt(static_cast<double>(a.n));
  a.ci_low = a.mean - half;
  a.ci_high = a.mean + half;
  return a;
}

namespace {

/// Ordered columns, the union over rows in first-seen order.
struct Table {
  std::vector<std::string> columns;
  std::set<std::string> known;
  std::vector<std::map<std::string, std::string>> rows;
  void add(std::map<std::string, std::string> row, const std::vector<std::string>& order) {
    for (const auto& c : order) {
      if (known.insert(c).second)
        columns.push_back(c);
    }
    rows.push_back(std::move(row));
  }
};

std::string format_value(const json& v) {
  if (v.is_string())
    return v.get<std::string>();
  if (v.is_boolean())
    return v.get<bool>() ? "1" : "0";
  if (v.is_number_float())  // the shortest form that reads back as the same double: 0.1 stays 0.1
    return fmt::format("{}", v.get<double>());
  if (v.is_null())
    return "";
  return v.dump();
}

/// Scalars of `j` under `prefix` (arrays of objects with an "id" are named by it).
void flatten(const json& j, const std::string& prefix, std::vector<std::pair<std::string, json>>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items())
      flatten(v, prefix.empty() ? k : prefix + "." + k, out);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      const json& e = j[i];
      const std::string name =
          e.is_object() && e.contains("id") && e["id"].is_string() ? e["id"].get<std::string>() : std::to_string(i);
      if (e.is_object() || e.is_array())
        flatten(e, prefix + "." + name, out);
    }
  } else {  // numbers, booleans, strings (e.g. an interval's newest flow), null
    out.emplace_back(prefix, j);
  }
}

/// Writes the table to "<path>.tmp", closed: committed with the others once all are written,
/// so that a write error (a full disk) leaves the four tables of the previous collect.
std::unique_ptr<trace::AtomicFile> write_table(const fs::path& path, const Table& t) {
  std::string text;
  append_csv_row(text, t.columns);
  std::vector<std::string> fields(t.columns.size());
  for (const auto& row : t.rows) {
    for (size_t i = 0; i < t.columns.size(); ++i) {
      auto it = row.find(t.columns[i]);
      fields[i] = it == row.end() ? std::string() : it->second;
    }
    append_csv_row(text, fields);
  }
  auto file = std::make_unique<trace::AtomicFile>(path.string());
  file->write(text.data(), text.size());
  file->close();
  return file;
}

/// The run's summary.json if it is a JSON object holding the run's metrics, else why not.
std::variant<json, std::string> read_summary(const fs::path& run) {
  const fs::path file = run / "summary.json";
  if (!fs::exists(file))
    return std::string("no summary.json");
  json summary;
  try {  // bounded like every JSON input: a hostile summary must not crash collect
    summary = config::load_json_file(file.string());
  } catch (const config::ScenarioError& e) {
    return fmt::format("summary.json is not valid JSON ({})", e.what());
  }
  for (const char* key : {"sim_time_s", "events"}) {
    if (!summary.is_object() || !summary.contains(key) || !summary[key].is_number())
      return fmt::format("summary.json has no metric \"{}\"", key);
  }
  return summary;
}

/// Values of one metric over the replications of a point, by metric name in first-seen order.
struct Metrics {
  std::map<std::string, std::vector<double>> values;
  std::map<std::string, size_t> nulls;  ///< successful runs that reported the metric as null
  /// A value, or a null (nullopt: the run reported none, e.g. a flow that never converged).
  void add(const std::string& name, std::optional<double> v, std::vector<std::string>& order,
           std::set<std::string>& seen) {
    if (v)
      values[name].push_back(*v);
    else
      ++nulls[name];
    if (seen.insert(name).second)
      order.push_back(name);
  }
};

/// Whether a null under `name` stands for a missing number: summary.json's fields that hold
/// text or null (an interval's newest_flow, a prediction's bottleneck and reason) do not.
bool numeric_null(const std::string& name) {
  const auto dot = name.rfind('.');
  const std::string last = dot == std::string::npos ? name : name.substr(dot + 1);
  return last != "newest_flow" && last != "bottleneck" && last != "reason";
}

/// The numeric or null scalars of a flow's summary entry, nested ones (algorithm_values) dotted.
std::vector<std::pair<std::string, std::optional<double>>> flow_metrics(const json& flow) {
  std::vector<std::pair<std::string, json>> all;
  flatten(flow, "", all);
  std::vector<std::pair<std::string, std::optional<double>>> out;
  for (const auto& [name, v] : all) {
    if (v.is_number())
      out.emplace_back(name, v.get<double>());
    else if (v.is_null() && numeric_null(name))
      out.emplace_back(name, std::nullopt);
  }
  return out;
}

/// A row of aggregate.csv or aggregate_flows.csv: the point's parameters, `keys` (metric,
/// flow), the statistics of the values `x`, the numeric parameter columns, then `nulls`.
void add_aggregate_row(Table& t, const json& params, const ParamColumns& numeric,
                       const std::vector<std::pair<std::string, std::string>>& keys, const std::vector<double>& x,
                       size_t nulls) {
  const Aggregate a = aggregate(x);
  std::map<std::string, std::string> row;
  std::vector<std::string> order;
  for (const auto& [pointer, value] : params.items()) {
    row[pointer] = format_value(value);
    order.push_back(pointer);
  }
  for (const auto& [k, v] : keys) {
    row[k] = v;
    order.push_back(k);
  }
  auto num = [](std::optional<double> v) { return v ? fmt::format("{:.17g}", *v) : std::string(); };
  row["n"] = std::to_string(a.n);
  row["mean"] = a.n > 0 ? fmt::format("{:.17g}", a.mean) : std::string();
  row["sd"] = num(a.sd);
  row["ci95_low"] = num(a.ci_low);
  row["ci95_high"] = num(a.ci_high);
  for (const char* c : {"n", "mean", "sd", "ci95_low", "ci95_high"})
    order.emplace_back(c);
  row.merge(numeric.cells(params));
  order.insert(order.end(), numeric.names().begin(), numeric.names().end());
  row["nulls"] = std::to_string(nulls);
  order.emplace_back("nulls");
  t.add(std::move(row), order);
}

}  // namespace

CollectResult collect(const fs::path& dir) {
  if (!fs::is_directory(dir))
    throw NotASweep(fmt::format("{}: no such folder", dir.string()));
  if (!fs::exists(dir / "sweep.json"))
    throw NotASweep(
        fmt::format("{}: not a sweep folder (no sweep.json; fastsim sweep SPEC --out DIR makes one)", dir.string()));
  std::vector<RunPlan> runs;
  try {
    runs = read_plan(dir);
  } catch (const std::runtime_error& e) {
    throw NotASweep(e.what());
  }
  CollectResult result;
  result.runs = runs.size();
  std::vector<json> all_params;
  for (const auto& r : runs)
    all_params.push_back(r.params);
  const ParamColumns numeric(all_params);
  Table run_table, flow_table;
  // Per parameter point (its params JSON), per metric: values over replications; per
  // point and flow (in first-seen order), per flow metric likewise.
  std::map<std::string, Metrics> points;
  std::map<std::string, std::vector<std::pair<std::string, Metrics>>> point_flows;
  std::map<std::string, json> point_params;
  std::vector<std::string> point_order, metric_order, flow_metric_order;
  std::set<std::string> metric_seen, flow_metric_seen;
  // Summary fields that measure the machine or echo the input, not the model.
  static const std::set<std::string> skip = {"wall_time_s", "peak_rss_mb",     "scenario", "fastsim_version",
                                             "flows",       "completed_flows", "seed"};
  for (const auto& r : runs) {
    std::map<std::string, std::string> row;
    std::vector<std::string> order = {"run_id", "index"};
    row["run_id"] = r.id;
    row["index"] = std::to_string(r.index);
    for (const auto& [pointer, value] : r.params.items()) {
      row[pointer] = format_value(value);
      order.push_back(pointer);
    }
    row["replication"] = std::to_string(r.replication);
    row["seed"] = std::to_string(r.seed);
    const auto status = read_status(run_dir(dir, r.id));
    json summary;
    std::string state = !status ? "missing" : status->exit_code == 0 ? "ok" : "failed";
    if (!status) {
      ++result.missing;
    } else if (status->exit_code != 0) {
      ++result.failed;
    } else if (auto s = read_summary(run_dir(dir, r.id)); const auto* why = std::get_if<std::string>(&s)) {
      state = "unusable";
      result.unusable.push_back(
          fmt::format("run {} {} replication {}: {}", r.id, r.params.dump(), r.replication, *why));
    } else {
      ++result.ok;
      summary = std::move(std::get<json>(s));
    }
    row["status"] = state;
    row["exit_code"] = status ? std::to_string(status->exit_code) : "";
    for (const char* c : {"replication", "seed", "status", "exit_code"})
      order.emplace_back(c);
    row.merge(numeric.cells(r.params));
    order.insert(order.end(), numeric.names().begin(), numeric.names().end());
    const std::string key = r.params.dump();
    if (!point_params.count(key)) {
      point_params[key] = r.params;
      point_order.push_back(key);
    }
    if (state == "ok") {
      std::vector<std::pair<std::string, json>> metrics;
      for (const auto& [k, v] : summary.items()) {
        if (!skip.count(k))
          flatten(v, k, metrics);
      }
      for (const auto& [name, value] : metrics) {
        row[name] = format_value(value);
        order.push_back(name);
        if (value.is_number())
          points[key].add(name, value.get<double>(), metric_order, metric_seen);
        else if (value.is_null() && numeric_null(name))
          points[key].add(name, std::nullopt, metric_order, metric_seen);
      }
      if (summary.contains("flows")) {
        for (const auto& f : summary["flows"]) {
          if (!f.is_object())
            continue;
          if (f.contains("id") && f["id"].is_string()) {
            const auto id = f["id"].get<std::string>();
            auto& flows = point_flows[key];
            auto it = std::find_if(flows.begin(), flows.end(), [&](const auto& e) { return e.first == id; });
            if (it == flows.end())
              it = flows.insert(flows.end(), {id, Metrics{}});
            for (const auto& [name, v] : flow_metrics(f))
              it->second.add(name, v, flow_metric_order, flow_metric_seen);
          }
          std::map<std::string, std::string> frow;
          std::vector<std::string> forder = {"run_id"};
          frow["run_id"] = r.id;
          for (const auto& [pointer, value] : r.params.items()) {
            frow[pointer] = format_value(value);
            forder.push_back(pointer);
          }
          frow["replication"] = std::to_string(r.replication);
          frow["seed"] = std::to_string(r.seed);
          forder.emplace_back("replication");
          forder.emplace_back("seed");
          frow.merge(numeric.cells(r.params));
          forder.insert(forder.end(), numeric.names().begin(), numeric.names().end());
          if (const auto id = f.find("id"); id != f.end()) {  // the flow before its metrics (keys are sorted)
            frow["flow"] = format_value(*id);
            forder.emplace_back("flow");
          }
          for (const auto& [k, v] : f.items()) {
            if (v.is_array() || k == "id")
              continue;  // goodput samples: in the flow traces
            frow[k] = format_value(v);
            forder.push_back(k);
          }
          flow_table.add(std::move(frow), forder);
        }
      }
    }
    run_table.add(std::move(row), order);
  }
  std::vector<std::unique_ptr<trace::AtomicFile>> tables;
  tables.push_back(write_table(dir / "runs.csv", run_table));
  tables.push_back(write_table(dir / "flows.csv", flow_table));

  Table agg, flow_agg;
  for (const auto& key : point_order) {
    if (!points.count(key))
      result.points_without_runs.push_back(key);
  }
  // A row per metric a point's runs reported, as a value or as null.
  const auto rows = [&](Table& t, const Metrics& m, const std::vector<std::string>& metric_names, const json& params,
                        std::vector<std::pair<std::string, std::string>> keys) {
    static const std::vector<double> kNone;
    for (const auto& metric : metric_names) {
      const auto v = m.values.find(metric);
      const auto z = m.nulls.find(metric);
      if (v == m.values.end() && z == m.nulls.end())
        continue;
      keys.back().second = metric;
      add_aggregate_row(t, params, numeric, keys, v != m.values.end() ? v->second : kNone,
                        z != m.nulls.end() ? z->second : 0);
    }
  };
  for (const auto& key : point_order) {
    rows(agg, points[key], metric_order, point_params[key], {{"metric", ""}});
    for (const auto& [flow, metrics] : point_flows[key])
      rows(flow_agg, metrics, flow_metric_order, point_params[key], {{"flow", flow}, {"metric", ""}});
  }
  tables.push_back(write_table(dir / "aggregate.csv", agg));
  tables.push_back(write_table(dir / "aggregate_flows.csv", flow_agg));
  for (auto& table : tables)  // every write done: only renames are left
    table->commit();
  return result;
}

}  // namespace fastsim::sweep
