// CompileOptions::Parse: one table of known options, each with its own reader.
#include "ge/compiler/compile_options.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <functional>
#include <sstream>

namespace ge {
namespace {

#ifdef NDEBUG
constexpr const char* kVerifyDefault = "0";
#else
constexpr const char* kVerifyDefault = "1";
#endif

Result<bool> ParseBool(const std::string& key, const std::string& value) {
  if (value == "1" || value == "true" || value == "True") return true;
  if (value == "0" || value == "false" || value == "False") return false;
  return ParamInvalid("option " + key + "='" + value + "': expected 1/true or 0/false");
}

Result<double> ParseRatio(const std::string& key, const std::string& value) {
  char* end = nullptr;
  const double out = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !(out > 0.0 && out <= 1.0)) {
    return ParamInvalid("option " + key + "='" + value + "': expected a number in (0, 1]");
  }
  return out;
}

Result<int64_t> ParseInt(const std::string& key, const std::string& value, int64_t min,
                         int64_t max) {
  int64_t out = 0;
  const char* end = value.data() + value.size();
  auto [ptr, ec] = std::from_chars(value.data(), end, out);
  if (value.empty() || ec != std::errc() || ptr != end) {
    return ParamInvalid("option " + key + "='" + value + "': expected an integer");
  }
  if (out < min || out > max) {
    return ParamInvalid("option " + key + "='" + value + "': expected an integer in [" +
                        std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return out;
}

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// Levenshtein distance, to suggest the closest known key for a misspelt one.
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
    }
  }
  return row[b.size()];
}

using Reader = std::function<Status(const std::string& value, CompileOptions& out)>;

struct Entry {
  OptionInfo info;
  Reader read;  // null: read elsewhere (topo options, plugin paths)
};

