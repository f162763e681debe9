// Message helpers shared by the serializer.
#include "serialize_internal.h"

#include <cstdio>

namespace ge::serialize {

Status CheckUtf8(std::string_view text, std::string_view field) {
  if (IsValidUtf8(text)) return Status::Ok();
  return ParamInvalid(std::string(field) + " " + Quote(text) +
                      " is not valid UTF-8, which protobuf requires of string fields; rename it");
}

}  // namespace ge::serialize
