// The dynamic executor's control flow: If, Case, While and PartitionedCall (GE) and ONNX Loop
// and Scan, each running its subgraphs through a nested GraphExec (dynamic_graph_exec.h).
#include <algorithm>
#include <cstring>

#include "dynamic_graph_exec.h"
#include "ge/graph/checked_math.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"

namespace ge::runtime_internal::dynamic {
namespace {

/// The value of a condition or branch index: a scalar-like tensor of any numeric type.
Result<int64_t> ScalarOf(const Node& node, const Value& v) {
  if (v.bytes <= 0) return ParamInvalid(Who(node) + ": its condition is empty");
  const uint8_t* p = v.data.get();
  switch (v.dtype) {
    case DT_BOOL:
    case DT_UINT8:
      return static_cast<int64_t>(*p);
    case DT_INT8:
      return static_cast<int64_t>(*reinterpret_cast<const int8_t*>(p));
    case DT_INT32: {
      int32_t x;
      std::memcpy(&x, p, 4);
      return static_cast<int64_t>(x);
    }
    case DT_INT64: {
      int64_t x;
      std::memcpy(&x, p, 8);
      return x;
    }
    case DT_FLOAT: {
      float x;
      std::memcpy(&x, p, 4);
      return static_cast<int64_t>(x != 0.0F);
    }
    case DT_DOUBLE: {
      double x;
      std::memcpy(&x, p, 8);
      return static_cast<int64_t>(x != 0.0);
    }
    default:
      return ParamInvalid(Who(node) + ": a condition of type " +
                          TypeUtils::DataTypeToSerialString(v.dtype) + " is not supported");
  }
}

/// The outer and inner element counts around `axis` and the element size of `v`.
struct AxisSplit {
  int64_t outer = 1, length = 1, inner = 1, element = 0;
};
Result<AxisSplit> SplitAt(const Node& node, const Value& v, int64_t axis) {
  AxisSplit s;
  const auto rank = static_cast<int64_t>(v.dims.size());
  if (axis < 0 || axis >= rank) {
    return ParamInvalid(Who(node) + ": axis " + std::to_string(axis) + " is out of range for " +
                        GeShape(v.dims).ToString());
  }
  for (int64_t i = 0; i < axis; ++i) s.outer *= v.dims[static_cast<size_t>(i)];
  s.length = v.dims[static_cast<size_t>(axis)];
  for (int64_t i = axis + 1; i < rank; ++i) s.inner *= v.dims[static_cast<size_t>(i)];
  const int64_t count = s.outer * s.length * s.inner;
  s.element = count > 0 ? v.bytes / count : 0;
  return s;
}

/// Slice `index` of `v` along `axis`, the axis removed (copied out: scan slices are strided).
Result<Value> SliceAxis(const Node& node, const Value& v, int64_t axis, int64_t index) {
  GE_ASSIGN_OR_RETURN(AxisSplit s, SplitAt(node, v, axis));
  Value out;
  out.dtype = v.dtype;
  out.dims = v.dims;
  out.dims.erase(out.dims.begin() + axis);
  out.bytes = s.outer * s.inner * s.element;
  GE_ASSIGN_OR_RETURN(std::shared_ptr<uint8_t> buffer, AllocateBuffer(out.bytes, "a scan slice"));
  const auto chunk = static_cast<size_t>(s.inner * s.element);
  for (int64_t o = 0; o < s.outer; ++o) {
    std::memcpy(buffer.get() + o * static_cast<int64_t>(chunk),
                v.data.get() + ((o * s.length + index) * s.inner) * s.element, chunk);
  }
  out.data = std::move(buffer);
  out.run_owned = true;
  return out;
}

/// The slices stacked along a new `axis` (all slices must have one dtype and shape).
Result<Value> Stack(const Node& node, const std::vector<Value>& slices, int64_t axis,
                    const std::vector<int64_t>& empty_dims, DataType empty_dtype) {
  Value out;
  if (slices.empty()) {
    out.dtype = empty_dtype;
    out.dims = empty_dims;
    if (out.dims.size() == 1 && out.dims[0] == UNKNOWN_DIM_NUM) out.dims = {};
    for (int64_t& d : out.dims) d = std::max<int64_t>(d, 0);
    axis = std::clamp<int64_t>(axis < 0 ? axis + static_cast<int64_t>(out.dims.size()) + 1 : axis,
                               0, static_cast<int64_t>(out.dims.size()));
    out.dims.insert(out.dims.begin() + axis, 0);
    GE_ASSIGN_OR_RETURN(out.data, AllocateBuffer(0, "an empty scan output"));
    out.run_owned = true;
    return out;
  }
  const Value& first = slices[0];
  const auto rank = static_cast<int64_t>(first.dims.size());
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) {
    return ParamInvalid(Who(node) + ": scan output axis " + std::to_string(axis) +
                        " is out of range for " + GeShape(first.dims).ToString());
  }
  for (const Value& v : slices) {
    if (v.dims != first.dims || v.dtype != first.dtype) {
      return ParamInvalid(Who(node) + ": iterations give scan outputs " +
                          GeShape(first.dims).ToString() + " and " + GeShape(v.dims).ToString() +
                          "; they must all have one shape");
    }
  }
  out.dtype = first.dtype;
  out.dims = first.dims;
  out.dims.insert(out.dims.begin() + axis, static_cast<int64_t>(slices.size()));
  out.bytes = first.bytes * static_cast<int64_t>(slices.size());
  GE_ASSIGN_OR_RETURN(std::shared_ptr<uint8_t> buffer, AllocateBuffer(out.bytes, "a scan output"));
  int64_t outer = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= first.dims[static_cast<size_t>(i)];
  const int64_t chunk = outer > 0 ? first.bytes / outer : 0;
  const auto n = static_cast<int64_t>(slices.size());
  for (int64_t t = 0; t < n; ++t) {
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(buffer.get() + (o * n + t) * chunk,
                  slices[static_cast<size_t>(t)].data.get() + o * chunk,
                  static_cast<size_t>(chunk));
    }
  }
  out.data = std::move(buffer);
  out.run_owned = true;
  return out;
}