const std::vector<Entry>& Table() {
  static const std::vector<Entry> kTable = [] {
    std::vector<Entry> t;
    auto add = [&t](const char* key, const char* def, const char* help, Reader read) {
      t.push_back({{key, def, help}, std::move(read)});
    };
    add(kOptTopoSortingMode, "1",
        "topological order of the build: 0 BFS, 1 DFS, 2 reverse DFS, 3 stable reverse DFS",
        [](const std::string&, CompileOptions& o) {
          o.topo_mode_given = true;
          return Status::Ok();
        });
    add(kOptMemoryPolicy, "", "MemoryPriority: order nodes to lower peak memory", nullptr);
    add(kOptMemoryPriorityKey, "consumers",
        "what MemoryPriority runs first: consumers (fewest consumers, then smallest output) or "
        "output-size (largest output, then fewest consumers)",
        nullptr);
    add(kOptGraphRunMode, "0", "0 inference, 1 training", nullptr);
    add(kOptConstantFolding, "1", "fold operators whose inputs are constants",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.constant_folding, ParseBool(kOptConstantFolding, v));
          return Status::Ok();
        });
    add(kOptDisableReuseMemory, "0", "give every tensor its own memory (no reuse)",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.disable_reuse_memory, ParseBool(kOptDisableReuseMemory, v));
          return Status::Ok();
        });
    add(kOptEnableSingleStream, "true", "run everything on one stream; false: parallel branches",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.single_stream, ParseBool(kOptEnableSingleStream, v));
          return Status::Ok();
        });
    add(kOptInputShape, "", "input shapes, \"name:d0,d1;name2:d0\" (-1 unknown)",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.input_shapes, ParseInputShapes(v));
          return Status::Ok();
        });
    add(kOptOpsProtoLibPath, "", "directories of operator prototype libraries (':' separated)",
        nullptr);
    add("ge.opsProtoLibOverride", "0",
        "let the libraries of ge.opsProtoLibPath redefine built-in operators", nullptr);
    add(kOptEnginePluginPath, "", "directory of the engine plugins", nullptr);
    add(kOptEngineConfPath, "", "engine_conf.json to read", nullptr);
    add(kOptMaxStreams, "4",
        "most streams when ge.enableSingleStream is false (the cost model picks how many; all of "
        "them with openge.costModel=0)",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.max_streams, ParseInt(kOptMaxStreams, v, 1, 64));
          return Status::Ok();
        });
    add(kOptMemoryAlignment, "64", "alignment of every planned offset, a power of two",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.memory_alignment, ParseInt(kOptMemoryAlignment, v, 1, 1 << 20));
          if ((o.memory_alignment & (o.memory_alignment - 1)) != 0) {
            return ParamInvalid("option " + std::string(kOptMemoryAlignment) + "='" + v +
                                "': expected a power of two");
          }
          return Status::Ok();
        });
    add(kOptSeparateOutputs, "0", "place graph outputs outside the activation arena",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.separate_outputs, ParseBool(kOptSeparateOutputs, v));
          return Status::Ok();
        });
    add(kOptTryTopoOrders, "1", "plan memory for several topological orders, keep the smallest",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.try_topo_orders, ParseBool(kOptTryTopoOrders, v));
          return Status::Ok();
        });
    add(kOptFoldMaxBytes, "16777216", "constant folding skips outputs larger than this",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.fold_max_bytes, ParseInt(kOptFoldMaxBytes, v, 0, int64_t{1} << 40));
          return Status::Ok();
        });
    add(kOptDisablePasses, "", "comma-separated pass names not to run", [](auto& v, auto& o) {
      std::stringstream in(v);
      std::string name;
      while (std::getline(in, name, ',')) {
        name = Trim(name);
        if (!name.empty()) o.disabled_passes.insert(name);
      }
      return Status::Ok();
    });
    add(kOptDumpGraphDir, "", "dump the graph (pbtxt) after every pass into this directory",
        [](auto& v, auto& o) {
          o.dump_graph_dir = v;
          return Status::Ok();
        });
    add(kOptVerifyPasses, kVerifyDefault, "run the graph verifier after every pass",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.verify_after_pass, ParseBool(kOptVerifyPasses, v));
          return Status::Ok();
        });
    add(kOptRewriteLimit, "32", "bound on the sweeps of a rewrite pass", [](auto& v, auto& o) {
      GE_ASSIGN_OR_RETURN(o.rewrite_limit, ParseInt(kOptRewriteLimit, v, 1, 1000000));
      return Status::Ok();
    });
    add(kOptFusionCostRatio, "0.7",
        "fuse only when the fused form moves at most this fraction of the bytes",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.fusion_cost_ratio, ParseRatio(kOptFusionCostRatio, v));
          return Status::Ok();
        });
    add(kOptFusionMaxNodes, "100", "largest number of nodes one fusion group may take",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.fusion_max_nodes, ParseInt(kOptFusionMaxNodes, v, 2, 100000));
          return Status::Ok();
        });
    add(kOptCostModel, "1",
        "give each task the threads the cost model finds it worth (0: every task takes every "
        "thread of its stream)",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.cost_model, ParseBool(kOptCostModel, v));
          return Status::Ok();
        });
    add(kOptMachineProfile, "",
        "the machine's rates for the cost model, as `gec calibrate` writes them (empty: "
        "~/.cache/openge/machine.json when there, else built-in rates)",
        [](auto& v, auto& o) {
          o.machine_profile = v;
          return Status::Ok();
        });
    add(kOptScheduleThreads, "0",
        "threads the cost model plans each task's share of (0: this machine's cores)",
        [](auto& v, auto& o) {
          GE_ASSIGN_OR_RETURN(o.schedule_threads, ParseInt(kOptScheduleThreads, v, 0, 4096));
          return Status::Ok();
        });
    add(kOptShapePlanEntries, "8",
        "plans a graph with run-time input shapes keeps, one per set of shapes (0: run it on "
        "the dynamic executor instead)",
        nullptr);
    add(kOptShapePlanBytes, "0",
        "bytes those plans may hold together beyond the graph's own weights (arenas, kernel "
        "scratch, weights they folded or packed) before the least recently used go (0: no cap)",
        nullptr);
    add(kOptShapeBuckets, "",
        "round named input dims up before choosing a plan, 'DIM:M' to a multiple of M or "
        "'DIM:S1,S2,...' to the next listed size, ';' between dims (e.g. 'sequence:16'): inputs "
        "are padded with zeros and outputs cut back, for models whose padded positions do not "
        "reach the real ones (attention masked, causal); empty: every shape its own plan",
        nullptr);
    return t;
  }();
  return kTable;
}

}  // namespace

