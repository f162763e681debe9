// TensorUtils: tensor sizes by GE's rules (docs/ge_compatibility.md, "Tensor sizes") and typed
// access to desc metadata.
#pragma once

#include <cstdint>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

class GE_API TensorUtils {
 public:
  TensorUtils() = delete;

  /// Bytes of the tensor without alignment: -1 if any dim is unknown (or the shape has unknown
  /// rank, or the dtype has no size, or on overflow), 0 if any dim is 0, else elements × element
  /// size (sub-byte types rounded up to whole bytes; STRING counts 16 bytes an element). A scalar
  /// holds one element.
  static int64_t CalcTensorMemSize(const GeShape& shape, DataType dtype);
  static int64_t CalcTensorMemSize(const GeTensorDesc& desc) {
    return CalcTensorMemSize(desc.GetShape(), desc.GetDataType());
  }
  /// GE's device size: ((size + 63) / 32) × 32, i.e. a 32-byte round-up plus 32 bytes of padding.
  /// Fails for unknown shapes.
  static Result<int64_t> GetTensorMemorySizeInBytes(const GeTensorDesc& desc);
  /// The auto-padded size used for Data outputs: ((size + 32 + pad − 1) / 32) × 32, and 32 when
  /// that is 0. Fails for unknown shapes.
  static Result<int64_t> GetTensorSizeInBytesWithAutoPadding(const GeTensorDesc& desc,
                                                             int64_t pad = 32);
  /// Rounds `size` up to a multiple of `alignment` (> 0); -1 on overflow or a negative size.
  static int64_t AlignUp(int64_t size, int64_t alignment);

  // GE-style accessors for the extended metadata (kept for familiarity).
  static void SetSize(GeTensorDesc& desc, int64_t size) { desc.SetSize(size); }
  static int64_t GetSize(const GeTensorDesc& desc) { return desc.GetSize(); }
  static void SetReuseInput(GeTensorDesc& desc, bool reuse) { desc.SetReuseInput(reuse); }
  static bool GetReuseInput(const GeTensorDesc& desc) { return desc.GetReuseInput(); }
  static void SetReuseInputIndex(GeTensorDesc& desc, uint32_t idx) { desc.SetReuseInputIndex(idx); }
  static uint32_t GetReuseInputIndex(const GeTensorDesc& desc) { return desc.GetReuseInputIndex(); }
  static void SetDataOffset(GeTensorDesc& desc, int64_t offset) { desc.SetDataOffset(offset); }
  static int64_t GetDataOffset(const GeTensorDesc& desc) { return desc.GetDataOffset(); }
  static void SetWeightSize(GeTensorDesc& desc, int64_t size) { desc.SetWeightSize(size); }
  static int64_t GetWeightSize(const GeTensorDesc& desc) { return desc.GetWeightSize(); }
  static void SetRealDimCnt(GeTensorDesc& desc, uint32_t cnt) { desc.SetRealDimCnt(cnt); }
  static uint32_t GetRealDimCnt(const GeTensorDesc& desc) { return desc.GetRealDimCnt(); }
};

}  // namespace ge