// The body of a Loop or Scan gave `want` values.
// Keeps one iteration's scan-output slices until the loop ends. Their running total counts
// against the memory limit, as the stacked outputs they become will: a body that gives a slice
// per iteration for millions of iterations fails naming the node, rather than growing until the
// machine runs out.
Status KeepScanSlices(const Node& node, std::vector<Value>& results, size_t first, int64_t limit,
                      int64_t* kept, std::vector<std::vector<Value>>& scanned) {
  for (size_t k = 0; k < scanned.size(); ++k) {
    Value& slice = results[first + k];
    if (!checked::Add(*kept, slice.bytes, kept) || *kept > limit) {
      return ParamInvalid(Who(node) + ": its scan outputs take more than " + std::to_string(limit) +
                          " bytes after " + std::to_string(scanned[k].size() + 1) +
                          " iterations, over the limit (RuntimeOptions::max_memory_bytes)");
    }
    scanned[k].push_back(std::move(slice));
  }
  return Status::Ok();
}

Status CheckBodyResults(const Node& node, const std::vector<Value>& results, size_t want) {
  if (results.size() == want) return Status::Ok();
  return ParamInvalid(Who(node) + ": its body gave " + std::to_string(results.size()) +
                      " values, " + std::to_string(want) + " expected");
}

}  // namespace

Result<Value> MakeScalar(DataType dtype, int64_t v) {
  Value out;
  out.dtype = dtype;
  out.bytes = dtype == DT_BOOL ? 1 : 8;
  GE_ASSIGN_OR_RETURN(std::shared_ptr<uint8_t> buffer, AllocateBuffer(out.bytes, "a scalar"));
  if (dtype == DT_BOOL) {
    buffer.get()[0] = v != 0 ? 1 : 0;
  } else {
    std::memcpy(buffer.get(), &v, 8);
  }
  out.data = std::move(buffer);
  out.run_owned = true;
  return out;
}

