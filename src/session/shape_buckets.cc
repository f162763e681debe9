// Shape buckets and resizing: see shape_buckets.h.
#include "shape_buckets.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>

#include "ge/compiler/compile_options.h"
#include "ge/graph/types.h"

namespace ge::session_internal {

int64_t Bucket::SizeFor(int64_t n) const {
  if (multiple > 0) {
    const int64_t rest = n % multiple;
    return rest == 0 || n > INT64_MAX - multiple ? n : n - rest + multiple;
  }
  for (int64_t size : sizes) {
    if (size >= n) return size;
  }
  return n;
}

Result<std::map<std::string, Bucket>> ParseBuckets(const std::string& text) {
  std::map<std::string, Bucket> buckets;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(';', begin);
    if (end == std::string::npos) end = text.size();
    const std::string entry = text.substr(begin, end - begin);
    begin = end + 1;
    if (entry.empty()) continue;
    auto bad = [&](const std::string& why) {
      return ParamInvalid("option " + std::string(kOptShapeBuckets) + "='" + text + "': '" + entry +
                          "': " + why);
    };
    const size_t colon = entry.rfind(':');
    if (colon == 0 || colon == std::string::npos || colon + 1 == entry.size()) {
      return bad("expected DIM:M (a multiple) or DIM:S1,S2,... (sizes)");
    }
    std::vector<int64_t> sizes;
    for (size_t at = colon + 1; at <= entry.size();) {
      size_t comma = entry.find(',', at);
      if (comma == std::string::npos) comma = entry.size();
      int64_t value = 0;
      const char* first = entry.data() + at;
      const char* last = entry.data() + comma;
      auto [ptr, ec] = std::from_chars(first, last, value);
      if (first == last || ec != std::errc() || ptr != last || value <= 0) {
        return bad("sizes are whole numbers above 0");
      }
      if (!sizes.empty() && value <= sizes.back()) return bad("sizes must be listed ascending");
      sizes.push_back(value);
      at = comma + 1;
    }
    Bucket bucket;
    if (sizes.size() == 1) {
      bucket.multiple = sizes[0];
    } else {
      bucket.sizes = std::move(sizes);
    }
    if (!buckets.emplace(entry.substr(0, colon), std::move(bucket)).second) {
      return bad("the dim is given twice");
    }
  }
  return buckets;
}

Result<GeTensor> Resized(const GeTensor& from, const std::vector<int64_t>& dims,
                         const std::string& what) {
  const GeTensorDesc& desc = from.GetTensorDesc();
  const std::vector<int64_t>& have = desc.GetShape().GetDims();
  const int32_t element = TypeUtils::GetSizeByDataType(desc.GetDataType());
  const int64_t have_count = desc.GetShape().GetShapeSize();
  const int64_t want_count = GeShape(dims).GetShapeSize();
  if (have.size() != dims.size() || element <= 0 || element >= kDataTypeSizeBitOffset ||
      have_count < 0 || want_count < 0 ||
      from.GetData().size() != static_cast<size_t>(have_count) * static_cast<size_t>(element)) {
    return ParamInvalid(what + " " + desc.GetShape().ToString() + " of " +
                        std::to_string(from.GetData().size()) + " bytes cannot be resized to " +
                        GeShape(dims).ToString());
  }
  GeTensorDesc to_desc = desc;
  to_desc.SetShape(GeShape(dims));
  to_desc.SetOriginShape(GeShape(dims));
  std::vector<uint8_t> bytes(static_cast<size_t>(want_count) * static_cast<size_t>(element), 0);
  const size_t rank = dims.size();
  std::vector<int64_t> box(rank);
  for (size_t d = 0; d < rank; ++d) box[d] = std::min(have[d], dims[d]);
  const bool empty = std::any_of(box.begin(), box.end(), [](int64_t d) { return d == 0; });
  if (rank == 0) {
    std::memcpy(bytes.data(), from.GetData().data(), bytes.size());
  } else if (!empty) {
    const size_t row = static_cast<size_t>(box[rank - 1]) * static_cast<size_t>(element);
    std::vector<int64_t> index(rank, 0);  // of the row being copied; its last dim stays 0
    const uint8_t* src = from.GetData().data();
    for (;;) {
      int64_t src_at = 0;
      int64_t dst_at = 0;
      for (size_t d = 0; d < rank; ++d) {
        src_at = src_at * have[d] + index[d];
        dst_at = dst_at * dims[d] + index[d];
      }
      std::memcpy(bytes.data() + dst_at * element, src + src_at * element, row);
      size_t d = rank - 1;
      while (d > 0 && ++index[d - 1] == box[d - 1]) index[--d] = 0;
      if (d == 0) break;
    }
  }
  return GeTensor(std::move(to_desc), std::move(bytes));
}

}  // namespace ge::session_internal
