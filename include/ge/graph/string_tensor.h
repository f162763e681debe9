// The values of DT_STRING tensors. An element is a StringHead (16 bytes, kStringElementBytes):
// where its bytes are and how many there are.
//
// Two forms, as in GE:
// - Stored (a GeTensor: a Const's value, a caller's input, a run's output, an .om file): the heads
//   of all elements first, then the bytes of each string followed by a NUL. A head's `addr` is the
//   offset of its bytes from the start of the data, so the tensor can be copied and saved as is.
// - Running (a tensor in a run's memory): the heads only, each `addr` the address of its bytes.
//   The bytes are a caller's input, a Const's value, or what a kernel made in the run's
//   StringStore; all of them live until the run ends, so a kernel that moves elements (Identity,
//   Gather, Concat) copies heads and never bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/types.h"
#include "ge/graph/visibility.h"

namespace ge {

/// GE's head of one string element.
struct StringHead {
  int64_t addr = 0;  ///< stored: offset of the bytes from the data's start; running: address
  int64_t len = 0;   ///< bytes, without the NUL
};
static_assert(sizeof(StringHead) == kStringElementBytes);

/// The stored form of `values`.
GE_API std::vector<uint8_t> EncodeStrings(const std::vector<std::string_view>& values);
/// A DT_STRING tensor of `dims` holding `values` (as many as the dims give) in the stored form.
GE_API GeTensor MakeStringTensor(const std::vector<int64_t>& dims,
                                 const std::vector<std::string>& values);
/// The `count` strings of stored data [data, data + size): views into it. An error (naming
/// `where`) when the data is shorter than its heads or a head points outside the data.
GE_API Result<std::vector<std::string_view>> DecodeStrings(const uint8_t* data, size_t size,
                                                           int64_t count, const std::string& where);
/// The strings of a stored DT_STRING tensor (its element count from its shape).
GE_API Result<std::vector<std::string_view>> StringsOf(const GeTensor& tensor,
                                                       const std::string& where);

/// String `index` of running heads.
inline std::string_view ReadString(const void* heads, int64_t index) {
  const StringHead& h = static_cast<const StringHead*>(heads)[index];
  return {reinterpret_cast<const char*>(static_cast<uintptr_t>(h.addr)),
          static_cast<size_t>(h.len)};
}
/// Makes running head `index` name `value`, whose bytes must live until the run ends.
inline void WriteString(void* heads, int64_t index, std::string_view value) {
  StringHead& h = static_cast<StringHead*>(heads)[index];
  h.addr = static_cast<int64_t>(reinterpret_cast<uintptr_t>(value.data()));
  h.len = static_cast<int64_t>(value.size());
}

/// The bytes of the strings one run makes, kept until the run ends (Clear). A run context owns
/// one; the kernels it loads get it through KernelSpec / TaskLoadContext. Not thread-safe: one
/// run uses it at a time, from the thread running its string kernels.
class GE_API StringStore {
 public:
  /// `limit`: the most bytes it may hold (0: no limit); Keep fails beyond it.
  explicit StringStore(int64_t limit = 0) : limit_(limit) {}
  StringStore(const StringStore&) = delete;
  StringStore& operator=(const StringStore&) = delete;

  /// A copy of `value` that lives until Clear.
  Result<std::string_view> Keep(std::string_view value);
  /// Running heads for the `count` strings of stored `data` (its element count), pointing into
  /// `data`, which must live as long as they are read; an error when `data` is malformed.
  Result<const StringHead*> Bind(const uint8_t* data, size_t size, int64_t count,
                                 const std::string& where);
  /// Changes the limit (see the constructor).
  void set_limit(int64_t limit) { limit_ = limit; }
  /// Frees everything kept and bound.
  void Clear();
  /// Bytes held now.
  int64_t bytes() const { return bytes_; }

 private:
  Result<char*> Allocate(size_t bytes);

  int64_t limit_ = 0;
  int64_t bytes_ = 0;
  std::vector<std::unique_ptr<char[]>> blocks_;  ///< blocks_.back() is being filled
  size_t used_ = 0;                              ///< bytes used of blocks_.back()
  size_t capacity_ = 0;                          ///< its size
};

/// The stored form of the `count` running heads at `heads`: a tensor of `dims` that owns its bytes.
GE_API GeTensor StoreStrings(const void* heads, const std::vector<int64_t>& dims);

}  // namespace ge
