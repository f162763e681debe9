// PhonyConcat / PhonySplit offset arithmetic, its validity checks, and where offsets are recorded.
#include "continuous_offsets.h"

#include <optional>
#include <string>

#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge_local_constants.h"

namespace ge::ge_local {
namespace {

/// What differs between PhonyConcat and PhonySplit.
struct Layout {
  const char* pieces;      // "input" / "output"
  const char* dim_attr;    // concat_dim / split_dim
  const char* count_attr;  // N / num_split
  const char* keep_attr;   // keep_input_offset / keep_output_offset
  bool last_axis_first;    // PhonySplit walks the lists from the end
};

constexpr Layout kConcatLayout{"input", kAttrConcatDim, kAttrN, kAttrKeepInputOffset, false};
constexpr Layout kSplitLayout{"output", kAttrSplitDim, kAttrNumSplit, kAttrKeepOutputOffset, true};

std::string ListToString(const std::vector<int64_t>& values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(values[i]);
  }
  text += '}';
  return text;
}

std::string Who(const OpDesc& op_desc) {
  return op_desc.GetType() + " node '" + op_desc.GetName() + "'";
}

Result<std::vector<int64_t>> ReadList(const OpDesc& op_desc, const char* name) {
  std::vector<int64_t> values;
  if (!AttrUtils::GetListInt(op_desc, name, values)) {
    return ParamInvalid(Who(op_desc) + ": attribute '" + name +
                        "' is missing or not a list of ints; set it");
  }
  if (values.empty()) {
    return ParamInvalid(Who(op_desc) + ": attribute '" + name +
                        "' is empty; it needs one entry "
                        "per axis the pieces are laid out along");
  }
  return values;
}

// Pieces of different sizes along one axis with only 1s before it (a channel concat at batch 1,
// as the compiler's InPlaceConcat makes): each piece's offset is the bytes of the pieces before
// it. nullopt when the pieces are not of that form.
std::optional<std::vector<int64_t>> PrefixOffsets(const OpDesc& op_desc,
                                                  const std::vector<const GeTensorDesc*>& pieces,
                                                  const Layout& layout) {
  std::vector<int64_t> dims, counts;
  if (!AttrUtils::GetListInt(op_desc, layout.dim_attr, dims) ||
      !AttrUtils::GetListInt(op_desc, layout.count_attr, counts) || dims.size() != 1 ||
      counts.size() != 1 || counts[0] != static_cast<int64_t>(pieces.size())) {
    return std::nullopt;
  }
  const std::vector<int64_t> first = pieces[0]->GetShape().GetDims();
  const auto rank = static_cast<int64_t>(first.size());
  const int64_t axis = dims[0] < 0 ? dims[0] + rank : dims[0];
  if (axis < 0 || axis >= rank) return std::nullopt;
  for (int64_t d = 0; d < axis; ++d) {
    if (first[static_cast<size_t>(d)] != 1) return std::nullopt;
  }
  std::vector<int64_t> offsets;
  int64_t offset = 0;
  for (const GeTensorDesc* piece : pieces) {
    std::vector<int64_t> p = piece->GetShape().GetDims();
    if (p.size() != first.size() || piece->GetDataType() != pieces[0]->GetDataType()) {
      return std::nullopt;
    }
    for (size_t d = 0; d < p.size(); ++d) {
      if (static_cast<int64_t>(d) != axis && p[d] != first[d]) return std::nullopt;
    }
    const int64_t bytes = TensorUtils::CalcTensorMemSize(*piece);
    if (bytes <= 0 || bytes % kAlignBytes != 0) return std::nullopt;
    offsets.push_back(offset);
    offset += bytes;
  }
  return offsets;
}

// Checks the pieces and attributes and returns one offset per piece.
Result<std::vector<int64_t>> CalcOffsets(const OpDesc& op_desc,
                                         const std::vector<const GeTensorDesc*>& pieces,
                                         const Layout& layout) {
  const std::string who = Who(op_desc);
  if (pieces.empty()) return ParamInvalid(who + " has no " + layout.pieces + "s");
  const GeTensorDesc& first = *pieces[0];
  for (size_t k = 1; k < pieces.size(); ++k) {
    if (pieces[k]->GetShape() != first.GetShape()) {
      if (auto offsets = PrefixOffsets(op_desc, pieces, layout)) return *offsets;
      return ParamInvalid(who + ": " + layout.pieces + " " + std::to_string(k) + " has shape " +
                          pieces[k]->GetShape().ToString() + " but " + layout.pieces +
                          " 0 has shape " + first.GetShape().ToString() + "; all " + layout.pieces +
                          "s must have the same shape, or differ along one " + layout.dim_attr +
                          " with only dims of 1 before it (each a multiple of " +
                          std::to_string(kAlignBytes) + " bytes)");
    }
  }
  const int64_t piece_size = TensorUtils::CalcTensorMemSize(first);
  if (piece_size <= 0 || piece_size % kAlignBytes != 0) {
    return ParamInvalid(who + ": each " + layout.pieces + " is " + std::to_string(piece_size) +
                        " bytes (" + first.ToString() +
                        "); it must be positive and a multiple of " + std::to_string(kAlignBytes) +
                        " bytes");
  }
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ReadList(op_desc, layout.dim_attr));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> counts, ReadList(op_desc, layout.count_attr));
  if (dims.size() != counts.size()) {
    return ParamInvalid(who + ": '" + layout.dim_attr + "' " + ListToString(dims) + " and '" +
                        layout.count_attr + "' " + ListToString(counts) +
                        " must have the same length");
  }
  int64_t product = 1;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] <= 0) {
      return ParamInvalid(who + ": '" + layout.count_attr + "'[" + std::to_string(i) +
                          "] = " + std::to_string(counts[i]) + " must be positive");
    }
    if (__builtin_mul_overflow(product, counts[i], &product)) product = -1;
  }
  if (product != static_cast<int64_t>(pieces.size())) {
    return ParamInvalid(who + ": the product of '" + layout.count_attr + "' " +
                        ListToString(counts) + " must equal the number of " + layout.pieces +
                        "s (" + std::to_string(pieces.size()) + ")");
  }
  const auto rank = static_cast<int64_t>(first.GetShape().GetDimNum());
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t dim = dims[i] < 0 ? dims[i] + rank : dims[i];
    if (dim < 0 || dim >= rank) {
      return ParamInvalid(who + ": '" + layout.dim_attr + "'[" + std::to_string(i) +
                          "] = " + std::to_string(dims[i]) + " is out of range [" +
                          std::to_string(-rank) + ", " + std::to_string(rank - 1) + "] for " +
                          layout.pieces + "s of shape " + first.GetShape().ToString());
    }
    dims[i] = dim;
  }

  std::vector<int64_t> offsets(pieces.size(), 0);
  bool keep_offset = true;
  (void)AttrUtils::GetBool(op_desc, layout.keep_attr, keep_offset);
  if (!keep_offset) return offsets;  // the pieces all start at the buffer's beginning

  const DataType dtype = first.GetDataType();
  for (size_t k = 0; k < pieces.size(); ++k) {
    std::vector<int64_t> shape = first.GetShape().GetDims();
    auto remaining = static_cast<int64_t>(k);
    int64_t offset = 0;
    for (size_t step = 0; step < dims.size(); ++step) {
      const size_t i = layout.last_axis_first ? dims.size() - 1 - step : step;
      const auto axis = static_cast<size_t>(dims[i]);
      const int64_t slice = remaining % counts[i];
      remaining /= counts[i];
      int64_t elements = 1;
      bool overflow = false;
      for (size_t d = axis; d < shape.size(); ++d) {
        overflow |= __builtin_mul_overflow(elements, shape[d], &elements);
      }
      const int64_t slab = overflow ? -1 : TypeUtils::GetSizeInBytes(elements, dtype);
      int64_t term = 0;
      if (slab < 0 || __builtin_mul_overflow(slice, slab, &term) ||
          __builtin_add_overflow(offset, term, &offset) ||
          __builtin_mul_overflow(shape[axis], counts[i], &shape[axis])) {
        return ParamInvalid(who + ": the offset of " + layout.pieces + " " + std::to_string(k) +
                            " overflows int64");
      }
    }
    offsets[k] = offset;
  }
  return offsets;
}