Status GraphExec::RunControlFlow(NodeExec& exec, const std::vector<const Value*>& ins,
                                 std::vector<Value>& outs, std::vector<TaskTiming>* profile,
                                 Clock::time_point run_start) {
  const Node& node = *exec.node;
  // A subgraph's inputs are the node's inputs its Data nodes name by _parent_node_index.
  const SubgraphRunner run = [&](GraphExec& sub, const std::vector<const Value*>& from,
                                 std::vector<Value>& results) -> Status {
    std::vector<Value> sub_inputs(sub.parent_index.size());
    for (size_t i = 0; i < sub_inputs.size(); ++i) {
      const Value* v = from[static_cast<size_t>(sub.parent_index[i])];
      if (v == nullptr) {
        return ParamInvalid(Who(node) + ": subgraph '" + sub.graph->GetName() + "' reads input " +
                            std::to_string(sub.parent_index[i]) + ", which is absent");
      }
      sub_inputs[i] = *v;
    }
    Status status = sub.RunValues(sub_inputs, results, profile, run_start);
    if (!status.ok()) return std::move(status).Prefix("in subgraph '" + sub.graph->GetName() + "'");
    return Status::Ok();
  };
  switch (exec.kind) {
    case Kind::kIf:
    case Kind::kCase: {
      if (ins.empty() || ins[0] == nullptr) return ParamInvalid(Who(node) + " has no condition");
      GE_ASSIGN_OR_RETURN(int64_t pick, ScalarOf(node, *ins[0]));
      size_t branch = 0;
      if (exec.kind == Kind::kIf) {
        branch = pick != 0 ? 0 : 1;  // then_branch, else_branch
      } else {
        // GE's Case: an index out of range takes the last branch (the default).
        const auto n = static_cast<int64_t>(exec.subgraphs.size());
        branch = static_cast<size_t>(pick < 0 || pick >= n ? n - 1 : pick);
      }
      return run(*exec.subgraphs[branch], ins, outs);
    }
    case Kind::kCall:
      return run(*exec.subgraphs[0], ins, outs);
    case Kind::kWhile: {
      // Loop variables start as the inputs; cond sees them, body replaces them.
      std::vector<Value> vars(ins.size());
      for (size_t i = 0; i < ins.size(); ++i) {
        if (ins[i] == nullptr)
          return ParamInvalid(Who(node) + ": loop variable " + std::to_string(i) + " is absent");
        vars[i] = *ins[i];
      }
      for (;;) {
        std::vector<const Value*> current(vars.size());
        for (size_t i = 0; i < vars.size(); ++i) current[i] = &vars[i];
        std::vector<Value> cond;
        GE_RETURN_IF_ERROR(run(*exec.subgraphs[0], current, cond));
        GE_ASSIGN_OR_RETURN(int64_t go, ScalarOf(node, cond[0]));
        if (go == 0) break;
        std::vector<Value> next;
        GE_RETURN_IF_ERROR(run(*exec.subgraphs[1], current, next));
        for (size_t i = 0; i < vars.size(); ++i) {
          if (next[i].dtype != vars[i].dtype) {
            return ParamInvalid(Who(node) + ": the body turns loop variable " + std::to_string(i) +
                                " from " + TypeUtils::DataTypeToSerialString(vars[i].dtype) +
                                " into " + TypeUtils::DataTypeToSerialString(next[i].dtype));
          }
        }
        vars = std::move(next);
      }
      outs = std::move(vars);
      return Status::Ok();
    }
    case Kind::kFor:
      return RunFor(exec, ins, outs, run);
    case Kind::kLoop:
      return RunLoop(exec, ins, outs, run);
    case Kind::kScan:
      return RunScan(exec, ins, outs, run);
    case Kind::kSequenceMap:
      return RunSequenceMap(exec, ins, outs, run);
    default:
      return InternalError(Who(node) + " is not a control-flow node");
  }
}