Result<std::map<std::string, std::vector<int64_t>>> ParseInputShapes(const std::string& text) {
  std::map<std::string, std::vector<int64_t>> out;
  std::string normalized = text;
  std::replace(normalized.begin(), normalized.end(), ' ', ';');
  std::stringstream in(normalized);
  std::string item;
  while (std::getline(in, item, ';')) {
    item = Trim(item);
    if (item.empty()) continue;
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0) {
      return ParamInvalid("input shape '" + item +
                          "': expected NAME:D0,D1,... (e.g. input:1,3,224,224)");
    }
    const std::string name = item.substr(0, colon);
    std::vector<int64_t> dims;
    std::stringstream dims_in(item.substr(colon + 1));
    std::string dim;
    while (std::getline(dims_in, dim, ',')) {
      dim = Trim(dim);
      int64_t value = 0;
      auto [ptr, ec] = std::from_chars(dim.data(), dim.data() + dim.size(), value);
      if (dim.empty() || ec != std::errc() || ptr != dim.data() + dim.size() || value < -1) {
        return ParamInvalid("input shape '" + item + "': dimension '" + dim +
                            "' is not an integer >= -1");
      }
      dims.push_back(value);
    }
    if (!out.emplace(name, std::move(dims)).second) {
      return ParamInvalid("input shape: input '" + name + "' is given twice");
    }
  }
  return out;
}

const std::vector<OptionInfo>& CompileOptions::Known() {
  static const std::vector<OptionInfo> kInfos = [] {
    std::vector<OptionInfo> infos;
    for (const Entry& e : Table()) infos.push_back(e.info);
    return infos;
  }();
  return kInfos;
}

Result<CompileOptions> CompileOptions::Parse(const std::map<std::string, std::string>& options,
                                             const std::vector<std::string>& engine_keys) {
  CompileOptions out;
  out.raw = options;
  // Defaults first, so an option's reader sees a value even when it is not given.
  for (const Entry& e : Table()) {
    if (e.read && !e.info.default_value.empty() && e.info.key != kOptTopoSortingMode) {
      GE_RETURN_IF_ERROR(e.read(e.info.default_value, out));
    }
  }
  for (const auto& option : options) {
    const std::string& key = option.first;
    const std::string& value = option.second;
    auto it = std::find_if(Table().begin(), Table().end(),
                           [&key](const Entry& e) { return e.info.key == key; });
    if (it == Table().end()) {
      // The engines check their own options when they load.
      if (std::find(engine_keys.begin(), engine_keys.end(), key) != engine_keys.end()) continue;
      std::string best;
      size_t best_distance = key.size();
      auto consider = [&](const std::string& known) {
        const size_t d = EditDistance(key, known);
        if (d < best_distance) {
          best_distance = d;
          best = known;
        }
      };
      for (const Entry& e : Table()) consider(e.info.key);
      for (const std::string& known : engine_keys) consider(known);
      std::string message = "unknown option '" + key + "'";
      if (!best.empty() && best_distance <= 4) message += "; did you mean '" + best + "'?";
      return ParamInvalid(message + " (`gec options` lists every option)");
    }
    if (it->read) GE_RETURN_IF_ERROR(it->read(value, out));
  }
  auto topo = TopoSortOptions::FromOptions(options);
  if (!topo.ok()) return topo.status();
  out.topo = *topo;
  return out;
}

}  // namespace ge