// Writes `offset` at `index` of the list attribute `name` of `op_desc`, growing it to `size`.
void RecordOffset(OpDesc& op_desc, const char* name, size_t size, size_t index, int64_t offset) {
  std::vector<int64_t> list;
  (void)AttrUtils::GetListInt(op_desc, name, list);
  if (list.size() < size) list.resize(size, 0);
  if (list.size() <= index) list.resize(index + 1, 0);
  list[index] = offset;
  AttrUtils::SetListInt(op_desc, name, std::move(list));
}

}  // namespace

Status CalcPhonyConcatOffsets(const Node& node) {
  const OpDesc& op_desc = *node.GetOpDescBarePtr();
  std::vector<const GeTensorDesc*> pieces;
  for (size_t i = 0; i < op_desc.GetAllInputsSize(); ++i) {
    pieces.push_back(op_desc.GetInputDescPtr(static_cast<uint32_t>(i)));
  }
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> offsets, CalcOffsets(op_desc, pieces, kConcatLayout));
  for (size_t k = 0; k < offsets.size(); ++k) {
    const InDataAnchorPtr in = node.GetInDataAnchor(static_cast<int>(k));
    const OutDataAnchorPtr peer = in == nullptr ? nullptr : in->GetPeerOutAnchor();
    const NodePtr producer = peer == nullptr ? nullptr : peer->GetOwnerNode();
    if (producer == nullptr) {
      return ParamInvalid(Who(op_desc) + ": input " + std::to_string(k) +
                          " is not linked, so its offset cannot be recorded on its producer");
    }
    OpDesc& producer_desc = *producer->GetOpDescBarePtr();
    RecordOffset(producer_desc, kAttrOutputOffsetListForContinuous, producer_desc.GetOutputsSize(),
                 static_cast<size_t>(peer->GetIdx()), offsets[k]);
  }
  return Status::Ok();
}

Status CalcPhonySplitOffsets(const Node& node) {
  const OpDesc& op_desc = *node.GetOpDescBarePtr();
  std::vector<const GeTensorDesc*> pieces;
  for (size_t i = 0; i < op_desc.GetOutputsSize(); ++i) {
    pieces.push_back(op_desc.GetOutputDescPtr(static_cast<uint32_t>(i)));
  }
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> offsets, CalcOffsets(op_desc, pieces, kSplitLayout));
  for (size_t k = 0; k < offsets.size(); ++k) {
    const OutDataAnchorPtr out = node.GetOutDataAnchor(static_cast<int>(k));
    if (out == nullptr) continue;
    for (const InDataAnchorPtr& peer : out->GetPeerInDataAnchors()) {
      const NodePtr consumer = peer->GetOwnerNode();
      if (consumer == nullptr) continue;
      OpDesc& consumer_desc = *consumer->GetOpDescBarePtr();
      RecordOffset(consumer_desc, kAttrInputOffsetListForContinuous,
                   consumer_desc.GetAllInputsSize(), static_cast<size_t>(peer->GetIdx()),
                   offsets[k]);
    }
  }
  return Status::Ok();
}

}  // namespace ge::ge_local