// GE's For: for (i = start; delta > 0 ? i < limit : i > limit; i += delta) v = body(i, v). The
// body reads i where its Data names input 0 (start) and v[k] where it names input 3 + k.
Status GraphExec::RunFor(NodeExec& exec, const std::vector<const Value*>& ins,
                         std::vector<Value>& outs, const SubgraphRunner& run) {
  const Node& node = *exec.node;
  if (ins.size() < 3 || ins[0] == nullptr || ins[1] == nullptr || ins[2] == nullptr) {
    return ParamInvalid(Who(node) + " needs its start, limit and delta inputs");
  }
  GE_ASSIGN_OR_RETURN(int64_t start, ScalarOf(node, *ins[0]));
  GE_ASSIGN_OR_RETURN(int64_t limit, ScalarOf(node, *ins[1]));
  GE_ASSIGN_OR_RETURN(int64_t delta, ScalarOf(node, *ins[2]));
  if (delta == 0) {
    return ParamInvalid(Who(node) + ": delta is 0, so the loop from " + std::to_string(start) +
                        " to " + std::to_string(limit) + " would never end");
  }
  std::vector<Value> vars(ins.size() - 3);
  for (size_t k = 0; k < vars.size(); ++k) {
    if (ins[3 + k] == nullptr)
      return ParamInvalid(Who(node) + ": loop variable " + std::to_string(k) + " is absent");
    vars[k] = *ins[3 + k];
  }
  for (int64_t i = start; delta > 0 ? i < limit : i > limit; i += delta) {
    GE_ASSIGN_OR_RETURN(Value iteration, MakeScalar(DT_INT32, i));
    std::vector<const Value*> from(ins.begin(), ins.end());
    from[0] = &iteration;
    for (size_t k = 0; k < vars.size(); ++k) from[3 + k] = &vars[k];
    std::vector<Value> results;
    GE_RETURN_IF_ERROR(run(*exec.subgraphs[0], from, results));
    GE_RETURN_IF_ERROR(CheckBodyResults(node, results, vars.size()));
    vars = std::move(results);
  }
  outs = std::move(vars);
  return Status::Ok();
}

// ONNX Loop: for (i = 0; (no M || i < M) && (no cond || cond); ++i) { cond, v, scans = body(i,
// cond, v) }. The body's inputs are (iteration, cond, v..., captured...) by _parent_node_index;
// without a cond input the body's condition output is ignored (a for loop).
Status GraphExec::RunLoop(NodeExec& exec, const std::vector<const Value*>& ins,
                          std::vector<Value>& outs, const SubgraphRunner& run) {
  const Node& node = *exec.node;
  const OpDesc& op = *node.GetOpDescBarePtr();
  std::optional<int64_t> trips;
  if (!ins.empty() && ins[0] != nullptr) {
    GE_ASSIGN_OR_RETURN(int64_t m, ScalarOf(node, *ins[0]));
    trips = m;
  }
  const bool has_cond = ins.size() > 1 && ins[1] != nullptr;
  int64_t go = 1;
  if (has_cond) {
    GE_ASSIGN_OR_RETURN(go, ScalarOf(node, *ins[1]));
  }
  size_t carried = 0;
  for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
    if (op.GetInputNameByIndex(static_cast<uint32_t>(i)).rfind("v_initial", 0) == 0) ++carried;
  }
  if (ins.size() < 2 + carried || op.GetOutputsSize() < carried) {
    return ParamInvalid(Who(node) + " has " + std::to_string(ins.size()) + " inputs and " +
                        std::to_string(op.GetOutputsSize()) + " outputs for " +
                        std::to_string(carried) + " loop-carried values (it needs 2 + " +
                        std::to_string(carried) + " inputs and at least " +
                        std::to_string(carried) + " outputs)");
  }
  std::vector<Value> vars(carried);
  for (size_t k = 0; k < carried; ++k) {
    if (ins[2 + k] == nullptr)
      return ParamInvalid(Who(node) + ": loop-carried input " + std::to_string(k) + " is absent");
    vars[k] = *ins[2 + k];
  }
  const size_t scans = op.GetOutputsSize() - carried;
  std::vector<std::vector<Value>> scanned(scans);
  int64_t kept = 0;
  GE_ASSIGN_OR_RETURN(Value cond_value, MakeScalar(DT_BOOL, go));
  for (int64_t i = 0; (!trips || i < *trips) && go != 0; ++i) {
    GE_ASSIGN_OR_RETURN(Value iteration, MakeScalar(DT_INT64, i));
    std::vector<const Value*> from(ins.begin(), ins.end());
    from[0] = &iteration;
    from[1] = &cond_value;
    for (size_t k = 0; k < carried; ++k) from[2 + k] = &vars[k];
    std::vector<Value> results;
    GE_RETURN_IF_ERROR(run(*exec.subgraphs[0], from, results));
    GE_RETURN_IF_ERROR(CheckBodyResults(node, results, 1 + carried + scans));
    if (has_cond) {
      GE_ASSIGN_OR_RETURN(go, ScalarOf(node, results[0]));
      cond_value = results[0];
    }
    for (size_t k = 0; k < carried; ++k) vars[k] = std::move(results[1 + k]);
    GE_RETURN_IF_ERROR(
        KeepScanSlices(node, results, 1 + carried, max_tensor_bytes, &kept, scanned));
  }
  outs = std::move(vars);
  for (size_t k = 0; k < scans; ++k) {
    const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(carried + k));
    std::vector<int64_t> slice_dims = desc.GetShape().GetDims();
    if (!slice_dims.empty() && slice_dims[0] != UNKNOWN_DIM_NUM)
      slice_dims.erase(slice_dims.begin());
    GE_ASSIGN_OR_RETURN(Value stacked, Stack(node, scanned[k], 0, slice_dims, desc.GetDataType()));
    outs.push_back(std::move(stacked));
  }
  return Status::Ok();
}

