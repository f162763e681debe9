// Bytes of a file, read-only and shared: a mapping whose pages the kernel shares between the
// processes that map the same file, or a copy of bytes held in memory. Views into them (a
// weight's bytes) keep them alive through the shared_ptr's aliasing constructor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"

namespace ge {

/// The bytes of a whole file, kept alive by whoever holds a view into them.
struct FileBytes {
  std::shared_ptr<const uint8_t> data;
  size_t size = 0;
  bool mapped = false;  ///< true when `data` is a read-only mapping of the file
  std::span<const uint8_t> span() const { return {data.get(), size}; }
};

/// The file at `path`, mapped read-only and private; an empty file reads as no bytes. The
/// error names the path and the system's reason.
///
/// A file truncated while it is mapped makes reads past its new end fault (SIGBUS), which would
/// end the process wherever it reads, in a kernel or on a thread of its own. MapFile guards its
/// mappings: such a fault is answered with pages of zeros and the mapping is marked damaged, so
/// that its reader fails with CheckMappedFile instead (a fault anywhere else goes to the handler
/// that was there before). Replacing a file by renaming another over it never faults: the
/// mapping keeps the old file.
Result<FileBytes> MapFile(const std::string& path);

/// An error naming the file when the mapping starting at `mapping` (FileBytes::data of a MapFile
/// result) was read past its file's end since it was made: the file was truncated while mapped,
/// and what was read there were zeros, not its bytes. Ok otherwise, and for bytes MapFile did not
/// map.
Status CheckMappedFile(const uint8_t* mapping);

/// `size` bytes at `data` copied into memory of their own, 64-byte aligned (as a mapping's
/// start is), so views keep the alignment kernels rely on.
FileBytes CopyAligned(const uint8_t* data, size_t size);

/// Tells the kernel this process no longer needs the whole pages inside [data, data + size) of
/// a read-only file mapping: they leave its resident set (the page cache keeps them, so a later
/// read faults them back in with the same bytes). Partial pages at either end are kept, since a
/// neighbour may still read them.
void ReleaseMappedPages(const uint8_t* data, size_t size);

/// `size` bytes at `at` inside `file`, as tensor bytes that own their memory or share `file`'s.
/// From a mapping, bytes at a 64-byte boundary are shared where they lie, and their pages are
/// released from the resident set when the last holder lets go; bytes elsewhere are copied once
/// into aligned memory, in slices whose pages are released as each is copied (the bytes are
/// never resident twice). Bytes of a copy are copied, so the result never pins a whole file for
/// one tensor.
std::shared_ptr<const uint8_t> ViewOrCopy(const FileBytes& file, const uint8_t* at, size_t size);

/// Whether ViewOrCopy(file, at, size) shares the mapping's bytes (GeTensor::IsFileMapped) rather
/// than copying them.
bool ViewsInPlace(const FileBytes& file, const uint8_t* at);

/// Makes the `size` bytes at `at` inside `file` `tensor`'s bytes, through ViewOrCopy: shared
/// where they lie (IsFileMapped), or copied, a copy out of a mapping remembering its source
/// (GeTensor::FileSource) so that a holder may drop it and copy it again (CopyOfFileSource).
/// Large unaligned bytes of a mapping are deferred instead (GeTensor::SetDeferredData): copied
/// the first time something reads them aligned, read where they lie by a packing reorder.
void SetBytesFromFile(GeTensor& tensor, const FileBytes& file, const uint8_t* at, size_t size);

/// A new copy of the `size` bytes of a FileSource, made as ViewOrCopy copies out of a mapping.
std::shared_ptr<const uint8_t> CopyOfFileSource(const std::shared_ptr<const uint8_t>& source,
                                                size_t size);

}  // namespace ge