// ONNX SequenceMap: the body runs once per element of input_sequence, seeing element i of every
// sequence among the node's inputs (all as long) and every tensor input whole; output k is the
// sequence of the body's output k of each run.
Status GraphExec::RunSequenceMap(NodeExec& exec, const std::vector<const Value*>& ins,
                                 std::vector<Value>& outs, const SubgraphRunner& run) {
  const Node& node = *exec.node;
  const OpDesc& op = *node.GetOpDescBarePtr();
  if (ins.empty() || ins[0] == nullptr || ins[0]->composite == nullptr ||
      ins[0]->composite->kind != ValueType::Kind::kSequence) {
    return ParamInvalid(Who(node) + ": input 0 is not a sequence");
  }
  // The inputs it maps over: input_sequence and additional_inputs (not the captured values).
  std::vector<size_t> mapped;
  for (size_t i = 0; i < ins.size(); ++i) {
    const std::string name = op.GetInputNameByIndex(static_cast<uint32_t>(i));
    if (name.rfind("implicit_input", 0) == 0) continue;
    if (ins[i] != nullptr && ins[i]->composite != nullptr) mapped.push_back(i);
  }
  const size_t count = ins[0]->composite->items.size();
  for (size_t i : mapped) {
    if (ins[i]->composite->kind != ValueType::Kind::kSequence ||
        ins[i]->composite->items.size() != count) {
      return ParamInvalid(Who(node) + ": input " + std::to_string(i) +
                          " is not a sequence as long as input_sequence (" + std::to_string(count) +
                          ")");
    }
  }
  std::vector<Composite> made(op.GetOutputsSize(), Composite{ValueType::Kind::kSequence, {}});
  for (size_t t = 0; t < count; ++t) {
    std::vector<const Value*> from(ins.begin(), ins.end());
    for (size_t i : mapped) from[i] = &ins[i]->composite->items[t];
    std::vector<Value> results;
    GE_RETURN_IF_ERROR(run(*exec.subgraphs[0], from, results));
    GE_RETURN_IF_ERROR(CheckBodyResults(node, results, made.size()));
    for (size_t k = 0; k < made.size(); ++k) made[k].items.push_back(std::move(results[k]));
  }
  outs.clear();
  for (Composite& sequence : made) outs.push_back(CompositeValueOf(std::move(sequence)));
  return Status::Ok();
}

// ONNX Scan (opset 9+): N states and M scan inputs; iteration t gives the body the states and
// slice t of each scan input (reversed where scan_input_directions says 1); the body returns new
// states and K scan-output slices, stacked along scan_output_axes (reversed where asked).
Status GraphExec::RunScan(NodeExec& exec, const std::vector<const Value*>& ins,
                          std::vector<Value>& outs, const SubgraphRunner& run) {
  const Node& node = *exec.node;
  const OpDesc& op = *node.GetOpDescBarePtr();
  int64_t m = 0;
  AttrUtils::GetInt(op, "num_scan_inputs", m);
  size_t n_inputs = 0;
  for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
    if (op.GetInputNameByIndex(static_cast<uint32_t>(i))
            .rfind("initial_state_and_scan_inputs", 0) == 0)
      ++n_inputs;
  }
  if (m < 1 || static_cast<size_t>(m) > n_inputs) {
    return ParamInvalid(Who(node) + ": num_scan_inputs " + std::to_string(m) +
                        " does not fit its " + std::to_string(n_inputs) + " inputs");
  }
  const auto scans_in = static_cast<size_t>(m);
  const size_t states = n_inputs - scans_in;
  std::vector<int64_t> in_axes, in_dirs, out_axes, out_dirs;
  AttrUtils::GetListInt(op, "scan_input_axes", in_axes);
  AttrUtils::GetListInt(op, "scan_input_directions", in_dirs);
  AttrUtils::GetListInt(op, "scan_output_axes", out_axes);
  AttrUtils::GetListInt(op, "scan_output_directions", out_dirs);
  int64_t length = -1;
  std::vector<int64_t> axes(scans_in, 0);
  for (size_t j = 0; j < scans_in; ++j) {
    const Value* v = ins[states + j];
    if (v == nullptr)
      return ParamInvalid(Who(node) + ": scan input " + std::to_string(j) + " is absent");
    int64_t axis = j < in_axes.size() ? in_axes[j] : 0;
    if (axis < 0) axis += static_cast<int64_t>(v->dims.size());
    if (axis < 0 || static_cast<size_t>(axis) >= v->dims.size()) {
      return ParamInvalid(Who(node) + ": scan input " + std::to_string(j) + " " +
                          GeShape(v->dims).ToString() + " has no axis " +
                          std::to_string(j < in_axes.size() ? in_axes[j] : 0));
    }
    axes[j] = axis;
    const int64_t len = v->dims[static_cast<size_t>(axis)];
    if (length >= 0 && len != length) {
      return ParamInvalid(Who(node) + ": scan inputs have " + std::to_string(length) + " and " +
                          std::to_string(len) + " iterations along their scan axes");
    }
    length = len;
  }
  if (op.GetOutputsSize() < states) {
    return ParamInvalid(Who(node) + " has " + std::to_string(states) + " state values but " +
                        std::to_string(op.GetOutputsSize()) + " output(s)");
  }
  std::vector<Value> vars(states);
  for (size_t k = 0; k < states; ++k) {
    if (ins[k] == nullptr)
      return ParamInvalid(Who(node) + ": state " + std::to_string(k) + " is absent");
    vars[k] = *ins[k];
  }
  const size_t scans_out = op.GetOutputsSize() - states;
  std::vector<std::vector<Value>> scanned(scans_out);
  int64_t kept = 0;
  for (int64_t t = 0; t < length; ++t) {
    std::vector<Value> slices(scans_in);
    std::vector<const Value*> from(ins.begin(), ins.end());
    for (size_t k = 0; k < states; ++k) from[k] = &vars[k];
    for (size_t j = 0; j < scans_in; ++j) {
      const bool reverse = j < in_dirs.size() && in_dirs[j] == 1;
      GE_ASSIGN_OR_RETURN(slices[j],
                          SliceAxis(node, *ins[states + j], axes[j], reverse ? length - 1 - t : t));
      from[states + j] = &slices[j];
    }
    std::vector<Value> results;
    GE_RETURN_IF_ERROR(run(*exec.subgraphs[0], from, results));
    GE_RETURN_IF_ERROR(CheckBodyResults(node, results, states + scans_out));
    for (size_t k = 0; k < states; ++k) vars[k] = std::move(results[k]);
    GE_RETURN_IF_ERROR(KeepScanSlices(node, results, states, max_tensor_bytes, &kept, scanned));
  }
  outs = std::move(vars);
  for (size_t k = 0; k < scans_out; ++k) {
    if (k < out_dirs.size() && out_dirs[k] == 1) std::reverse(scanned[k].begin(), scanned[k].end());
    const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(states + k));
    GE_ASSIGN_OR_RETURN(
        Value stacked,
        Stack(node, scanned[k], k < out_axes.size() ? out_axes[k] : 0, {}, desc.GetDataType()));
    outs.push_back(std::move(stacked));
  }
  return Status::Ok();
}

}  // namespace ge::runtime_internal::dynamic
